// gpuverify end to end on a racy kernel: the report names the race kind, the array
// element, both work items and both source lines (with the line's text); exit 6.
// RUN: %python %S/../verify/Inputs/expect_exit.py 6 %gpuverify --local_size=32 --num_groups=2 %s > %t.out
// RUN: %FileCheck %s < %t.out
// CHECK: race.cl: error: possible write-write race on p[{{[0-9]+}}]:
// CHECK-EMPTY:
// CHECK-NEXT: Write by work item {{[0-9]+}} with local id {{[0-9]+}} in work group {{[0-9]+}}, {{.*}}race.cl:{{1[56]}}:{{[0-9]+}}:
// CHECK-NEXT: {{^  p\[get_global_id\(0\)( \+ 1)?\] = [01];$}}
// CHECK-EMPTY:
// CHECK-NEXT: Write by work item {{[0-9]+}} with local id {{[0-9]+}} in work group {{[0-9]+}}, {{.*}}race.cl:{{1[56]}}:{{[0-9]+}}:
// CHECK-NEXT: {{^  p\[get_global_id\(0\)( \+ 1)?\] = [01];$}}
// CHECK-NOT: Verified
__kernel void race(__global int *p) {
  // neighbouring work items write overlapping elements
  p[get_global_id(0) + 1] = 0;
  p[get_global_id(0)] = 1;
}
