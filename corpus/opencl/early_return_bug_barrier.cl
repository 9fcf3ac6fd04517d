//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//early_return_bug_barrier.cl:15:[0-9]+: error: barrier may be reached by non-uniform control flow

// Block-wise reversal that returns early for work items past n before the
// barrier: unless n is a multiple of 64, part of a group skips the barrier.
__kernel void reverse_blocks(__global const int *in, __global int *out,
                             unsigned n) {
  __local int buf[64];
  unsigned lid = get_local_id(0);
  unsigned gid = get_global_id(0);
  if (gid >= n)
    return;
  buf[lid] = in[gid];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[gid] = buf[63 - lid];
}
