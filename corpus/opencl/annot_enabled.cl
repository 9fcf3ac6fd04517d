//pass
//--local_size=64 --num_groups=1

// __enabled() is true for a work item executing the annotation.  The global loop
// invariant holds for every work item, in the loop or not, only when guarded by it.
__kernel void countdown(__global int *out, int n) {
  size_t lid = get_local_id(0);
  int i = (int)lid;
  while (__global_invariant(__implies(__enabled(), i >= 0)), i > 0)
    i -= 1;
  out[lid] = i;
}
