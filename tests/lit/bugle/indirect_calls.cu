// Pipeline step `indirect-calls` (bugle.function_pointers): the call through `op` becomes
// a case split over the address-taken functions of its type (not `count`, another
// type), ending in the null-pointer check; after inlining the IL compares the pointer's
// (base, offset) with each function's and asserts {:null_pointer} false otherwise.
// RUN: %bugle cc %s --stop-after=indirect-calls -o - | %FileCheck %s --check-prefix=SPLIT
// RUN: %bugle cc %s -o %t.ll
// RUN: %bugle translate %t.ll -o - | %FileCheck %s --check-prefix=IL
// SPLIT-DAG: icmp eq ptr %{{[0-9a-z.]+}}, @_Z5twicef
// SPLIT-DAG: icmp eq ptr %{{[0-9a-z.]+}}, @_Z6squaref
// SPLIT-NOT: icmp eq ptr %{{[0-9a-z.]+}}, @_Z5counti
// SPLIT: call void @__bugle_function_pointer_null()
// IL: $k($mode: bv32)
// IL: assert {:sourceloc "indirect_calls.cu", 27, 10} {:null_pointer} false;
typedef float (*op_t)(float);
__device__ float twice(float x) { return 2.0f * x; }
__device__ float square(float x) { return x * x; }
__device__ int count(int x) { return x + 1; }
typedef int (*iop_t)(int);
__device__ iop_t keep = count;

__global__ void k(float *v, int mode) {
  op_t op = mode ? twice : square;
  int i = blockIdx.x * blockDim.x + threadIdx.x;



  v[i] = op(v[i]);
}
