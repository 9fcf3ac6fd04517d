//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8 --clang-opt=-Wno-uninitialized
//tree_width_bug_uninit.cl:20:5: error: barrier may be reached by non-uniform control flow

// Tree reduction of one tile per work group; for small inputs the host asks for
// half-width tiles (small != 0), and only the first 32 work items contribute.  Bug:
// `width` is only set for small inputs; otherwise each work item reads whatever its
// register holds, so work items run different numbers of loop iterations.
__kernel void tree_width(__global const float *in, __global float *out, int small) {
  __local float s[64];
  unsigned lid = get_local_id(0);
  unsigned width;
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
