//pass
//
//kernel brighten, launched at .*prog_launch_brighten.cu:36:\d+ \(sizes read from the host code\): for the launch with blockDim = \(16, 16, 1\), gridDim = \(40, 30, 1\)

// Brightens a 640x480 grey image with one thread per pixel on a 2-D grid of 16x16
// blocks: the kernel computes the pixel from both x and y ids, so every thread owns one
// pixel.  No size flag: the sizes are those of the launch on line 36 (WIDTH / 16 by
// HEIGHT / 16 blocks, constant-folded from the dim3 variables).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <helper_cuda.h>

#define WIDTH 640
#define HEIGHT 480

__global__ void brighten(unsigned char *img, int delta) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < WIDTH && y < HEIGHT) {
    int v = img[y * WIDTH + x] + delta;
    img[y * WIDTH + x] = v > 255 ? 255 : v;
  }
}

int main(void) {
  size_t bytes = WIDTH * HEIGHT;
  unsigned char *h = (unsigned char *)malloc(bytes);
  for (size_t i = 0; i < bytes; ++i)
    h[i] = (unsigned char)(i % 200);
  unsigned char *d = NULL;
  checkCudaErrors(cudaMalloc((void **)&d, bytes));
  checkCudaErrors(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
  dim3 block(16, 16);
  dim3 grid(WIDTH / block.x, HEIGHT / block.y);
  brighten<<<grid, block>>>(d, 40);
  getLastCudaError("brighten failed");
  checkCudaErrors(cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost));
  checkCudaErrors(cudaFree(d));
  free(h);
  return 0;
}
