// Pipeline pass `sroa`: a value read from global memory into a private variable that is
// never used (`int x = in[i];`, `Pair q = pairs[i];`) outlives the variable.  CUDA
// pointers are generic, so before SROA these loads cannot be told from private ones;
// SROA leaves them (the copy of the struct becomes two loads), and `keep-all` then marks
// every access not provably private volatile, so DCE cannot delete them.
// RUN: %bugle cc %s --stop-after=sroa -o - | %FileCheck %s --check-prefix=SROA
// RUN: %bugle cc %s --stop-after=keep-all -o - | %FileCheck %s --check-prefix=KEEP
// RUN: %bugle cc %s -o %t.ll
// RUN: %bugle translate %t.ll -o - | %FileCheck %s --check-prefix=IL
// RUN: not %gpuverify --blockDim=32 --gridDim=1 %s | %FileCheck %s --check-prefix=RACE
// SROA-LABEL: define {{.*}}ptx_kernel void @
// SROA-NOT: alloca
// SROA: load i32, ptr %{{[a-z0-9.]+}}, align 4, !dbg ![[X:[0-9]+]]
// SROA: load i32, {{.*}}!dbg ![[Q:[0-9]+]]
// SROA: load float, {{.*}}!dbg ![[Q]]
// SROA: ![[X]] = !DILocation(line: 32,
// SROA: ![[Q]] = !DILocation(line: 33,
// KEEP: load volatile i32, ptr %{{[a-z0-9.]+}}, align 4, !dbg ![[X:[0-9]+]]
// KEEP: load volatile i32,
// KEEP: load volatile float,
// KEEP: store volatile i32
// KEEP-NOT: volatile
// IL: {{\$\$in\[}}
// IL: {{\$\$pairs\[}}
// IL: {{\$\$pairs\[}}
// RACE: possible read-write race on in[
// RACE: keep_sroa.cu:32:
struct Pair { int key; float value; };

__global__ void ignore_reads(int *in, Pair *pairs) {
  unsigned i = threadIdx.x;
  int x = in[i];
  Pair q = pairs[i];
  in[i + 1] = 0;
}
