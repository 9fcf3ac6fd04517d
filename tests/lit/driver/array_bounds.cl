// --check-array-bounds: a read one past the end of a __local array is reported with
// the array's source name, the work item and the source line; exit 6. The one-thread
// IL records the array's size in cells, the two-thread IL has per-thread checks.
// RUN: %python %S/../verify/Inputs/expect_exit.py 6 %gpuverify --local_size=32 --num_groups=2 --check-array-bounds %s > %t.out
// RUN: %FileCheck %s < %t.out
// RUN: cp %s %t.cl
// RUN: %gpuverify --local_size=32 --num_groups=2 --stop-at-gbpl %t.cl
// RUN: %FileCheck --check-prefix=GBPL %s < %t.gbpl
// RUN: %vcgen lockstep --local_size=32 --num_groups=2 --check-array-bounds %t.gbpl | %FileCheck --check-prefix=BPL %s
// RUN: %gpuverify --local_size=32 --num_groups=2 %s | %FileCheck --check-prefix=OFF %s
// CHECK: array_bounds.cl:24:{{[0-9]+}}: error: possible array out-of-bounds access on array tile by work item {{[0-9]+}} with local id 31 in work group {{[01]}}
// CHECK-NEXT: {{^  out\[get_global_id\(0\)\] = tile\[get_local_id\(0\) \+ 1\];$}}
// CHECK-NOT: Verified
// GBPL: var {:source_name "tile"} {:group_shared} {:elem_width 32} {:elem_type "float"} {:elem_count 32} $$tile
// GBPL-NOT: {:elem_count {{.*}} $$out
// BPL: assert {:array_bounds "$$tile"} {:sourceloc {{.*}}} {:thread 1} {:check_offset {{.*}}} BV32_ULT({{.*}}, 32bv32);
// BPL: assert {:array_bounds "$$tile"} {:sourceloc {{.*}}} {:thread 2}
// OFF: Verified: {{.*}}array_bounds.cl
// OFF-NOT: out-of-bounds
__kernel void shift(__global const float *in, __global float *out) {
  __local float tile[32];
  tile[get_local_id(0)] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[get_local_id(0) + 1];
}
