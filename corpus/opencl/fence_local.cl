//pass
//--local_size=64 --num_groups=8

// A local-memory rotation whose barrier fences local memory.
__kernel void rotate(__global const int *in, __global int *out) {
  __local int tile[64];
  unsigned lid = get_local_id(0);
  tile[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[(lid + 1) % 64];
}
