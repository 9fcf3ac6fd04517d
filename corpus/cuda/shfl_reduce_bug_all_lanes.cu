//xfail:NOT_ALL_VERIFIED
//--blockDim=256 --gridDim=16
//possible write-write race on .*warp_sums\[
//shfl_reduce_bug_all_lanes.cu:15:

// shfl_reduce.cu without the lane-0 guard: after the shuffles only lane 0 holds the
// warp's sum, the other lanes partial sums, and all 32 lanes store their different
// values into the same warp_sums cell.
__global__ void block_sum(const float *in, float *out) {
  __shared__ float warp_sums[8];
  unsigned t = threadIdx.x, warp = t / warpSize;
  float v = in[blockIdx.x * blockDim.x + t];
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  warp_sums[warp] = v;
  __syncthreads();
  if (t == 0) {
    float sum = 0.0f;
    for (int w = 0; w < 8; w++)
      sum += warp_sums[w];
    out[blockIdx.x] = sum;
  }
}
