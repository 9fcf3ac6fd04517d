//pass
//--local_size=64 --num_groups=8

// Work item 0 publishes the group id in local memory; after the barrier every
// work item reads it and writes its own element of out (indexed by the
// global id, so groups do not overlap).
__kernel void publish(__global unsigned *out) {
  __local unsigned s;
  unsigned lid = get_local_id(0);
  if (lid == 0)
    s = get_group_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (s == get_group_id(0))
    out[get_global_id(0)] = s;
}
