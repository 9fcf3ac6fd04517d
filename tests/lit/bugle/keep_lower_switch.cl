// Pipeline pass `lower-switch`: reads in the cases of a switch whose value is ignored
// (`pick(p, k);`) stay when the switch becomes a tree of branches, and reach the IL.
// RUN: %bugle cc %s --stop-after=sroa -o - | %FileCheck %s --check-prefix=BEFORE
// RUN: %bugle cc %s --stop-after=lower-switch -o - | %FileCheck %s --check-prefix=LOWERED
// RUN: %bugle cc %s -o %t.ll
// RUN: %bugle translate %t.ll -o - | %FileCheck %s --check-prefix=IL
// BEFORE: switch i32
// LOWERED-NOT: switch i32
// LOWERED-COUNT-3: load volatile i32, ptr addrspace(1)
// IL-COUNT-3: := $$p[
int pick(__global int *p, int k) {
  switch (k) {
  case 0: return p[0];
  case 1: return p[get_global_id(0)];
  default: return p[2];
  }
}

__kernel void choose(__global int *p, int k) {
  pick(p, k);
  p[get_global_id(0)] = k;
}
