// bugle translate: a call to a function declared but not defined (bugle.bodiless) reads
// and writes an arbitrary cell of each array its pointer arguments reach (logged like
// any access, after the call's marker), then havocs the whole array; its result is a
// fresh arbitrary value.  --bodiless-calls=error rejects it.
// RUN: %bugle cc %s -o %t.ll
// RUN: %bugle translate %t.ll -o - | %FileCheck %s
// RUN: not %bugle translate --bodiless-calls=error %t.ll -o - 2>&1 | %FileCheck %s --check-prefix=ERR
// CHECK: havoc $undef$
// CHECK: assume {:sourceloc "translate_bodiless.cl", 18, 3} true;
// CHECK-NEXT: havoc [[I:\$bodiless\$[0-9]+\$at]];
// CHECK: {{.*}} := $$p[[[I]]];
// CHECK: $$p[{{\$bodiless\$[0-9]+\$wat}}] := {{\$bodiless\$[0-9]+\$val}};
// CHECK: havoc $$p;
// ERR: error: call to seed which is declared but not defined (--bodiless-calls=error)
int seed(void);
void shuffle(__global int *p, int n);
__kernel void k(__global int *p) {
  shuffle(p, seed());
}
