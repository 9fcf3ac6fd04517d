//pass
//--local_size=64 --num_groups=1

// A global loop invariant holds for every work item only when guarded by __enabled().
__kernel void countdown(__global int *out, int n) {
  __requires(get_num_groups(0) == 1);  // out[lid]: one work group
  size_t lid = get_local_id(0);
  int i = (int)lid;
  while (__global_invariant(__implies(__enabled(), i >= 0)), i > 0)
    i -= 1;
  out[lid] = i;
}
