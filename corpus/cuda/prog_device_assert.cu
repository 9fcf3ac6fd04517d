//pass
//--blockDim=64 --gridDim=8

// assert() in device code is checked by the verifier: here the bucket index is always
// inside the histogram, so the assertion holds for every thread.
#include <cassert>
#include <cstdio>
#include <cuda_runtime.h>

#define BINS 64

__global__ void histogram(const unsigned int *keys, unsigned int *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  unsigned int bucket = keys[i] & (BINS - 1);
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
