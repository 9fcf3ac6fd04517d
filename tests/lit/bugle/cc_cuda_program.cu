// bugle cc on a whole CUDA program: the standard and CUDA runtime headers resolve
// (bugle/include/system), host code (main, cudaMalloc, the <<<>>> launch) is parsed but
// not emitted, the launched template kernel is instantiated, and a texture read is a
// call of the texel function on the texture's handle.
// RUN: %bugle cc %s -o - | %FileCheck %s
// CHECK-NOT: define {{.*}}@main
// CHECK: define {{.*}}ptx_kernel void @_Z4fillIfEvPT_(
// CHECK: call i64 @llvm.nvvm.texsurf.handle.internal.p1(ptr addrspace(1) @tex)
// CHECK: call {{.*}}i32 @__bugle_texel(i64
// CHECK-NOT: define {{.*}}@main
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <stdint.h>
#include <cuda_runtime.h>
texture<float, 2, cudaReadModeElementType> tex;
template <class T> __global__ void fill(T *a) { a[threadIdx.x] = tex2D(tex, threadIdx.x, 0); }
int main() {
  float *d;
  cudaMalloc(&d, 64 * sizeof(float));
  fill<float><<<1, 64>>>(d);
  printf("%f\n", sqrt(2.0));
  return EXIT_SUCCESS;
}
