// bugle translate: a pointer that may point into either of two arrays is a base/offset
// pair; a dereference is a case split on the base with one {:partition} block per
// array and a {:null_pointer} failure for "neither".
// RUN: %bugle cc %s -o %t.ll
// RUN: %bugle translate %t.ll -o - | %FileCheck %s
// CHECK-DAG: var {:source_name "a"} {:global} {{.*}}$$a: [bv32]bv32;
// CHECK-DAG: var {:source_name "b"} {:global} {{.*}}$$b: [bv32]bv32;
// CHECK: goto [[A:\$[^ ]+\$a]], [[B:\$[^ ]+\$b]], [[NULL:\$[^ ]+\$null]];
// CHECK: [[A]]:
// CHECK-NEXT: assume {:partition} [[BASE:\$[^ ]+\$base]] == 1;
// CHECK-NEXT: assume {:sourceloc "translate_select.cl", 24, 10} true;
// CHECK-NEXT: $$a[{{.*}}] := 1bv32;
// CHECK: [[B]]:
// CHECK-NEXT: assume {:partition} [[BASE]] == 2;
// CHECK-NEXT: assume {:sourceloc "translate_select.cl", 24, 10} true;
// CHECK-NEXT: $$b[{{.*}}] := 1bv32;
// CHECK: [[NULL]]:
// CHECK-NEXT: assume {:partition} ([[BASE]] != 1) && ([[BASE]] != 2);
// CHECK: assert {:sourceloc "translate_select.cl", 24, 10} {:null_pointer} false;
__kernel void pick(__global int *a, __global int *b, int flag) {
  unsigned i = get_global_id(0);
  __global int *p = flag ? a : b;
  if (i < 10)
    p[i] = 1;
}
