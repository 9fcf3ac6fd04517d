// --stop-at-gbpl / --stop-at-bpl stop after the one- / two-thread IL and write it
// next to the kernel; no verification happens (exit 0 even for this racy kernel).
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/k.cl
// RUN: %gpuverify --local_size=8 --num_groups=1 --stop-at-bpl %t/k.cl | %FileCheck %s --allow-empty --check-prefix=QUIET
// RUN: %FileCheck %s --check-prefix=BPL < %t/k.bpl
// RUN: not ls %t/k.inv.bpl
// RUN: %gpuverify --local_size=8 --num_groups=1 --stop-at-gbpl %t/k.cl | %FileCheck %s --allow-empty --check-prefix=QUIET
// RUN: %FileCheck %s --check-prefix=GBPL < %t/k.gbpl
// The stopped-at file continues through the stage commands to the same verdict.
// RUN: %python %S/../verify/Inputs/expect_exit.py 6 %vcgen verify %t/k.bpl --source %t/k.cl | %FileCheck %s --check-prefix=RACE
// QUIET-NOT: Verified
// QUIET-NOT: error
// BPL: axiom group_size_x == 8bv32;
// BPL: procedure {:kernel} {:source_name "over"}
// BPL: local_id_x$1
// GBPL: procedure {:kernel} {:source_name "over"}
// GBPL-NOT: $1
// RACE: error: possible write-write race on q[{{[0-9]+}}]:
__kernel void over(__global int *q) {
  q[get_local_id(0) / 2] = get_local_id(0);  // different values: not a benign race
}
