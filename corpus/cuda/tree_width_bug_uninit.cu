//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=8 --clang-opt=-Wno-uninitialized
//tree_width_bug_uninit.cu:20:5: error: barrier may be reached by non-uniform control flow

// Tree reduction of one tile per thread block; for small inputs the host asks for
// half-width tiles (small != 0), and only the first 32 threads contribute.  Bug: `width`
// is only set for small inputs; otherwise each thread reads whatever its register
// holds, so threads run different numbers of loop iterations.
__global__ void tree_width(const float *in, float *out, int small) {
  __shared__ float s[64];
  unsigned tid = threadIdx.x;
  unsigned width;
  if (small)
    width = 32;
  s[tid] = tid < width ? in[blockIdx.x * blockDim.x + tid] : 0.0f;
  __syncthreads();
  for (unsigned stride = width / 2; stride > 0; stride >>= 1) {
    if (tid < stride)
      s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}
