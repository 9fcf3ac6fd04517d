// bugle cc: a CUDA kernel becomes a ptx_kernel function; __syncthreads is the NVVM
// barrier intrinsic, threadIdx.x the tid special register; -D reaches the preprocessor.
// RUN: %bugle cc %s -D N=64 -o - | %FileCheck %s
// CHECK: define {{.*}}ptx_kernel void @_Z3revPi(ptr {{.*}}%a)
// CHECK: call {{.*}}i32 @llvm.nvvm.read.ptx.sreg.tid.x()
// CHECK: call void @llvm.nvvm.barrier{{.*}}
// CHECK: sub {{.*}}i32 63, {{.*}}
// CHECK: DISubprogram(name: "rev"
__global__ void rev(int *a) {
  __shared__ int t[N];
  t[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  a[threadIdx.x] = t[N - 1 - threadIdx.x];
}
