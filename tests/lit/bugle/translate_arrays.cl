// bugle translate: __global and __local pointers become {:global} / {:group_shared}
// arrays indexed in elements; every access is preceded by its source-location marker;
// barrier(CLK_LOCAL_MEM_FENCE) is $bugle_barrier(1bv1, 0bv1) (local fence only);
// an `if` becomes edge blocks with complementary {:partition} assumes.
// RUN: %bugle cc %s -o %t.ll
// RUN: %bugle translate %t.ll -o - | %FileCheck %s
// CHECK-DAG: var {:source_name "p"} {:global} {:elem_width 32} {:elem_type "int"} $$p: [bv32]bv32;
// CHECK-DAG: var {:source_name "s"} {:group_shared} {:elem_width 32} {:elem_type "int"} $$s: [bv32]bv32;
// CHECK: procedure {:kernel} {:source_name "k"} {:language "opencl"} {:source_file "translate_arrays.cl"} {:source_params "p", "$$p", "int*", "s", "$$s", "int*", "n", "$n", "int"} $k($n: bv32)
// CHECK: assume {:sourceloc "translate_arrays.cl", 25, 10} true;
// CHECK-NEXT: [[V:\$[a-z0-9.]+]] := $$p[{{.*}}];
// CHECK: assume {:sourceloc "translate_arrays.cl", 25, 8} true;
// CHECK-NEXT: $$s[{{.*}}] := [[V]];
// CHECK: call {:sourceloc "translate_arrays.cl", 26, 3} $bugle_barrier(1bv1, 0bv1);
// CHECK: goto [[T:\$[a-z0-9.$]+]], [[F:\$[a-z0-9.$_]+]];
// CHECK: [[T]]:
// CHECK-NEXT: assume {:partition} [[C:\$[a-z0-9.]+]];
// CHECK: [[F]]:
// CHECK-NEXT: assume {:partition} ![[C]];
// CHECK: assume {:sourceloc "translate_arrays.cl", 28, 12} true;
// CHECK-NEXT: {{.*}} := $$s[{{.*}}];
// CHECK: return;
__kernel void k(__global int *p, __local int *s, int n) {
  unsigned i = get_local_id(0);
  s[i] = p[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (i < n)
    p[i] = s[i + 1];
}
