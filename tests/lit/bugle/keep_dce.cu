// Pipeline pass `dce`: loads whose values are unused, through generic CUDA pointers to
// __shared__ and global memory (a device function returning `s[i]`, a sum never used),
// are volatile by then, so DCE keeps them, while the dead private arithmetic goes.
// RUN: %bugle cc %s --stop-after=keep-all -o - | %FileCheck %s --check-prefix=KEEP
// RUN: %bugle cc %s --stop-after=dce -o - | %FileCheck %s --check-prefix=DCE
// RUN: %bugle cc %s -o %t.ll
// RUN: %bugle translate %t.ll -o - | %FileCheck %s --check-prefix=IL
// KEEP: getelementptr {{.*}}addrspacecast (ptr addrspace(3) @{{.*}}tile
// KEEP-NEXT: load volatile i32, ptr %
// KEEP: = add nsw i32
// KEEP: store volatile i32
// DCE-COUNT-3: load volatile i32
// DCE-NOT: add nsw i32
// DCE: store volatile i32
// IL: := $$tile[
// IL: := $$g[
// IL: := $$g[
// IL: $$g[
__device__ int at(int *a, unsigned i) { return a[i]; }

__global__ void unused_sums(int *g) {
  __shared__ int tile[64];
  unsigned i = threadIdx.x;
  at(tile, i);
  int sum = g[i] + g[i + 1];
  g[i] = 1;
}
