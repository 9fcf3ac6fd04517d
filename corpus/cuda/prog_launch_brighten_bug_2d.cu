//xfail:NOT_ALL_VERIFIED
//
//possible read-write race on img\[|possible write-read race on img\[
//Launch with blockDim = \(16, 16, 1\), gridDim = \(40, 30, 1\)\nLaunched at .*prog_launch_brighten_bug_2d.cu:37:\d+ \(sizes read from the host code\)

// Brightens a 640x480 grey image.  The kernel was written for a 1-D launch (it uses only
// the x ids), but main() launches it on a 2-D grid of 16x16 blocks, as image kernels
// usually are: the 16 threads of a block that differ only in threadIdx.y compute the same
// pixel index and race on it.  Under a 1-D launch it is race-free; the race exists only
// for the sizes of the launch on line 37, which the report gives.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <helper_cuda.h>

#define WIDTH 640
#define HEIGHT 480

__global__ void brighten(unsigned char *img, int numPixels, int delta) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < numPixels) {
    int v = img[i] + delta;
    img[i] = v > 255 ? 255 : v;
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
  brighten<<<grid, block>>>(d, WIDTH * HEIGHT, 40);
  getLastCudaError("brighten failed");
  checkCudaErrors(cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost));
  checkCudaErrors(cudaFree(d));
  free(h);
  return 0;
}
