// gpuverify on CUDA: a block-size stride mistake makes thread blocks overlap; the report
// uses CUDA wording (thread, thread block, global id); exit 6.
// RUN: %python %S/../verify/Inputs/expect_exit.py 6 %gpuverify --blockDim=32 --gridDim=4 %s | %FileCheck %s
// RUN: %gpuverify --blockDim=32 --gridDim=4 -D FIXED %s | %FileCheck %s --check-prefix=FIXED
// CHECK: race_cuda.cu: error: possible write-write race on a[{{[0-9]+}}]:
// CHECK: Write by thread {{[0-9]+}} in thread block {{[0-9]+}} (global id {{[0-9]+}}), {{.*}}race_cuda.cu:17:
// CHECK: Write by thread {{[0-9]+}} in thread block {{[0-9]+}} (global id {{[0-9]+}}), {{.*}}race_cuda.cu:17:
// FIXED: Verified: {{.*}}race_cuda.cu
#ifdef FIXED
#define STRIDE blockDim.x
#else
#define STRIDE 16
#endif
__global__ void fill(int *a) {
  // BUG without -D FIXED -- blocks are 32 threads wide but placed 16 elements apart
  unsigned i = blockIdx.x * STRIDE + threadIdx.x;
  a[i] = threadIdx.x;  // a same-value overlap would be a benign race (DESIGN.md 5.8)
}
