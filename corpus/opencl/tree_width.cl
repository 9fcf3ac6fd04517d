//pass
//--local_size=64 --num_groups=8

// Tree reduction of one tile per work group; for small inputs the host asks for
// half-width tiles (small != 0), and only the first 32 work items contribute.
__kernel void tree_width(__global const float *in, __global float *out, int small) {
  __local float s[64];
  unsigned lid = get_local_id(0);
  unsigned width = 64;
  if (small)
    width = 32;
  s[lid] = lid < width ? in[get_global_id(0)] : 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (unsigned stride = width / 2; stride > 0; stride >>= 1) {
    if (lid < stride)
      s[lid] += s[lid + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    out[get_group_id(0)] = s[0];
}
