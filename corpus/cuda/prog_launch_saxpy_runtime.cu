//pass
//
//kernel saxpy, launched at .*prog_launch_saxpy_runtime.cu:38:\d+ \(sizes read from the host code\): for every launch with blockDim = \(\*, 1, 1\), gridDim = \(\*, 1, 1\), \* being any size

// SAXPY over a vector whose length comes from the command line, with a block size taken
// from the device's properties: neither size is a compile-time constant, so the x sizes
// of the launch are symbolic (any size) while y and z, which the dim3 conversion fixes
// to 1, are read as 1.  The proof covers every such launch.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <helper_cuda.h>

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1 << 20;
  cudaDeviceProp prop;
  checkCudaErrors(cudaGetDeviceProperties(&prop, 0));
  int threads = prop.maxThreadsPerBlock;
  int blocks = (n + threads - 1) / threads;
  size_t bytes = (size_t)n * sizeof(float);
  float *hx = (float *)malloc(bytes), *hy = (float *)malloc(bytes);
  for (int i = 0; i < n; ++i) {
    hx[i] = 1.0f;
    hy[i] = 2.0f;
  }
  float *dx = NULL, *dy = NULL;
  checkCudaErrors(cudaMalloc((void **)&dx, bytes));
  checkCudaErrors(cudaMalloc((void **)&dy, bytes));
  checkCudaErrors(cudaMemcpy(dx, hx, bytes, cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(dy, hy, bytes, cudaMemcpyHostToDevice));
  printf("saxpy on %d elements: %d blocks of %d threads\n", n, blocks, threads);
  saxpy<<<blocks, threads>>>(n, 2.0f, dx, dy);
  getLastCudaError("saxpy failed");
  checkCudaErrors(cudaMemcpy(hy, dy, bytes, cudaMemcpyDeviceToHost));
  checkCudaErrors(cudaFree(dx));
  checkCudaErrors(cudaFree(dy));
  free(hx);
  free(hy);
  return 0;
}
