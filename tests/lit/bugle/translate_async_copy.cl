// bugle translate: async copies become {:async_copy} calls naming dst, src and the
// site number and passing the event argument, events are bv32 bit sets, a wait ORs
// the waited events.
// RUN: %bugle cc %s -o - | %bugle translate - -o - | %FileCheck %s
// CHECK: procedure {:async_copy} $bugle_async_copy_bv32(dst: bv32, src: bv32, count: bv32, dst_stride: bv32, src_stride: bv32, span: bv32, event: bv32);
// CHECK: procedure {:wait_group_events} $bugle_wait_group_events(events: bv32);
// CHECK: call {:sourceloc "{{.*}}", 17, 12} {:async_copy "$$tile", "$$in", 0} $bugle_async_copy_bv32(0bv32, {{.*}}, 4bv32, 4bv32, 4bv32, 0bv32);
// CHECK: := BV32_OR(0bv32, 1bv32);
// CHECK: call {:sourceloc "{{.*}}", 18, 12} {:async_copy "$$out", "$$tile", 1} $bugle_async_copy_bv32({{.*}}, 0bv32, {{.*}}, BV32_MUL(3bv32, 4bv32), 4bv32, 4bv32, $i);
// CHECK: := BV32_OR($i, 2bv32);
// CHECK: $event$1 := $$evs[0bv32];
// CHECK: $event$2 := $$evs[BV32_ADD(0bv32, 1bv32)];
// CHECK: call {:sourceloc "{{.*}}", 19, 3} $bugle_wait_group_events(BV32_OR($event$1, $event$2));
__kernel void k(__global const float4 *in, __global float4 *out, __local float4 *tile) {
  size_t n = get_local_size(0);
  event_t evs[2];
  evs[0] = async_work_group_copy(tile, in + get_group_id(0) * n, n, 0);
  evs[1] = async_work_group_strided_copy(out + get_group_id(0), tile, n, 3, evs[0]);
  wait_group_events(2, evs);
}
