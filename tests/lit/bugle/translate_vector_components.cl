// bugle translate (bugle.vector_components): an assignment to components of a vector in
// memory accesses only those components.  clang emits load + insertelement/shufflevector +
// store of the whole float4; only the assigned cells are stored and the load reads nothing
// (line 38: G cell 1 of 4; line 39: cells 0 and 1 of .xy).  A compound assignment (line 40)
// reads and writes its component only.  Whole-vector accesses in the source keep every
// cell: `float4 t = G[i]; t.y = v; G[i] = t;` (line 41), and the same statements from a
// macro, where all three instructions carry one location (line 42).
// RUN: %bugle cc %s -o %t.ll
// RUN: %bugle translate %t.ll -o - | %FileCheck %s
// CHECK: $entry:
// CHECK-NOT: := $$G[
// CHECK: assume {:sourceloc "translate_vector_components.cl", 38, 10} true;
// CHECK-NEXT: $$G[BV32_ADD([[P:\$arrayidx[0-9.a-z]*]], 1bv32)] := {{.*}};
// CHECK-NOT: $$G[
// CHECK: assume {:sourceloc "translate_vector_components.cl", 39, 13} true;
// CHECK-NEXT: $$G[[[Q:\$arrayidx[0-9.a-z]*]]] := {{.*}};
// CHECK-NEXT: assume {:sourceloc "translate_vector_components.cl", 39, 13} true;
// CHECK-NEXT: $$G[BV32_ADD([[Q]], 1bv32)] := {{.*}};
// CHECK-NOT: $$G[
// CHECK: assume {:sourceloc "translate_vector_components.cl", 40, 13} true;
// CHECK-NEXT: {{.*}} := $$G[BV32_ADD([[R:\$arrayidx[0-9.a-z]*]], 3bv32)];
// CHECK-NOT: $$G[
// CHECK: assume {:sourceloc "translate_vector_components.cl", 40, 13} true;
// CHECK-NEXT: $$G[BV32_ADD([[R]], 3bv32)] := {{.*}};
// CHECK-NOT: $$G[{{.*}}] :=
// CHECK-COUNT-4: := $$G[
// CHECK-NOT: := $$G[
// CHECK-COUNT-4: $$G[{{.*}}] :=
// CHECK-NOT: $$G[{{.*}}] :=
// CHECK-COUNT-4: := $$G[
// CHECK-NOT: := $$G[
// CHECK-COUNT-4: $$G[{{.*}}] :=
// CHECK-NOT: $$G[
// CHECK: return;
#define SET_Y(p, v) { float4 t = G[p]; t.y = v; G[p] = t; }
kernel void k(global float4 *G, float v) {
  int i = get_global_id(0);
  G[i].y = v;
  G[i+1].xy = (float2)(v, v);
  G[i+2].s3 += v;
  float4 t = G[i+3]; t.y = v; G[i+3] = t;
  SET_Y(i+4, v)
}
