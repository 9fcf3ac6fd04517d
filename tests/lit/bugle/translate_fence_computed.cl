// bugle translate: barrier(x) with flags computed at run time passes bit 0 (local
// fence) and bit 1 (global fence) of the thread's own x to the IL barrier.
// RUN: %bugle cc %s -o %t.ll
// RUN: %bugle translate %t.ll -o - | %FileCheck %s
// CHECK: call {:sourceloc "translate_fence_computed.cl", 9, 3} $bugle_barrier([[F:\$[^ ]+]][1:0], [[F]][2:1]);
__kernel void k(__local int *p, int sel) {
  int flags = sel ? CLK_LOCAL_MEM_FENCE : CLK_GLOBAL_MEM_FENCE;
  p[get_local_id(0)] = 1;
  barrier(flags);
}
