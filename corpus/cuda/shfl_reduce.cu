//pass
//--blockDim=256 --gridDim=16

// Block sum with warp shuffles (the CUDA samples' "reduce" final stage): each warp
// folds its 32 values with __shfl_down_sync, lane 0 of every warp stores the warp's
// sum, and after the barrier thread 0 adds the 8 warp sums.
__global__ void block_sum(const float *in, float *out) {
  __shared__ float warp_sums[8];
  unsigned t = threadIdx.x, lane = t % warpSize, warp = t / warpSize;
  float v = in[blockIdx.x * blockDim.x + t];
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  if (lane == 0)
    warp_sums[warp] = v;
  __syncthreads();
  if (t == 0) {
    float sum = 0.0f;
    for (int w = 0; w < 8; w++)
      sum += warp_sums[w];
    out[blockIdx.x] = sum;
  }
}
