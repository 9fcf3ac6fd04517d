//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//reduce_bug_divergence.cl:15:[0-9]+: error: barrier may be reached by non-uniform control flow

// reduce.cl with the barrier moved inside "if (lid < s)": work items that
// have dropped out of the reduction no longer reach it.
__kernel void reduce(__global const int *in, __global int *partial) {
  __local int sdata[64];
  unsigned lid = get_local_id(0);
  sdata[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (unsigned s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (lid < s) {
      sdata[lid] += sdata[lid + s];
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
  if (lid == 0)
    partial[get_group_id(0)] = sdata[0];
}
