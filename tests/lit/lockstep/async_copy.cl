// vcgen lockstep: an async copy is collective (divergence + equal arguments), logs
// with its own source number and the event it joins, is checked before logging and
// again across groups; a barrier keeps un-waited copy entries; a wait relabels the
// waited copies' entries (source 1 -> 2), which the next barrier then clears.
// RUN: %bugle cc %s -o - | %bugle translate - -o - | %vcgen lockstep --local_size=8 --num_groups=2 - | %FileCheck %s
// CHECK: assert {:barrier_divergence} {:sourceloc "{{.*}}", 15, 16}
// CHECK: assert {:barrier_divergence} {:collective_args "async_copy"}
// CHECK: assert {:race "write-write", "$$tile"}
// CHECK: then 1 else _WRITE_SOURCE_$$tile, {{.*}} then 0bv32 else _WRITE_EVENT_$$tile
// CHECK: _WRITE_HAS_OCCURRED_$$tile := if {{.*}}!(_WRITE_SOURCE_$$tile == 1){{.*}} then false else _WRITE_HAS_OCCURRED_$$tile
// CHECK: _WRITE_SOURCE_$$tile := if {{.*}}(BV32_AND({{.*}}, BV32_OR(1bv32, _WRITE_EVENT_$$tile)) != 0bv32){{.*}}(_WRITE_SOURCE_$$tile == 1){{.*}} then 2 else _WRITE_SOURCE_$$tile
// CHECK: _WRITE_HAS_OCCURRED_$$tile := if {{.*}}!(_WRITE_SOURCE_$$tile == 1){{.*}} then false else _WRITE_HAS_OCCURRED_$$tile
__kernel void k(__global const int *in, __global int *out, __local int *tile) {
  size_t n = get_local_size(0), lid = get_local_id(0);
  event_t ev = async_work_group_copy(tile, in + get_group_id(0) * n, n, 0);
  barrier(CLK_LOCAL_MEM_FENCE);
  wait_group_events(1, &ev);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[lid];
}
