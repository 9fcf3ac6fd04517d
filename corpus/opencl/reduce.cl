//pass
//--local_size=64 --num_groups=8

// Tree reduction of one 64-element block in local memory; work item 0 of
// each group writes the group's partial sum.
__kernel void reduce(__global const int *in, __global int *partial) {
  __local int sdata[64];
  unsigned lid = get_local_id(0); __requires(get_local_size(0) == 64);
  sdata[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (unsigned s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (lid < s)
      sdata[lid] += sdata[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    partial[get_group_id(0)] = sdata[0];
}
