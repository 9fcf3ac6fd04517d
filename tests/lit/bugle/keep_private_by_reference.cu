// Only accesses that may touch non-private memory become volatile: private variables
// passed by reference (`swap(a, b)`) still become registers.  Before SROA the accesses
// through the references cannot be told from shared ones (CUDA pointers are generic),
// so `keep-certain` leaves them; after SROA they are gone.
// RUN: %bugle cc %s --stop-after=keep-certain -o - | %FileCheck %s --check-prefix=CERTAIN
// RUN: %bugle cc %s -o - | %FileCheck %s
// CERTAIN-LABEL: define {{.*}}@_Z4swapRiS_(
// CERTAIN-NOT: volatile
// CERTAIN: ret void
// CHECK-LABEL: define {{.*}}ptx_kernel void @
// CHECK-NOT: alloca
// CHECK: load volatile i32
// CHECK: load volatile i32
// CHECK-NOT: load
// CHECK: store volatile i32
// CHECK: store volatile i32
// CHECK-NOT: store
// CHECK: ret void
__device__ void swap(int &a, int &b) { int t = a; a = b; b = t; }

__global__ void swap_pairs(int *g) {
  unsigned i = 2 * threadIdx.x;
  int a = g[i], b = g[i + 1];
  swap(a, b);
  g[i] = a;
  g[i + 1] = b;
}
