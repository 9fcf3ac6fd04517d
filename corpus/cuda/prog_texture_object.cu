//pass
//--blockDim=256 --gridDim=64

// A 1-D stencil with a bindless texture object (tex1Dfetch<float>(obj, i)): the
// texture reads never race, and each thread writes its own output element only.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void stencil(cudaTextureObject_t in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 >= n)
    return;
  float left = tex1Dfetch<float>(in, i - 1);
  float mid = tex1Dfetch<float>(in, i);
  float right = tex1Dfetch<float>(in, i + 1);
  out[i] = 0.25f * left + 0.5f * mid + 0.25f * right;
}

int main() {
  const int n = 256 * 64;
  float *d_in, *d_out;
  cudaMalloc(&d_in, n * sizeof(float));
  cudaMalloc(&d_out, n * sizeof(float));
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeLinear;
  res.res.linear.devPtr = d_in;
  res.res.linear.desc = cudaCreateChannelDesc<float>();
  res.res.linear.sizeInBytes = n * sizeof(float);
  cudaTextureDesc td = {};
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t tex = 0;
  cudaCreateTextureObject(&tex, &res, &td, NULL);
  stencil<<<n / 256, 256>>>(tex, d_out, n);
  cudaDeviceSynchronize();
  cudaDestroyTextureObject(tex);
  cudaFree(d_in);
  cudaFree(d_out);
  printf("done\n");
  return 0;
}
