// gpuverify end to end on a correct kernel: each work item writes its own element of
// the shared tile, a barrier, then reads its neighbour's.  Verified, exit 0.
// RUN: %gpuverify --local_size=64 --num_groups=4 %s | %FileCheck %s
// CHECK: Verified: {{.*}}verified.cl
// CHECK-NEXT: - no data races within work groups
// CHECK-NEXT: - no data races between work groups
// CHECK-NEXT: - no barrier divergence
// Without the barrier the same kernel races (write-read on the tile), exit 6.
// RUN: %python %S/../verify/Inputs/expect_exit.py 6 %gpuverify --local_size=64 --num_groups=4 -D NO_BARRIER %s | %FileCheck %s --check-prefix=RACE
// RACE: verified.cl: error: possible {{write-read|read-write}} race on tile[{{[0-9]+}}]:
// RACE-NOT: Verified
__kernel void shift(__global int *out) {
  __local int tile[64];
  unsigned l = get_local_id(0);
  tile[l] = l;
#ifndef NO_BARRIER
  barrier(CLK_LOCAL_MEM_FENCE);
#endif
  out[get_global_id(0)] = tile[(l + 1) % 64];
}
