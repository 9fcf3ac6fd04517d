//xfail:NOT_ALL_VERIFIED
//--blockDim=128 --gridDim=4
//syncwarp_halves_bug_mask.cu:15:3: error: barrier may be reached by non-uniform control flow

// syncwarp_halves.cu where the lower half names the whole warp in its mask
// while the upper half still names only itself: a warp-collective operation
// whose argument differs between lanes it names (CUDA's counterpart of an
// OpenCL work-group copy with per-work-item arguments), reported like barrier
// divergence.
__global__ void half_warp_pairs(const int *in, int *out) {
  __shared__ int s[128];
  unsigned t = threadIdx.x, lane = t % 32;
  unsigned half = lane < 16 ? 0xffffffffu : 0xffff0000u;
  s[t] = in[blockIdx.x * 128 + t];
  __syncwarp(half);
  out[blockIdx.x * 128 + t] = s[t] + s[t ^ 1];
}
