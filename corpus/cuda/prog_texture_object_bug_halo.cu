//xfail:NOT_ALL_VERIFIED
//--blockDim=256 --gridDim=64
//possible [a-z]+-[a-z]+ race on out\[
//prog_texture_object_bug_halo.cu:20:

// A 1-D stencil with a bindless texture object (tex1Dfetch<float>(obj, i)): reading the
// texture is fine, but each thread also adds its result into the right neighbour's
// output -- two threads write out[i + 1] and out[i] of the same cell.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void stencil(cudaTextureObject_t in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 >= n)
    return;
  float left = tex1Dfetch<float>(in, i - 1);
  float mid = tex1Dfetch<float>(in, i);
  float right = tex1Dfetch<float>(in, i + 1);
  out[i] = 0.25f * left + 0.5f * mid;
  out[i + 1] = 0.25f * right;
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
