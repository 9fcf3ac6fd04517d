//pass
//--local_size=64 --num_groups=8

// Each work item publishes a value in global memory and, after a barrier
// whose fence covers global memory, reads its neighbour's value.
__kernel void neighbour_global(__global int *buf, __global int *out) {
  unsigned gid = get_global_id(0); __requires(get_local_size(0) == 64);
  unsigned lid = get_local_id(0);
  unsigned base = get_group_id(0) * get_local_size(0);
  buf[gid] = (int)gid * 3;
  barrier(CLK_GLOBAL_MEM_FENCE);
  out[gid] = buf[base + (lid + 1) % 64];
}
