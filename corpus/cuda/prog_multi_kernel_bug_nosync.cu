//xfail:NOT_ALL_VERIFIED
//--blockDim=128 --gridDim=16
//possible [a-z]+-[a-z]+ race on tile\[
//prog_multi_kernel_bug_nosync.cu:28:

// Three kernels in one file; the third lost its __syncthreads(), so a thread reads its
// left neighbour's tile element before it is written.  Every kernel is verified, and
// the race in the last one is reported.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

template <typename T>
__global__ void fill(T *data, T value, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = value;
}

__global__ void saxpy(int n, float a, const float *x, float *y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}

__global__ void adjacentDiff(const int *in, int *out, int n) {
  __shared__ int tile[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? in[i] : 0;
  if (threadIdx.x > 0 && i < n)
    out[i] = tile[threadIdx.x] - tile[threadIdx.x - 1];
}

int main() {
  const int n = 1 << 20;
  float *x, *y;
  int *a, *b;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  cudaMalloc(&a, n * sizeof(int));
  cudaMalloc(&b, n * sizeof(int));
  fill<float><<<(n + 127) / 128, 128>>>(x, 1.0f, n);
  fill<float><<<(n + 127) / 128, 128>>>(y, 2.0f, n);
  fill<int><<<(n + 127) / 128, 128>>>(a, 3, n);
  saxpy<<<16, 128>>>(n, 2.0f, x, y);
  adjacentDiff<<<(n + 127) / 128, 128>>>(a, b, n);
  cudaDeviceSynchronize();
  float result;
  cudaMemcpy(&result, y, sizeof(float), cudaMemcpyDeviceToHost);
  printf("y[0] = %f\n", result);
  cudaFree(x); cudaFree(y); cudaFree(a); cudaFree(b);
  return 0;
}
