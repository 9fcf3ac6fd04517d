//pass
//--local_size=64 --num_groups=8

// mem_fence orders a work item's own accesses (here: its write before its own
// read); sharing with the neighbour still goes through a barrier.
__kernel void rotate(__global const int *in, __global int *out) {
  __local int tile[64];
  unsigned lid = get_local_id(0);
  tile[lid] = in[get_global_id(0)];
  mem_fence(CLK_LOCAL_MEM_FENCE);
  int own = tile[lid];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = own + tile[(lid + 1) % 64];
}
