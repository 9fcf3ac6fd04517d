// bugle cc --no-inline keeps a function that has a contract (its calls are still
// inlined); bugle translate --function makes it the entry of its modular check:
// arguments and pointer offsets arbitrary per thread, an arbitrary call decision,
// __requires assumed (docs/IL.md {:function_entry}).  Without --no-inline it is gone.
// RUN: %bugle cc --no-inline %s -o %t.ll
// RUN: %bugle translate --function scale_at %t.ll -o - | %FileCheck %s
// RUN: %bugle cc %s -o - | %FileCheck %s --check-prefix=INLINED
// CHECK: procedure {:kernel} {:source_name "scale_at"} {{.*}} {:function_entry} $scale_at()
// CHECK: $bugle_entry:
// CHECK-NEXT: havoc $bugle_called;
// CHECK-NEXT: goto $bugle_called_entry, $bugle_skipped_entry;
// CHECK: havoc $i, $a, $v$offset;
// CHECK: assume {:precondition} BV32_SGE($i, 0bv32);
// CHECK: $arrayidx := BV32_ADD($v$offset, $i);
// CHECK-NEXT: assume {:sourceloc
// CHECK-NEXT: $i4 := $$v[$arrayidx];
// INLINED-NOT: define {{.*}}@scale_at(
void scale_at(__global float *v, int i, float a) {
  __requires(i >= 0);
  v[i] = a * v[i];
}
__kernel void k(__global float *v) {
  scale_at(v, get_global_id(0), 2.0f);
}
