// bugle translate: pointers held in memory (bugle.stored_pointers).  A private array of
// pointers keeps each pointer's offset in its cells and its base (array number) in the
// parallel map $$t$base; a pointer stored to global memory is PTR_BITS32(base, offset);
// a dereference of a loaded pointer case-splits over what may have been stored (a, b)
// and ends in the null-pointer check.
// RUN: %bugle cc %s -o %t.ll
// RUN: %bugle translate %t.ll -o - | %FileCheck %s
// CHECK-DAG: var {:source_name "a"} {:global} {{.*}}$$a: [bv32]bv32;
// CHECK-DAG: var {:source_name "b"} {:global} {{.*}}$$b: [bv32]bv32;
// CHECK-DAG: function PTR_BITS32(int, bv32): bv32;
// CHECK: var $$t$base: [bv32]int;
// CHECK: $$t[0bv32] := 0bv32;
// CHECK: $$t$base[0bv32] := 1;
// CHECK: $$t$base[[[ONE:\$[^ ]+]]] := 2;
// CHECK: [[BITS:\$i\$bits]] := $$t[[[IDX:\$[^ ]+]]];
// CHECK: [[OFF:\$i]] := [[BITS]];
// CHECK: [[BASE:\$i\$base]] := $$t$base[[[IDX]]];
// CHECK: $$table[{{.*}}] := PTR_BITS32([[BASE]], [[OFF]]);
// CHECK: goto [[A:\$[^ ]+\$a]], [[B:\$[^ ]+\$b]], [[NULL:\$[^ ]+\$null]];
// CHECK: [[A]]:
// CHECK-NEXT: assume {:partition} [[P:\$[^ ]+\$base]] == 1;
// CHECK: [[NULL]]:
// CHECK-NEXT: assume {:partition} ([[P]] != 1) && ([[P]] != 2);
// CHECK: assert {:sourceloc "translate_stored_pointers.cl", 33, 15} {:null_pointer} false;
struct pair { __global int *p; int n; };

__kernel void k(__global int *a, __global int *b, __global struct pair *table) {
  __global int *t[2];
  t[0] = a;
  t[1] = b;
  size_t i = get_global_id(0);
  table[i].p = t[i & 1];
  t[i & 1][i] = 1;
}
