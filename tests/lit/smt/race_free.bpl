// vcgen smt: the verification condition as a standalone SMT-LIB2 script that any
// solver reads; unsat means verified.  Here both writes are to p[gid]: with distinct
// threads the race check holds, so z3 answers unsat.  The racy variant is sat.
// RUN: %vcgen smt %s -o %t.smt2
// RUN: %FileCheck %s --check-prefix=SMT < %t.smt2
// RUN: z3 %t.smt2 | %FileCheck %s --check-prefix=Z3
// RUN: %vcgen smt %S/../verify/racy.bpl -o - | z3 -in | %FileCheck %s --check-prefix=RACY
// SMT: (set-logic
// SMT: (declare-fun local_id_x$1 () (_ BitVec 32))
// SMT: (check-sat)
// Z3: {{^unsat$}}
// RACY: {{^sat$}}
// The same program through vcgen verify (z3 in-process): verified, exit 0.
// RUN: %vcgen verify %s | %FileCheck %s --check-prefix=VERIFIED
// VERIFIED: Verified
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
procedure {:kernel} {:source_name "nonracy"} {:language "opencl"} {:source_file "racy.cl"} $nonracy()
{
  var $gid$1: bv32;
  var $gid$2: bv32;
  $entry:
    _WRITE_HAS_OCCURRED_$$p := false;
    $gid$1 := BV32_ADD(BV32_MUL(group_id_x$1, group_size_x), local_id_x$1);
    $gid$2 := BV32_ADD(BV32_MUL(group_id_x$2, group_size_x), local_id_x$2);
    goto $log1, $nolog1;
  $log1:
    _WRITE_HAS_OCCURRED_$$p, _WRITE_OFFSET_$$p, _WRITE_SOURCE_$$p := true, $gid$1, 1;
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
