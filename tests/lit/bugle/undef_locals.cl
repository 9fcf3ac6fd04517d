// Uninitialised private variables are arbitrary, never folded to a constant: the
// `havoc-locals` stage stores `freeze T poison` into each variable where it is created
// and where its scope starts, so mem2reg meets `phi [1, %frozen]` (not `phi [1, undef]`,
// which it would fold to 1) and the translator havocs the frozen value, per thread.
// RUN: %bugle cc %s --stop-after=havoc-locals -o - | %FileCheck %s --check-prefix=HAVOC
// RUN: %bugle cc %s -o %t.ll
// RUN: %FileCheck %s --check-prefix=IR < %t.ll
// RUN: %bugle translate %t.ll -o - | %FileCheck %s --check-prefix=IL
// RUN: not %gpuverify --local_size=8 --num_groups=1 %s | %FileCheck %s --check-prefix=VERDICT
// HAVOC: %y = alloca i32
// HAVOC-NEXT: %p = alloca ptr addrspace(1)
// HAVOC: %[[F:__bugle.undef.[0-9]+]] = freeze i32 poison
// HAVOC-NEXT: store i32 %[[F]], ptr %y
// HAVOC-NEXT: %[[G:__bugle.undef.[0-9]+]] = freeze ptr addrspace(1) poison
// HAVOC-NEXT: store ptr addrspace(1) %[[G]], ptr %p
// HAVOC: call void @llvm.lifetime.start.p0(ptr %y)
// HAVOC-NEXT: freeze i32 poison
// IR: %[[Y:[a-z0-9._]+]] = freeze i32 poison
// IR: phi i32 [ 1, %{{.*}} ], [ %[[Y]], %{{.*}} ]
// IL: havoc $undef$
// VERDICT: undef_locals.cl:30:3: error: this assertion might not hold
// VERDICT: undef_locals.cl:32:3: error: this assertion might not hold
__kernel void uninitialised(__global int *out) {
  int y;
  __global int *p;
  if (get_local_id(0) == 0) {
    y = 1;
    p = out;
  }
  __assert(y == 1);
  out[get_local_id(0)] = 0;
  __assert(p != 0);
}
