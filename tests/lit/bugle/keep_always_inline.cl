// Pipeline pass `always-inline`: a read in a called function whose result is ignored
// (`foo(p);`) survives inlining, marked volatile before the pipeline (a __local pointer
// is certainly non-private), through every later pass, into the IL and the race check.
// RUN: %bugle cc %s --stop-after=always-inline -o - | %FileCheck %s --check-prefix=INLINE
// RUN: %bugle cc %s -o %t.ll
// RUN: %FileCheck %s --check-prefix=ALL < %t.ll
// RUN: %bugle translate %t.ll -o - | %FileCheck %s --check-prefix=IL
// RUN: not %gpuverify --local_size=16 --num_groups=2 %s | %FileCheck %s --check-prefix=RACE
// INLINE-LABEL: define {{.*}}spir_kernel void @baz(
// INLINE: load volatile i32, ptr addrspace(3) {{.*}}!dbg ![[READ:[0-9]+]]
// INLINE: store volatile i32
// INLINE-NOT: call {{.*}}@foo
// INLINE: ![[READ]] = !DILocation(line: 21,
// ALL: load volatile i32, ptr addrspace(3)
// IL: assume {:sourceloc "{{.*}}keep_always_inline.cl", 21, 10} true;
// IL-NEXT: {{\$[a-z0-9.]+}} := $$p[
// RACE: possible read-write race on p[
// RACE: keep_always_inline.cl:21:10:
// RACE-NEXT: return p[get_local_id(0)];
int foo(__local int *p) {
  return p[get_local_id(0)];
}

__kernel void baz(__local int *p) {
  foo(p);
  p[get_local_id(0) + 1] = get_local_id(0);
}
