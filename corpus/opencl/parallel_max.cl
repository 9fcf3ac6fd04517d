//pass
//--local_size=64 --num_groups=8

// Maximum of each group's 64 unsigned values: tree reduction with max().
__kernel void parallel_max(__global const unsigned *in, __global unsigned *res) {
  __local unsigned m[64];
  unsigned lid = get_local_id(0);
  m[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (unsigned s = 32; s > 0; s /= 2) {
    if (lid < s)
      m[lid] = max(m[lid], m[lid + s]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    res[get_group_id(0)] = m[0];
}
