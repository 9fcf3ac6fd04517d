// bugle translate: a call of a specification function (bugle.spec_functions).  Its
// __requires is checked at the call; __old_int(e) is a snapshot taken there; then at its
// return the __writes_to access (an external write of an arbitrary cell, its marker
// carrying "external"), constrained by the __ensures conjunct about the write log, the
// havoc of the array, and the __ensures assumed (the plain read of p is after the havoc).
// RUN: %bugle cc %s -o %t.ll
// RUN: %bugle translate %t.ll -o - | %FileCheck %s
// CHECK: assert {:sourceloc "translate_spec_function.cl", 21, 3} {:precondition} {:call_site "translate_spec_function.cl", 28, 3} BV32_SGT($n, 0bv32);
// CHECK: havoc [[OLD:\$spec\$old\$[0-9]+]];
// CHECK-NEXT: assume {:user_assume} [[OLD]] == $$A[[[GID:.*]]];
// CHECK: assume {:sourceloc "translate_spec_function.cl", 28, 3, "external"} true;
// CHECK-NEXT: havoc [[AT:\$bodiless\$[0-9]+\$wat]], {{.*}};
// CHECK: assume {:user_assume} {:spec_ensures} BV32_UDIV(BV32_MUL([[AT]], 4bv32), 4bv32) == {{.*}};
// CHECK: assume {:sourceloc "translate_spec_function.cl", 28, 3, "external"} true;
// CHECK-NEXT: $$A[[[AT]]] := {{.*}};
// CHECK: havoc $$A;
// CHECK-NEXT: assume {:user_assume} {:spec_ensures} __write_$$A() ==> {{.*}};
// CHECK-NEXT: assume {:user_assume} {:spec_ensures} $$A[{{.*}}] == BV32_ADD([[OLD]], $n);
// CHECK-NOT: postcondition
void __spec_add(__global int *p, int n) {
  __requires(n > 0);
  __writes_to(p);
  __ensures(__write_implies(p, __write_offset_bytes(p) / 4 == get_global_id(0)));
  __ensures(p[get_global_id(0)] == __old_int(p[get_global_id(0)]) + n);
}

__kernel void k(__global int *A, int n) {
  __spec_add(A, n);
}
