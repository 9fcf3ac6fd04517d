// `bugle launches`: the launches of a CUDA file's host code with their sizes as flags, in
// source order; sizes that are not compile-time constants are * (per dimension: a dim3
// built from a runtime value keeps the constant dimensions), a launch through a host
// helper names the line of the <<<>>> and where the helper was called, a kernel whose
// address is taken keeps symbolic sizes.
// RUN: %bugle launches %s | %FileCheck %s
// CHECK: launches.cu:26:{{[0-9]+}}, called from launches.cu:39:{{[0-9]+}}: step (_Z4stepPii): --gridDim=[9,1,1] --blockDim=[64,1,1]
// CHECK-NEXT: launches.cu:26:{{[0-9]+}}, called from launches.cu:40:{{[0-9]+}}: step (_Z4stepPii): --gridDim=[10,1,1] --blockDim=[*,1,1]
// CHECK-NEXT: launches.cu:32:{{[0-9]+}}: fill (_Z4fillPi): --gridDim=[4,1,1] --blockDim=[128,1,1]
// CHECK-NEXT: launches.cu:33:{{[0-9]+}}: tile<float> (_Z4tileIfEvPT_): --gridDim=[2,3,1] --blockDim=[16,16,1]
// CHECK-NEXT: launches.cu:34:{{[0-9]+}}: fill (_Z4fillPi): --gridDim=[*,1,1] --blockDim=[256,1,1]
// CHECK-NEXT: launches.cu:36:{{[0-9]+}}: step (_Z4stepPii): --gridDim=[*,7,3] --blockDim=[32,*,2]
// CHECK-NEXT: launches.cu:38:{{[0-9]+}}: step (_Z4stepPii): --gridDim=[1,1,1] --blockDim=[*,1,1]
// CHECK-NEXT: launches.cu:42:{{[0-9]+}}: fill (_Z4fillPi): --gridDim=[5,1,1] --blockDim=[8,1,1]
// CHECK-NEXT: note: _Z6taggedPi may be launched where its sizes cannot be read (its address is taken): symbolic sizes
// CHECK-NOT: warning
#include <cstdlib>

__global__ void fill(int *p) { p[blockIdx.x * blockDim.x + threadIdx.x] = 0; }
template <typename T> __global__ void tile(T *p) { p[threadIdx.y * 16 + threadIdx.x] = 0; }
__global__ void step(int *p, int n) { p[threadIdx.x] += n; }
__global__ void tagged(int *p) { p[threadIdx.x] = 1; }
void (*volatile table)(int *) = tagged;

static void launchStep(int *d, dim3 g, dim3 b) {
  step<<<g, b>>>(d, 1);
}

int main(int argc, char **argv) {
  int *d = 0;
  int n = atoi(argv[1]);
  fill<<<4, 128>>>(d);
  tile<float><<<dim3(2, 3), dim3(16, 16)>>>((float *)d);
  fill<<<n / 256, 256>>>(d);
  dim3 grid(n, 7, 3), block(32, n, 2);
  step<<<grid, block>>>(d, n);
  for (int s = 32; s <= 1024; s *= 2)
    step<<<1, s>>>(d, s);
  launchStep(d, dim3(9), dim3(64));
  launchStep(d, dim3(10), dim3(n));
  void *args[] = {&d};
  cudaLaunchKernel((const void *)fill, dim3(5), dim3(8), args, 0, 0);
  return 0;
}
