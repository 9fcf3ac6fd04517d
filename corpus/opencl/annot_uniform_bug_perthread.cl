//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=1
//annot_uniform_bug_perthread.cl:14:10: error: loop invariant might not hold on entry

// Like annot_uniform.cl, but each work item reads its own count: the counts may
// differ between work items, so the claimed uniformity fails on entry (and the
// barrier in the loop may be reached by some work items only).
__kernel void reduce_dyn(__global const int *in, __global int *out, __global const int *cfg) {
  __local int buf[64];
  unsigned lid = get_local_id(0);
  buf[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  int s = cfg[lid];
  for (; __invariant(__uniform_int(s)), s > 0; s >>= 1) {
    if (lid < s && lid + s < 64)
      buf[lid] += buf[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    out[get_group_id(0)] = buf[0];
}
