//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//possible write-read race on .*tile\[
//fence_local_bug_globalfence.cl:11:
//fence_local_bug_globalfence.cl:13:

// A local-memory exchange whose barrier fences only global memory.
__kernel void rotate(__global const int *in, __global int *out) {
  __local int tile[64];
  unsigned lid = get_local_id(0);
  tile[lid] = in[get_global_id(0)];
  barrier(CLK_GLOBAL_MEM_FENCE);
  out[get_global_id(0)] = tile[(lid + 1) % 64];
}
