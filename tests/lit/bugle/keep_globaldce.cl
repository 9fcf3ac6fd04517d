// Pipeline pass `globaldce`: it drops the functions and globals nothing uses any more.
// The unused read of the __local array `flags` keeps `flags` alive; the inlined helper
// `peek` and the function no kernel calls (`unused`) are gone (the always-inliner
// already drops internal functions it has inlined everywhere).
// RUN: %bugle cc %s --stop-after=globaldce -o - | %FileCheck %s
// RUN: %bugle cc %s -o %t.ll
// RUN: %bugle translate %t.ll -o - | %FileCheck %s --check-prefix=IL
// CHECK: @{{.*}}flags = internal addrspace(3) global [64 x i32]
// CHECK-NOT: define {{.*}}@peek
// CHECK-NOT: define {{.*}}@unused
// CHECK: define {{.*}}spir_kernel void @publish(
// CHECK: getelementptr {{.*}}@{{.*}}flags
// CHECK-NEXT: load volatile i32, ptr addrspace(3)
// CHECK-NOT: define {{.*}}@peek
// CHECK-NOT: define {{.*}}@unused
// IL: var {:source_name "flags"} {:group_shared}
// IL: := $$flags[
int peek(__local int *a, int i) { return a[i]; }

int unused(__global int *a) { return a[0]; }

__kernel void publish(__global int *out) {
  __local int flags[64];
  peek(flags, get_local_id(0) ^ 1);
  flags[get_local_id(0)] = 1;
  out[get_global_id(0)] = 0;
}
