//pass
//--blockDim=128 --gridDim=16

// A program with three kernels, one of them a template instantiated by its launch:
// gpuverify verifies every kernel of the file (--kernel=NAME picks one).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

template <typename T>
__global__ void fill(T *data, T value, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = value;
}

__global__ void saxpy(int n, float a, const float *x, float *y) { __requires(n <= (1 << 30) && gridDim.x <= 65536);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}

__global__ void adjacentDiff(const int *in, int *out, int n) {
  __shared__ int tile[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
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
