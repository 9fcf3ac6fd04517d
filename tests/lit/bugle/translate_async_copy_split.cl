// bugle translate: an async copy whose source may point to two arrays is split over
// the points-to set: one copy call and site per array, each setting its own event bit,
// and a null branch asserting {:null_pointer} false.
// RUN: %bugle cc %s -o - | %bugle translate - -o - | %FileCheck %s
// CHECK: assume {:partition} {{.*}}$base == 1{{.*}};
// CHECK: call {:sourceloc "{{.*}}", 15, 8} {:async_copy "$$tile", "$$a", 0} $bugle_async_copy_bv32(
// CHECK-NEXT: := BV32_OR(0bv32, 1bv32);
// CHECK: call {:sourceloc "{{.*}}", 15, 8} {:async_copy "$$tile", "$$b", 1} $bugle_async_copy_bv32(
// CHECK-NEXT: := BV32_OR(0bv32, 2bv32);
// CHECK: assert {:sourceloc "{{.*}}", 15, 8} {:null_pointer} false;
__kernel void k(__global const float *a, __global const float *b, __local float *tile, int pick) {
  size_t n = get_local_size(0);
  __global const float *src = pick ? a : b;
  event_t ev;
  ev = async_work_group_copy(tile, src + get_group_id(0) * n, n, 0);
  wait_group_events(1, &ev);
}
