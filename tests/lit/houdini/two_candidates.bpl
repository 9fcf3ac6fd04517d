// vcgen houdini: of two candidates at the loop head, r1 (both threads' counters agree
// and stay <= n) is inductive and survives as {:invariant} {:inferred "r1"}; r2
// ($i$1 == 0) fails after one iteration and is deleted with its guard constant.
// RUN: %vcgen houdini %s -o - | %FileCheck %s
// RUN: %vcgen houdini --infer-info %s -o %t.inv.bpl 2>&1 | %FileCheck %s --check-prefix=INFO
// RUN: %vcgen verify %t.inv.bpl | %FileCheck %s --check-prefix=VERIFY
// CHECK-NOT: _b1
// CHECK: $head:
// CHECK-NEXT: assert {:invariant} {:inferred "r1"} {{.*}}$i$1 == $i$2{{.*}};
// CHECK-NOT: {:candidate
// CHECK-NOT: $i$1 == 0bv32
// CHECK: assert {:sourceloc "count.cl", 9, 3} {:user_assert}
// INFO-DAG: r1: generated 1, proved 1
// INFO-DAG: r2: generated 1, proved 0
// VERIFY: Verified
function {:bvbuiltin "bvadd"} BV32_ADD(bv32, bv32): bv32;
function {:bvbuiltin "bvult"} BV32_ULT(bv32, bv32): bool;
function {:bvbuiltin "bvule"} BV32_ULE(bv32, bv32): bool;
const {:existential true} _b0: bool;
const {:existential true} _b1: bool;
const {:local_id_x} local_id_x$1: bv32;
const {:local_id_x} local_id_x$2: bv32;
const {:group_id_x} group_id_x$1: bv32;
const {:group_id_x} group_id_x$2: bv32;
const {:group_size_x} group_size_x: bv32;
const {:num_groups_x} num_groups_x: bv32;
axiom group_size_x == 64bv32;
axiom num_groups_x == 1bv32;
axiom group_id_x$1 == 0bv32 && group_id_x$2 == 0bv32;
axiom BV32_ULT(local_id_x$1, group_size_x) && BV32_ULT(local_id_x$2, group_size_x);
axiom local_id_x$1 != local_id_x$2;
procedure {:kernel} {:source_name "count"} {:language "opencl"} $count($n: bv32)
  requires BV32_ULT($n, 1000bv32);
{
  var $i$1: bv32;
  var $i$2: bv32;
  $entry:
    $i$1, $i$2 := 0bv32, 0bv32;
    goto $head;
  $head:
    assert {:candidate "r1"} _b0 ==> $i$1 == $i$2 && BV32_ULE($i$1, $n);
    assert {:candidate "r2"} _b1 ==> $i$1 == 0bv32;
    goto $body, $exit;
  $body:
    assume {:partition} BV32_ULT($i$1, $n);
    $i$1, $i$2 := BV32_ADD($i$1, 1bv32), BV32_ADD($i$2, 1bv32);
    goto $head;
  $exit:
    assume {:partition} !BV32_ULT($i$1, $n);
    assert {:sourceloc "count.cl", 9, 3} {:user_assert} {:thread 2} $i$2 == $n;
    assert {:vacuity_check} false;
    return;
}
