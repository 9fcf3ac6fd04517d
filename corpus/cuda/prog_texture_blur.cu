//pass
//--blockDim=[16,16] --gridDim=[32,32] --kernel-args=boxFilter,*,512,512

// A 3x3 box filter reading its input through a 2-D texture reference (CUDA samples
// style, legacy texture API): texture reads never race, each thread writes its pixel.
// --kernel-args gives the image size main() launches with (an arbitrary width would let
// y * width + x wrap around).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

texture<float, 2, cudaReadModeElementType> srcTex;

__global__ void boxFilter(float *dst, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x; __requires(blockDim.x * gridDim.x <= 0x7fffffffu && blockDim.y * gridDim.y <= 0x7fffffffu);
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height)
    return;
  float sum = 0.0f;
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++)
      sum += tex2D(srcTex, x + dx + 0.5f, y + dy + 0.5f);
  dst[y * width + x] = sum / 9.0f;
}

int main(int argc, char **argv) {
  const int width = 512, height = 512;
  size_t bytes = width * height * sizeof(float);
  float *h_src = (float *)malloc(bytes);
  for (int i = 0; i < width * height; i++)
    h_src[i] = (float)(i % 255);
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray *array;
  cudaMallocArray(&array, &desc, width, height);
  cudaMemcpy2DToArray(array, 0, 0, h_src, width * sizeof(float), width * sizeof(float), height,
                      cudaMemcpyHostToDevice);
  srcTex.addressMode[0] = cudaAddressModeClamp;
  srcTex.addressMode[1] = cudaAddressModeClamp;
  srcTex.filterMode = cudaFilterModePoint;
  srcTex.normalized = false;
  cudaBindTextureToArray(srcTex, array, desc);
  float *d_dst;
  cudaMalloc(&d_dst, bytes);
  dim3 block(16, 16);
  dim3 grid((width + block.x - 1) / block.x, (height + block.y - 1) / block.y);
  boxFilter<<<grid, block>>>(d_dst, width, height);
  cudaDeviceSynchronize();
  cudaMemcpy(h_src, d_dst, bytes, cudaMemcpyDeviceToHost);
  printf("centre pixel %f\n", h_src[height / 2 * width + width / 2]);
  cudaUnbindTexture(srcTex);
  cudaFreeArray(array);
  cudaFree(d_dst);
  free(h_src);
  return 0;
}
