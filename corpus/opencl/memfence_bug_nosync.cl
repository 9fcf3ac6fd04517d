//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//possible write-read race on .*tile\[
//memfence_bug_nosync.cl:11:
//memfence_bug_nosync.cl:13:

// mem_fence orders one work item's own accesses; it does not synchronize.
__kernel void rotate(__global const int *in, __global int *out) {
  __local int tile[64];
  unsigned lid = get_local_id(0);
  tile[lid] = in[get_global_id(0)];
  mem_fence(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[(lid + 1) % 64];
}
