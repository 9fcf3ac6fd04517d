// bugle translate: CUDA atomics (our cuda.h: one atomicrmw/cmpxchg each) become calls of
// {:atomic} procedures naming the array and the operation, after the source marker;
// the chain through lockstep and verify finds no race between the atomics.
// RUN: %bugle cc %s -o %t.ll
// RUN: %bugle translate %t.ll -o %t.gbpl
// RUN: %FileCheck %s < %t.gbpl
// RUN: %gpuverify --blockDim=64 --gridDim=2 %s | %FileCheck %s --check-prefix=VERIFY
// CHECK-DAG: procedure {:atomic} $bugle_atomic_bv64_bv32(offset: bv64, value: bv32) returns (old: bv32);
// CHECK-DAG: procedure {:atomic} $bugle_atomic_cmpxchg_bv64_bv32(offset: bv64, compare: bv32, value: bv32) returns (old: bv32);
// CHECK-DAG: procedure {:atomic} $bugle_atomic_bv64_bv64(offset: bv64, value: bv64) returns (old: bv64);
// CHECK: assume {:sourceloc "translate_atomics.cu", 21, 3} true;
// CHECK-NEXT: call {:sourceloc "translate_atomics.cu", 21, 3} {:atomic "$$s", "add"} {{\$[^ ]+}} := $bugle_atomic_bv64_bv32({{.*}}, 1bv32);
// CHECK: call {:sourceloc "translate_atomics.cu", 24, 5} {:atomic "$$hits", "add"} {{.*}} := $bugle_atomic_bv64_bv64(0bv64, {{.*}});
// CHECK: call {:sourceloc "translate_atomics.cu", 25, 5} {:atomic "$$flag", "cmpxchg"} {{.*}} := $bugle_atomic_cmpxchg_bv64_bv32(0bv64, 0bv32, 1bv32);
// VERIFY: Verified
__global__ void k(unsigned long long *hits, int *flag) {
  __shared__ int s[64];
  if (threadIdx.x < 64)
    s[threadIdx.x] = 0;
  __syncthreads();
  atomicAdd(&s[threadIdx.x % 8], 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    atomicAdd(hits, (unsigned long long)s[0]);
    atomicCAS(flag, 0, 1);
  }
}
