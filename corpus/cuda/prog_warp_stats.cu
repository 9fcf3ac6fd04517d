//pass
//--blockDim=256 --gridDim=16

// Per-warp statistics with warp votes and bit intrinsics: each warp counts its positive
// elements with __ballot_sync/__popc, lane 0 stores the count in shared memory, and
// after __syncthreads the first threads publish the block's counts and the index of
// the first warp with any positive element (__ffs of a ballot over the counts).
#include <cstdio>
#include <cuda_runtime.h>

#define WARPS 8

__global__ void warpStats(const int *in, int *flags, int *warpCounts, int *firstWarp) {
  __shared__ int counts[WARPS];
  unsigned int lane = threadIdx.x % warpSize; __requires(blockDim.x == WARPS * 32);
  unsigned int warp = threadIdx.x / warpSize;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool keep = in[i] > 0;
  unsigned int ballot = __ballot_sync(0xffffffffu, keep);
  if (lane == 0)
    counts[warp] = __popc(ballot);
  flags[i] = keep ? 32 - __clz(ballot) : 0;
  __syncthreads();
  if (threadIdx.x < WARPS)
    warpCounts[blockIdx.x * WARPS + threadIdx.x] = counts[threadIdx.x];
  if (threadIdx.x < warpSize) {
    unsigned int any = __ballot_sync(0xffffffffu, threadIdx.x < WARPS && counts[threadIdx.x] > 0);
    if (threadIdx.x == 0)
      firstWarp[blockIdx.x] = __ffs(any) - 1;
  }
}

int main() {
  int *in, *flags, *counts, *first;
  cudaMalloc(&in, 4096 * sizeof(int));
  cudaMalloc(&flags, 4096 * sizeof(int));
  cudaMalloc(&counts, 16 * WARPS * sizeof(int));
  cudaMalloc(&first, 16 * sizeof(int));
  warpStats<<<16, 256>>>(in, flags, counts, first);
  cudaDeviceSynchronize();
  return 0;
}
