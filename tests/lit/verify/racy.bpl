// vcgen verify on a hand-written two-thread program: thread 1 may log its write of
// p[gid + 1] (line 3) and thread 2 writes p[gid] (line 4): the neighbouring pair races.
// The report names the array element, both threads and both source lines; exit code 6.
// RUN: %python %S/Inputs/expect_exit.py 6 %vcgen verify %s --source %S/Inputs/racy.cl > %t.out
// RUN: %FileCheck %s < %t.out
// RUN: %python %S/Inputs/expect_exit.py 6 %vcgen verify %s --json | %FileCheck %s --check-prefix=JSON
// CHECK: racy.cl: error: possible write-write race on p[[[E:[0-9]+]]]:
// CHECK-EMPTY:
// CHECK-NEXT: Write by work item [[A:[0-9]+]] with local id [[A]] in work group 0, racy.cl:3:3:
// CHECK-NEXT:   p[get_global_id(0) + 1] = 0;
// CHECK-EMPTY:
// CHECK-NEXT: Write by work item [[E]] with local id [[E]] in work group 0, racy.cl:4:3:
// CHECK-NEXT:   p[get_global_id(0)] = 1;
// JSON: "status": "errors",
// JSON: "exit_code": 6,
// JSON: "race": "write-write",
// JSON: "array": "p",
function {:bvbuiltin "bvadd"} BV32_ADD(bv32, bv32): bv32;
function {:bvbuiltin "bvmul"} BV32_MUL(bv32, bv32): bv32;
function {:bvbuiltin "bvult"} BV32_ULT(bv32, bv32): bool;
const {:local_id_x} local_id_x$1: bv32;
const {:local_id_x} local_id_x$2: bv32;
const {:group_id_x} group_id_x$1: bv32;
const {:group_id_x} group_id_x$2: bv32;
const {:group_size_x} group_size_x: bv32;
const {:num_groups_x} num_groups_x: bv32;
axiom group_size_x == 16bv32;
axiom num_groups_x == 1bv32;
axiom BV32_ULT(group_id_x$1, num_groups_x) && BV32_ULT(group_id_x$2, num_groups_x);
axiom BV32_ULT(local_id_x$1, group_size_x) && BV32_ULT(local_id_x$2, group_size_x);
axiom group_id_x$1 == group_id_x$2 ==> local_id_x$1 != local_id_x$2;
var {:source_name "p"} {:global} {:elem_width 32} {:elem_type "int"} $$p: [bv32]bv32;
var _WRITE_HAS_OCCURRED_$$p: bool;
var _WRITE_OFFSET_$$p: bv32;
var _WRITE_SOURCE_$$p: int;
const {:sourceloc_num 1} {:sourceloc "racy.cl", 3, 3} $sourceloc_1: int;
const {:sourceloc_num 2} {:sourceloc "racy.cl", 4, 3} $sourceloc_2: int;
axiom $sourceloc_1 == 1;
axiom $sourceloc_2 == 2;
procedure {:kernel} {:source_name "racy"} {:language "opencl"} {:source_file "racy.cl"} $racy()
{
  var $gid$1: bv32;
  var $gid$2: bv32;
  $entry:
    _WRITE_HAS_OCCURRED_$$p := false;
    $gid$1 := BV32_ADD(BV32_MUL(group_id_x$1, group_size_x), local_id_x$1);
    $gid$2 := BV32_ADD(BV32_MUL(group_id_x$2, group_size_x), local_id_x$2);
    goto $log1, $nolog1;
  $log1:
    _WRITE_HAS_OCCURRED_$$p, _WRITE_OFFSET_$$p, _WRITE_SOURCE_$$p := true, BV32_ADD($gid$1, 1bv32), 1;
    goto $check1;
  $nolog1:
    goto $check1;
  $check1:
    goto $log2, $nolog2;
  $log2:
    _WRITE_HAS_OCCURRED_$$p, _WRITE_OFFSET_$$p, _WRITE_SOURCE_$$p := true, $gid$1, 2;
    goto $check2;
  $nolog2:
    goto $check2;
  $check2:
    assert {:race "write-write", "$$p"} {:sourceloc "racy.cl", 4, 3} {:check_offset $gid$2} !(_WRITE_HAS_OCCURRED_$$p && _WRITE_OFFSET_$$p == $gid$2);
    assert {:vacuity_check} false;
    return;
}
