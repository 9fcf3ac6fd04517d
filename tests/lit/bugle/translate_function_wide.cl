// bugle translate: a function-wide invariant, written last, becomes a {:user_invariant} {:global_annotation} at
// the head of each loop of the kernel, with the read of A substituted ($$A[...] directly);
// a __candidate_invariant is the same with {:candidate_invariant}; __axiom is a requires.
// (Lines below are referred to by number: keep them.)

// RUN: %bugle cc %s -o %t.ll
// RUN: %bugle translate %t.ll -o - | %FileCheck %s
// CHECK: requires {:sourceloc "translate_function_wide.cl", 15, 1} {:axiom} group_size_x == 64bv32;
// CHECK: {{^ *}}$for.cond.i:
// CHECK-NEXT: assert {:sourceloc "translate_function_wide.cl", 26, 3} {:user_invariant} {:global_annotation} BV32_SGE($$A[
// CHECK: {{^ *}}$for.cond1.i:
// CHECK-NEXT: assert {:sourceloc "translate_function_wide.cl", 26, 3} {:user_invariant} {:global_annotation} BV32_SGE($$A[
// CHECK: assert {:sourceloc "translate_function_wide.cl", 22, 8} {:user_invariant} {:candidate_invariant}
// CHECK-NOT: function_wide_invariant
__axiom(get_local_size(0) == 64);

__kernel void k(__global int *A, int n) {
  for (int i = 0; i < n; i++) {
    A[get_global_id(0)] = i;
  }
  for (int j = 0;
       __candidate_invariant(j >= 0),
       j < n; j++) {
    A[get_global_id(0)] += j;
  }
  __function_wide_invariant(A[get_global_id(0)] >= 0);
}
