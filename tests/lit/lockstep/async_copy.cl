// vcgen lockstep: an async copy is collective (divergence + equal arguments, except
// those uniform within a group: in + get_group_id(0) * n), logs with its own source
// number and the event it joins, is checked before logging and again across groups; a
// barrier keeps un-waited copy entries; a wait relabels the waited copies' entries
// (source 1 -> 2), which the next barrier then clears.  With a symbolic group size: the
// group-coordinates lemma on the copy's element indices, and (a group may have one work
// item) the work item's own accesses checked against its un-waited copies.
// RUN: %bugle cc %s -o - | %bugle translate - -o - | %vcgen lockstep --local_size=8 --num_groups=2 - | %FileCheck %s
// RUN: %bugle cc %s -o - | %bugle translate - -o - | %vcgen lockstep --local_size=* --num_groups=* - | %FileCheck %s --check-prefix=SYM
// CHECK: assert {:barrier_divergence} {:sourceloc "{{.*}}", 23, 16}
// CHECK-NOT: {:collective_args "async_copy"}
// CHECK-NOT: {:own_copy}
// CHECK: assert {:race "write-write", "$$tile"}
// SYM: assume {:global_id_lemma} {{.*}}(BV32_ADD(BV32_MUL(group_id_x$1, group_size_x), _copy_k$[[K1:[0-9]+]]) == BV32_ADD(BV32_MUL(group_id_x$2, group_size_x), _copy_k$[[K2:[0-9]+]])){{.*}} ==> ((group_id_x$1 == group_id_x$2) && (_copy_k$[[K1]] == _copy_k$[[K2]]))
// SYM: assert {:race "write-write", "$$tile"} {{.*}} {:check_offset BV32_ADD(0bv32, _copy_k$[[K1]])} {:own_copy} {{.*}}((group_size_x == 1bv32) && _WRITE_HAS_OCCURRED_$$tile) && (_WRITE_SOURCE_$$tile == 1))
// SYM: assert {:race "write-read", "$$tile"} {{.*}} {:own_copy}
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
