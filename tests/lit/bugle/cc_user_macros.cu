// Command-line macros with the short names bugle's force-included headers use (template
// parameters T, N, V, I ...) must not break the headers: they are shielded there and
// visible again in the kernel's own code.
// RUN: %gpuverify --blockDim=32 --gridDim=2 -DN=64 -DT=float -DV=3 -DI=2 -DD=1 %s | %FileCheck %s
// RUN: %bugle cc %s -DN=64 -DT=float -DV=3 -DI=2 -DD=1 -o - | %FileCheck %s --check-prefix=IR
// CHECK: Verified:
// IR: store {{.*}}float 6.400000e+01
#include <cooperative_groups.h>
__global__ void scale(T *p) { p[blockIdx.x * blockDim.x + threadIdx.x] = (T)N; }
