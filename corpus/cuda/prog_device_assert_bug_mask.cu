//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=8
//prog_device_assert_bug_mask.cu:18:[0-9]+: error: this assertion might not hold

// The bucket mask is one bit too wide (2 * BINS - 1), so a key can select a bucket past
// the end: the device assert() catches it.
#include <cassert>
#include <cstdio>
#include <cuda_runtime.h>

#define BINS 64

__global__ void histogram(const unsigned int *keys, unsigned int *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  unsigned int bucket = keys[i] & (2 * BINS - 1);
  assert(bucket < BINS);
  atomicAdd(&bins[bucket], 1u);
}

int main() {
  unsigned int *keys, *bins;
  cudaMalloc(&keys, 512 * sizeof(unsigned int));
  cudaMalloc(&bins, BINS * sizeof(unsigned int));
  cudaMemset(bins, 0, BINS * sizeof(unsigned int));
  histogram<<<8, 64>>>(keys, bins, 512);
  cudaDeviceSynchronize();
  return 0;
}
