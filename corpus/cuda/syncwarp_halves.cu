//pass
//--blockDim=128 --gridDim=4

// Pairwise sums inside half-warps: each half of a warp synchronises only its
// own 16 lanes with __syncwarp(mask).  The mask differs between the halves but
// is the same for all lanes that it names, as CUDA requires of the arguments
// of a warp-collective operation.
__global__ void half_warp_pairs(const int *in, int *out) {
  __shared__ int s[128];
  unsigned t = threadIdx.x, lane = t % 32; __requires(blockDim.x == 128);
  unsigned half = lane < 16 ? 0x0000ffffu : 0xffff0000u;
  s[t] = in[blockIdx.x * 128 + t];
  __syncwarp(half);
  out[blockIdx.x * 128 + t] = s[t] + s[t ^ 1];
}
