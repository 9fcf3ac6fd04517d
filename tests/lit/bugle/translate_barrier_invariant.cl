// bugle translate: a barrier invariant becomes one assert just before its barrier, with
// its instantiations as an attribute and its loads as map reads (not accesses).
// RUN: %bugle cc %s -o %t.ll
// RUN: %bugle translate %t.ll -o - | %FileCheck %s
// CHECK: $$A[{{.*}}] := {{.*}};
// CHECK-NOT: := $$A[
// CHECK: assert {:sourceloc "{{.*}}translate_barrier_invariant.cl", 15, 3} {:barrier_invariant} {:instances local_id_x, BV32_ADD(local_id_x, 1bv32)} $$A[local_id_x] == local_id_x;
// CHECK-NEXT: assume {:sourceloc "{{.*}}translate_barrier_invariant.cl", 16, 3} true;
// CHECK-NEXT: call {:sourceloc "{{.*}}translate_barrier_invariant.cl", 16, 3} $bugle_barrier(1bv1, 0bv1);
// CHECK: assert {:sourceloc "{{.*}}translate_barrier_invariant.cl", 17, 3} {:barrier_invariant_binary} {:instances local_id_x, __other_bv32(local_id_x)} $$A[local_id_x] != $$A[__other_bv32(local_id_x)];
__kernel void k() {
  __local int A[64];
  unsigned lid = get_local_id(0);
  A[lid] = lid;
  __barrier_invariant_2(A[lid] == lid, lid, lid + 1);
  barrier(CLK_LOCAL_MEM_FENCE);
  __barrier_invariant_binary_1(A[lid] != A[__other_int(lid)], lid, __other_int(lid));
  barrier(CLK_LOCAL_MEM_FENCE);
}
