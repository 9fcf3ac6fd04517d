//pass
//
//kernel reverseChunks, launched at .*prog_launch_chunks.cu:39:\d+ \(sizes read from the host code\): for the launch with blockDim = \(128, 1, 1\), gridDim = \(8192, 1, 1\)

// Reverses every chunk of CHUNK elements in place through shared memory, one block per
// chunk.  The kernel indexes with CHUNK, not blockDim.x, so it is race-free only when it
// is launched with CHUNK threads per block -- which main() does: no size flag is given,
// the sizes are read from the <<<...>>> below (constant-folded: N / CHUNK blocks).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <helper_cuda.h>

#define CHUNK 128

__global__ void reverseChunks(int *data) {
  __shared__ int chunk[CHUNK];
  int base = blockIdx.x * CHUNK;
  chunk[threadIdx.x] = data[base + threadIdx.x];
  __syncthreads();
  data[base + threadIdx.x] = chunk[CHUNK - 1 - threadIdx.x];
}

static void fill(int *h, int n) {
  for (int i = 0; i < n; ++i)
    h[i] = i;
}

int main(void) {
  const int N = 1 << 20;
  size_t bytes = N * sizeof(int);
  int *h = (int *)malloc(bytes);
  fill(h, N);
  int *d = NULL;
  checkCudaErrors(cudaMalloc((void **)&d, bytes));
  checkCudaErrors(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
  dim3 block(CHUNK);
  dim3 grid(N / CHUNK);
  reverseChunks<<<grid, block>>>(d);
  getLastCudaError("reverseChunks failed");
  checkCudaErrors(cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost));
  for (int i = 0; i < N; ++i) {
    if (h[i] != (i / CHUNK) * CHUNK + CHUNK - 1 - i % CHUNK) {
      fprintf(stderr, "mismatch at %d\n", i);
      return EXIT_FAILURE;
    }
  }
  checkCudaErrors(cudaFree(d));
  free(h);
  printf("PASSED\n");
  return 0;
}
