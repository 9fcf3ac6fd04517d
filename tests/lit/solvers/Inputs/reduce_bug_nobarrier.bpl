// Two-thread IL of corpus/opencl/reduce_bug_nobarrier.cl (gpuverify --keep-temps --local_size=64 --num_groups=8), a fixture for tests/test_solvers.py.
const {:local_id_x} {:thread 1} local_id_x$1: bv32;
const {:local_id_x} {:thread 2} local_id_x$2: bv32;
const {:local_id_y} {:thread 1} local_id_y$1: bv32;
const {:local_id_y} {:thread 2} local_id_y$2: bv32;
const {:local_id_z} {:thread 1} local_id_z$1: bv32;
const {:local_id_z} {:thread 2} local_id_z$2: bv32;
const {:group_id_x} {:thread 1} group_id_x$1: bv32;
const {:group_id_x} {:thread 2} group_id_x$2: bv32;
const {:group_id_y} {:thread 1} group_id_y$1: bv32;
const {:group_id_y} {:thread 2} group_id_y$2: bv32;
const {:group_id_z} {:thread 1} group_id_z$1: bv32;
const {:group_id_z} {:thread 2} group_id_z$2: bv32;
const {:group_size_x} group_size_x: bv32;
const {:group_size_y} group_size_y: bv32;
const {:group_size_z} group_size_z: bv32;
const {:num_groups_x} num_groups_x: bv32;
const {:num_groups_y} num_groups_y: bv32;
const {:num_groups_z} num_groups_z: bv32;
const {:global_offset_x} global_offset_x: bv32;
const {:global_offset_y} global_offset_y: bv32;
const {:global_offset_z} global_offset_z: bv32;
var {:source_name "in"} {:global} {:elem_width 32} {:elem_type "int"} {:adversarial} $$in: [bv32]bv32;
var {:source_name "partial"} {:global} {:elem_width 32} {:elem_type "int"} {:adversarial} $$partial: [bv32]bv32;
var {:source_name "sdata"} {:group_shared} {:elem_width 32} {:elem_type "int"} {:adversarial} $$sdata: [bv32]bv32;
function {:bvbuiltin "bvmul"} BV32_MUL(bv32, bv32): bv32;
function {:bvbuiltin "bvadd"} BV32_ADD(bv32, bv32): bv32;
function {:bvbuiltin "bvudiv"} BV32_UDIV(bv32, bv32): bv32;
function {:bvbuiltin "bvugt"} BV32_UGT(bv32, bv32): bool;
function {:bvbuiltin "bvult"} BV32_ULT(bv32, bv32): bool;
function {:bvbuiltin "bvlshr"} BV32_LSHR(bv32, bv32): bv32;
function {:bvbuiltin "bvuge"} BV32_UGE(bv32, bv32): bool;
function {:bvbuiltin "bvsub"} BV32_SUB(bv32, bv32): bv32;
function {:bvbuiltin "bvand"} BV32_AND(bv32, bv32): bv32;
axiom group_size_x == 64bv32;
axiom num_groups_x == 8bv32;
axiom global_offset_x == 0bv32;
axiom BV32_ULT(local_id_x$1, group_size_x);
axiom BV32_ULT(group_id_x$1, num_groups_x);
axiom BV32_ULT(local_id_x$2, group_size_x);
axiom BV32_ULT(group_id_x$2, num_groups_x);
axiom group_size_y == 1bv32;
axiom num_groups_y == 1bv32;
axiom global_offset_y == 0bv32;
axiom BV32_ULT(local_id_y$1, group_size_y);
axiom BV32_ULT(group_id_y$1, num_groups_y);
axiom BV32_ULT(local_id_y$2, group_size_y);
axiom BV32_ULT(group_id_y$2, num_groups_y);
axiom group_size_z == 1bv32;
axiom num_groups_z == 1bv32;
axiom global_offset_z == 0bv32;
axiom BV32_ULT(local_id_z$1, group_size_z);
axiom BV32_ULT(group_id_z$1, num_groups_z);
axiom BV32_ULT(local_id_z$2, group_size_z);
axiom BV32_ULT(group_id_z$2, num_groups_z);
axiom {:distinct_threads} (((group_id_x$1 == group_id_x$2) && (group_id_y$1 == group_id_y$2)) && (group_id_z$1 == group_id_z$2)) ==> (((local_id_x$1 != local_id_x$2) || (local_id_y$1 != local_id_y$2)) || (local_id_z$1 != local_id_z$2));
var _READ_HAS_OCCURRED_$$in: bool;
var _WRITE_HAS_OCCURRED_$$in: bool;
var _READ_HAS_OCCURRED_$$partial: bool;
var _WRITE_HAS_OCCURRED_$$partial: bool;
var _READ_HAS_OCCURRED_$$sdata: bool;
var _WRITE_HAS_OCCURRED_$$sdata: bool;
var _READ_OFFSET_$$in: bv32;
var _READ_SOURCE_$$in: int;
var _WRITE_OFFSET_$$in: bv32;
var _WRITE_OFFSET_$$sdata: bv32;
var _WRITE_SOURCE_$$sdata: int;
var _WRITE_VALUE_$$sdata: bv32;
var _READ_OFFSET_$$sdata: bv32;
var _READ_SOURCE_$$sdata: int;
var _WRITE_OFFSET_$$partial: bv32;
var _WRITE_SOURCE_$$partial: int;
var _WRITE_VALUE_$$partial: bv32;
var _READ_OFFSET_$$partial: bv32;
const {:sourceloc_num 1} {:sourceloc "reduce_bug_nobarrier.cl", 12, 16} $sourceloc_1: int;
const {:sourceloc_num 2} {:sourceloc "reduce_bug_nobarrier.cl", 12, 14} $sourceloc_2: int;
const {:sourceloc_num 3} {:sourceloc "reduce_bug_nobarrier.cl", 16, 21} $sourceloc_3: int;
const {:sourceloc_num 4} {:sourceloc "reduce_bug_nobarrier.cl", 16, 18} $sourceloc_4: int;
const {:sourceloc_num 5} {:sourceloc "reduce_bug_nobarrier.cl", 19, 32} $sourceloc_5: int;
const {:sourceloc_num 6} {:sourceloc "reduce_bug_nobarrier.cl", 19, 30} $sourceloc_6: int;
const {:existential true} _b1: bool;
const {:existential true} _b2: bool;
const {:existential true} _b3: bool;
const {:existential true} _b4: bool;
const {:existential true} _b5: bool;
const {:existential true} _b6: bool;
const {:existential true} _b7: bool;
const {:existential true} _b8: bool;
const {:existential true} _b9: bool;
const {:existential true} _b10: bool;
const {:existential true} _b11: bool;
const {:existential true} _b12: bool;
const {:existential true} _b13: bool;
const {:existential true} _b14: bool;
const {:existential true} _b15: bool;
const {:existential true} _b16: bool;
const {:existential true} _b17: bool;
const {:existential true} _b18: bool;
const {:existential true} _b19: bool;
procedure {:kernel} {:source_name "reduce"} {:language "opencl"} {:source_file "reduce_bug_nobarrier.cl"} {:two_thread} $reduce()
{
  var $s.i.0: bv32;
  var $call.i$1: bv32;
  var $call.i$2: bv32;
  var $call1.i$1: bv32;
  var $call1.i$2: bv32;
  var $arrayidx.i$1: bv32;
  var $arrayidx.i$2: bv32;
  var $i$1: bv32;
  var $i$2: bv32;
  var $arrayidx2.i$1: bv32;
  var $arrayidx2.i$2: bv32;
  var $call3.i: bv32;
  var $div.i: bv32;
  var $cmp.i: bool;
  var $cmp8.i$1: bool;
  var $cmp8.i$2: bool;
  var $cmp4.i$1: bool;
  var $cmp4.i$2: bool;
  var $add.i$1: bv32;
  var $add.i$2: bv32;
  var $arrayidx5.i$1: bv32;
  var $arrayidx5.i$2: bv32;
  var $i8$1: bv32;
  var $i8$2: bv32;
  var $arrayidx6.i$1: bv32;
  var $arrayidx6.i$2: bv32;
  var $i9$1: bv32;
  var $i9$2: bv32;
  var $add7.i$1: bv32;
  var $add7.i$2: bv32;
  var $shr.i: bv32;
  var $i10$1: bv32;
  var $i10$2: bv32;
  var $call10.i$1: bv32;
  var $call10.i$2: bv32;
  var $arrayidx11.i$1: bv32;
  var $arrayidx11.i$2: bv32;
  var cur$1: int;
  var cur$2: int;
  var _log$1: bool;
  var _read$2: bv32;
  var _read$3: bv32;
  var _log$4: bool;
  var cur$1$entry$for.cond.i: int;
  var cur$2$entry$for.cond.i: int;
  var p$1: bool;
  var p$2: bool;
  var _log$5: bool;
  var _read$6: bv32;
  var _read$7: bv32;
  var _log$8: bool;
  var _read$9: bv32;
  var _read$10: bv32;
  var _log$11: bool;
  var _log$12: bool;
  var _read$13: bv32;
  var _read$14: bv32;
  var _log$15: bool;

  $entry$lockstep:
    cur$1 := 1;
    cur$2 := 1;
    _READ_HAS_OCCURRED_$$in := false;
    _WRITE_HAS_OCCURRED_$$in := false;
    _READ_HAS_OCCURRED_$$partial := false;
    _WRITE_HAS_OCCURRED_$$partial := false;
    _READ_HAS_OCCURRED_$$sdata := false;
    _WRITE_HAS_OCCURRED_$$sdata := false;
    goto $entry, $entry$skip;
  $entry:
    assume cur$1 == 1;
    $call.i$1, $call.i$2 := local_id_x$1, local_id_x$2;
    $call1.i$1, $call1.i$2 := BV32_ADD(BV32_ADD(BV32_MUL(group_id_x$1, group_size_x), local_id_x$1), global_offset_x), BV32_ADD(BV32_ADD(BV32_MUL(group_id_x$2, group_size_x), local_id_x$2), global_offset_x);
    $arrayidx.i$1, $arrayidx.i$2 := $call1.i$1, $call1.i$2;
    havoc _log$1;
    _READ_HAS_OCCURRED_$$in, _READ_OFFSET_$$in, _READ_SOURCE_$$in := if _log$1 then true else _READ_HAS_OCCURRED_$$in, if _log$1 then $arrayidx.i$1 else _READ_OFFSET_$$in, if _log$1 then 1 else _READ_SOURCE_$$in;
    assert {:race "write-read", "$$in"} {:sourceloc "reduce_bug_nobarrier.cl", 12, 16} {:check_offset $arrayidx.i$2} !(_WRITE_HAS_OCCURRED_$$in && (_WRITE_OFFSET_$$in == $arrayidx.i$2));
    havoc _read$2;
    $i$1 := _read$2;
    havoc _read$3;
    $i$2 := _read$3;
    $arrayidx2.i$1, $arrayidx2.i$2 := $call.i$1, $call.i$2;
    havoc _log$4;
    _WRITE_HAS_OCCURRED_$$sdata, _WRITE_OFFSET_$$sdata, _WRITE_SOURCE_$$sdata, _WRITE_VALUE_$$sdata := if _log$4 then true else _WRITE_HAS_OCCURRED_$$sdata, if _log$4 then $arrayidx2.i$1 else _WRITE_OFFSET_$$sdata, if _log$4 then 2 else _WRITE_SOURCE_$$sdata, if _log$4 then $i$1 else _WRITE_VALUE_$$sdata;
    assert {:race "read-write", "$$sdata"} {:sourceloc "reduce_bug_nobarrier.cl", 12, 14} {:check_offset $arrayidx2.i$2} !((_READ_HAS_OCCURRED_$$sdata && (_READ_OFFSET_$$sdata == $arrayidx2.i$2)) && (((group_id_x$1 == group_id_x$2) && (group_id_y$1 == group_id_y$2)) && (group_id_z$1 == group_id_z$2)));
    assert {:race "write-write", "$$sdata"} {:sourceloc "reduce_bug_nobarrier.cl", 12, 14} {:check_offset $arrayidx2.i$2} !((_WRITE_HAS_OCCURRED_$$sdata && (_WRITE_OFFSET_$$sdata == $arrayidx2.i$2)) && (((group_id_x$1 == group_id_x$2) && (group_id_y$1 == group_id_y$2)) && (group_id_z$1 == group_id_z$2)));
    assert {:barrier_divergence} {:sourceloc "reduce_bug_nobarrier.cl", 13, 3} (((group_id_x$1 == group_id_x$2) && (group_id_y$1 == group_id_y$2)) && (group_id_z$1 == group_id_z$2)) ==> (cur$2 == cur$1);
    _READ_HAS_OCCURRED_$$sdata := if ((group_id_x$1 == group_id_x$2) && (group_id_y$1 == group_id_y$2)) && (group_id_z$1 == group_id_z$2) then false else _READ_HAS_OCCURRED_$$sdata;
    _WRITE_HAS_OCCURRED_$$sdata := if ((group_id_x$1 == group_id_x$2) && (group_id_y$1 == group_id_y$2)) && (group_id_z$1 == group_id_z$2) then false else _WRITE_HAS_OCCURRED_$$sdata;
    $call3.i := group_size_x;
    $div.i := BV32_UDIV($call3.i, 2bv32);
    $s.i.0 := $div.i;
    cur$1 := 2;
    cur$2 := 2;
    goto $entry$next;
  $entry$skip:
    assume cur$1 != 1;
    goto $entry$next;
  $entry$next:
    cur$1$entry$for.cond.i := cur$1;
    cur$2$entry$for.cond.i := cur$2;
    goto $for.cond.i;
  $for.cond.i:
    assert {:invariant} ((cur$1 == 2) || (cur$1 == cur$1$entry$for.cond.i)) || false;
    assert {:invariant} (cur$1$entry$for.cond.i != 2) ==> (cur$1 == cur$1$entry$for.cond.i);
    assert {:invariant} ((cur$2 == 2) || (cur$2 == cur$2$entry$for.cond.i)) || false;
    assert {:invariant} (cur$2$entry$for.cond.i != 2) ==> (cur$2 == cur$2$entry$for.cond.i);
    assert {:candidate "r11"} _b1 ==> ($add.i$1 == $add.i$2);
    assert {:candidate "r11"} _b2 ==> ($add7.i$1 == $add7.i$2);
    assert {:candidate "r11"} _b3 ==> ($arrayidx5.i$1 == $arrayidx5.i$2);
    assert {:candidate "r11"} _b4 ==> ($arrayidx6.i$1 == $arrayidx6.i$2);
    assert {:candidate "r11"} _b5 ==> ($i8$1 == $i8$2);
    assert {:candidate "r11"} _b6 ==> ($i9$1 == $i9$2);
    assert {:candidate "r8"} _b7 ==> BV32_UGE($s.i.0, 0bv32);
    assert {:candidate "r8"} _b8 ==> BV32_UGE($s.i.0, local_id_x$1);
    assert {:candidate "r8"} _b9 ==> BV32_UGE($s.i.0, local_id_x$2);
    assert {:candidate "r14"} _b10 ==> (($s.i.0 == 0bv32) || (BV32_AND($s.i.0, BV32_SUB($s.i.0, 1bv32)) == 0bv32));
    assert {:candidate "r15"} _b11 ==> ($s.i.0 != 0bv32);
    assert {:candidate "src"} _b12 ==> (_READ_HAS_OCCURRED_$$sdata ==> ((_READ_SOURCE_$$sdata == 3) || (_READ_SOURCE_$$sdata == 4)));
    assert {:candidate "id"} _b13 ==> (_READ_HAS_OCCURRED_$$sdata ==> (_READ_OFFSET_$$sdata == local_id_x$1));
    assert {:candidate "id"} _b14 ==> (_READ_HAS_OCCURRED_$$sdata ==> (_READ_OFFSET_$$sdata == 0bv32));
    assert {:candidate "id"} _b15 ==> (_READ_HAS_OCCURRED_$$sdata ==> ((_READ_OFFSET_$$sdata == local_id_x$1) || (_READ_OFFSET_$$sdata == 0bv32)));
    assert {:candidate "src"} _b16 ==> (_WRITE_HAS_OCCURRED_$$sdata ==> ((_WRITE_SOURCE_$$sdata == 2) || (_WRITE_SOURCE_$$sdata == 4)));
    assert {:candidate "id"} _b17 ==> (_WRITE_HAS_OCCURRED_$$sdata ==> (_WRITE_OFFSET_$$sdata == local_id_x$1));
    assert {:candidate "r4"} _b18 ==> ((cur$1 == 2) == (cur$2 == 2));
    assert {:candidate "r4"} _b19 ==> (cur$1 == cur$2);
    goto $for.cond.i$body, $for.cond.i$done;
  $for.cond.i$body:
    assume (cur$1 == 2) || (cur$2 == 2);
    goto $for.cond.i$hdr, $for.cond.i$skip;
  $for.cond.i$hdr:
    assume cur$1 == 2;
    $cmp.i := BV32_UGT($s.i.0, 0bv32);
    goto $for.cond.i$to$$for.cond.i$to$for.body.i, $for.cond.i$to$$for.cond.i$to$for.cond.cleanup.i;
  $for.cond.i$to$$for.cond.i$to$for.body.i:
    assume {:partition} $cmp.i;
    cur$1 := 3;
    cur$2 := 3;
    goto $for.cond.i$next;
  $for.cond.i$to$$for.cond.i$to$for.cond.cleanup.i:
    assume {:partition} !$cmp.i;
    cur$1 := 9;
    cur$2 := 9;
    goto $for.cond.i$done;
  $for.cond.i$skip:
    assume cur$1 != 2;
    goto $for.cond.i$next;
  $for.cond.i$next:
    goto $for.cond.i$to$for.body.i, $for.cond.i$to$for.body.i$skip;
  $for.cond.i$to$for.body.i:
    assume cur$1 == 3;
    cur$1 := 4;
    cur$2 := 4;
    goto $for.cond.i$to$for.body.i$next;
  $for.cond.i$to$for.body.i$skip:
    assume cur$1 != 3;
    goto $for.cond.i$to$for.body.i$next;
  $for.cond.i$to$for.body.i$next:
    goto $for.body.i, $for.body.i$skip;
  $for.body.i:
    assume cur$1 == 4;
    $cmp4.i$1, $cmp4.i$2 := BV32_ULT($call.i$1, $s.i.0), BV32_ULT($call.i$2, $s.i.0);
    cur$1 := if $cmp4.i$1 then 5 else 6;
    cur$2 := if $cmp4.i$2 then 5 else 6;
    goto $for.body.i$next;
  $for.body.i$skip:
    assume cur$1 != 4;
    goto $for.body.i$next;
  $for.body.i$next:
    goto $for.body.i$to$if.then.i;
  $for.body.i$to$if.then.i:
    p$1 := cur$1 == 5;
    p$2 := cur$2 == 5;
    cur$1 := if p$1 then 7 else cur$1;
    cur$2 := if p$2 then 7 else cur$2;
    goto $for.body.i$to$if.then.i$next;
  $for.body.i$to$if.then.i$next:
    goto $for.body.i$to$if.end.i;
  $for.body.i$to$if.end.i:
    p$1 := cur$1 == 6;
    p$2 := cur$2 == 6;
    cur$1 := if p$1 then 8 else cur$1;
    cur$2 := if p$2 then 8 else cur$2;
    goto $for.body.i$to$if.end.i$next;
  $for.body.i$to$if.end.i$next:
    goto $if.then.i;
  $if.then.i:
    p$1 := cur$1 == 7;
    p$2 := cur$2 == 7;
    $add.i$1, $add.i$2 := if p$1 then BV32_ADD($call.i$1, $s.i.0) else $add.i$1, if p$2 then BV32_ADD($call.i$2, $s.i.0) else $add.i$2;
    $arrayidx5.i$1, $arrayidx5.i$2 := if p$1 then $add.i$1 else $arrayidx5.i$1, if p$2 then $add.i$2 else $arrayidx5.i$2;
    havoc _log$5;
    _READ_HAS_OCCURRED_$$sdata, _READ_OFFSET_$$sdata, _READ_SOURCE_$$sdata := if p$1 && _log$5 then true else _READ_HAS_OCCURRED_$$sdata, if p$1 && _log$5 then $arrayidx5.i$1 else _READ_OFFSET_$$sdata, if p$1 && _log$5 then 3 else _READ_SOURCE_$$sdata;
    assert {:race "write-read", "$$sdata"} {:sourceloc "reduce_bug_nobarrier.cl", 16, 21} {:check_offset $arrayidx5.i$2} !(((p$2 && _WRITE_HAS_OCCURRED_$$sdata) && (_WRITE_OFFSET_$$sdata == $arrayidx5.i$2)) && (((group_id_x$1 == group_id_x$2) && (group_id_y$1 == group_id_y$2)) && (group_id_z$1 == group_id_z$2)));
    havoc _read$6;
    $i8$1 := if p$1 then _read$6 else $i8$1;
    havoc _read$7;
    $i8$2 := if p$2 then _read$7 else $i8$2;
    $arrayidx6.i$1, $arrayidx6.i$2 := if p$1 then $call.i$1 else $arrayidx6.i$1, if p$2 then $call.i$2 else $arrayidx6.i$2;
    havoc _log$8;
    _READ_HAS_OCCURRED_$$sdata, _READ_OFFSET_$$sdata, _READ_SOURCE_$$sdata := if p$1 && _log$8 then true else _READ_HAS_OCCURRED_$$sdata, if p$1 && _log$8 then $arrayidx6.i$1 else _READ_OFFSET_$$sdata, if p$1 && _log$8 then 4 else _READ_SOURCE_$$sdata;
    assert {:race "write-read", "$$sdata"} {:sourceloc "reduce_bug_nobarrier.cl", 16, 18} {:check_offset $arrayidx6.i$2} !(((p$2 && _WRITE_HAS_OCCURRED_$$sdata) && (_WRITE_OFFSET_$$sdata == $arrayidx6.i$2)) && (((group_id_x$1 == group_id_x$2) && (group_id_y$1 == group_id_y$2)) && (group_id_z$1 == group_id_z$2)));
    havoc _read$9;
    $i9$1 := if p$1 then _read$9 else $i9$1;
    havoc _read$10;
    $i9$2 := if p$2 then _read$10 else $i9$2;
    $add7.i$1, $add7.i$2 := if p$1 then BV32_ADD($i9$1, $i8$1) else $add7.i$1, if p$2 then BV32_ADD($i9$2, $i8$2) else $add7.i$2;
    havoc _log$11;
    _WRITE_HAS_OCCURRED_$$sdata, _WRITE_OFFSET_$$sdata, _WRITE_SOURCE_$$sdata, _WRITE_VALUE_$$sdata := if p$1 && _log$11 then true else _WRITE_HAS_OCCURRED_$$sdata, if p$1 && _log$11 then $arrayidx6.i$1 else _WRITE_OFFSET_$$sdata, if p$1 && _log$11 then 4 else _WRITE_SOURCE_$$sdata, if p$1 && _log$11 then $add7.i$1 else _WRITE_VALUE_$$sdata;
    assert {:race "read-write", "$$sdata"} {:sourceloc "reduce_bug_nobarrier.cl", 16, 18} {:check_offset $arrayidx6.i$2} !(((p$2 && _READ_HAS_OCCURRED_$$sdata) && (_READ_OFFSET_$$sdata == $arrayidx6.i$2)) && (((group_id_x$1 == group_id_x$2) && (group_id_y$1 == group_id_y$2)) && (group_id_z$1 == group_id_z$2)));
    assert {:race "write-write", "$$sdata"} {:sourceloc "reduce_bug_nobarrier.cl", 16, 18} {:check_offset $arrayidx6.i$2} !(((p$2 && _WRITE_HAS_OCCURRED_$$sdata) && (_WRITE_OFFSET_$$sdata == $arrayidx6.i$2)) && (((group_id_x$1 == group_id_x$2) && (group_id_y$1 == group_id_y$2)) && (group_id_z$1 == group_id_z$2)));
    cur$1 := if p$1 then 8 else cur$1;
    cur$2 := if p$2 then 8 else cur$2;
    goto $if.then.i$next;
  $if.then.i$next:
    goto $if.end.i, $if.end.i$skip;
  $if.end.i:
    assume cur$1 == 8;
    $shr.i := BV32_LSHR($s.i.0, 1bv32);
    $s.i.0 := $shr.i;
    cur$1 := 2;
    cur$2 := 2;
    goto $if.end.i$next;
  $if.end.i$skip:
    assume cur$1 != 8;
    goto $if.end.i$next;
  $if.end.i$next:
    goto $for.cond.i;
  $for.cond.i$done:
    assume (!(cur$1 == 2)) && (!(cur$2 == 2));
    goto $for.cond.i$to$for.cond.cleanup.i, $for.cond.i$to$for.cond.cleanup.i$skip;
  $for.cond.i$to$for.cond.cleanup.i:
    assume cur$1 == 9;
    cur$1 := 10;
    cur$2 := 10;
    goto $for.cond.i$to$for.cond.cleanup.i$next;
  $for.cond.i$to$for.cond.cleanup.i$skip:
    assume cur$1 != 9;
    goto $for.cond.i$to$for.cond.cleanup.i$next;
  $for.cond.i$to$for.cond.cleanup.i$next:
    goto $for.cond.cleanup.i, $for.cond.cleanup.i$skip;
  $for.cond.cleanup.i:
    assume cur$1 == 10;
    $cmp8.i$1, $cmp8.i$2 := $call.i$1 == 0bv32, $call.i$2 == 0bv32;
    cur$1 := if $cmp8.i$1 then 11 else 12;
    cur$2 := if $cmp8.i$2 then 11 else 12;
    goto $for.cond.cleanup.i$next;
  $for.cond.cleanup.i$skip:
    assume cur$1 != 10;
    goto $for.cond.cleanup.i$next;
  $for.cond.cleanup.i$next:
    goto $for.cond.cleanup.i$to$if.then9.i;
  $for.cond.cleanup.i$to$if.then9.i:
    p$1 := cur$1 == 11;
    p$2 := cur$2 == 11;
    cur$1 := if p$1 then 13 else cur$1;
    cur$2 := if p$2 then 13 else cur$2;
    goto $for.cond.cleanup.i$to$if.then9.i$next;
  $for.cond.cleanup.i$to$if.then9.i$next:
    goto $for.cond.cleanup.i$to$__clang_ocl_kern_imp_reduce.exit;
  $for.cond.cleanup.i$to$__clang_ocl_kern_imp_reduce.exit:
    p$1 := cur$1 == 12;
    p$2 := cur$2 == 12;
    cur$1 := if p$1 then 14 else cur$1;
    cur$2 := if p$2 then 14 else cur$2;
    goto $for.cond.cleanup.i$to$__clang_ocl_kern_imp_reduce.exit$next;
  $for.cond.cleanup.i$to$__clang_ocl_kern_imp_reduce.exit$next:
    goto $if.then9.i;
  $if.then9.i:
    p$1 := cur$1 == 13;
    p$2 := cur$2 == 13;
    havoc _log$12;
    _READ_HAS_OCCURRED_$$sdata, _READ_OFFSET_$$sdata, _READ_SOURCE_$$sdata := if p$1 && _log$12 then true else _READ_HAS_OCCURRED_$$sdata, if p$1 && _log$12 then 0bv32 else _READ_OFFSET_$$sdata, if p$1 && _log$12 then 5 else _READ_SOURCE_$$sdata;
    assert {:race "write-read", "$$sdata"} {:sourceloc "reduce_bug_nobarrier.cl", 19, 32} {:check_offset 0bv32} !(((p$2 && _WRITE_HAS_OCCURRED_$$sdata) && (_WRITE_OFFSET_$$sdata == 0bv32)) && (((group_id_x$1 == group_id_x$2) && (group_id_y$1 == group_id_y$2)) && (group_id_z$1 == group_id_z$2)));
    havoc _read$13;
    $i10$1 := if p$1 then _read$13 else $i10$1;
    havoc _read$14;
    $i10$2 := if p$2 then _read$14 else $i10$2;
    $call10.i$1, $call10.i$2 := if p$1 then group_id_x$1 else $call10.i$1, if p$2 then group_id_x$2 else $call10.i$2;
    $arrayidx11.i$1, $arrayidx11.i$2 := if p$1 then $call10.i$1 else $arrayidx11.i$1, if p$2 then $call10.i$2 else $arrayidx11.i$2;
    havoc _log$15;
    _WRITE_HAS_OCCURRED_$$partial, _WRITE_OFFSET_$$partial, _WRITE_SOURCE_$$partial, _WRITE_VALUE_$$partial := if p$1 && _log$15 then true else _WRITE_HAS_OCCURRED_$$partial, if p$1 && _log$15 then $arrayidx11.i$1 else _WRITE_OFFSET_$$partial, if p$1 && _log$15 then 6 else _WRITE_SOURCE_$$partial, if p$1 && _log$15 then $i10$1 else _WRITE_VALUE_$$partial;
    assert {:race "read-write", "$$partial"} {:sourceloc "reduce_bug_nobarrier.cl", 19, 30} {:check_offset $arrayidx11.i$2} !((p$2 && _READ_HAS_OCCURRED_$$partial) && (_READ_OFFSET_$$partial == $arrayidx11.i$2));
    assert {:race "write-write", "$$partial"} {:sourceloc "reduce_bug_nobarrier.cl", 19, 30} {:check_offset $arrayidx11.i$2} !((p$2 && _WRITE_HAS_OCCURRED_$$partial) && (_WRITE_OFFSET_$$partial == $arrayidx11.i$2));
    cur$1 := if p$1 then 14 else cur$1;
    cur$2 := if p$2 then 14 else cur$2;
    goto $if.then9.i$next;
  $if.then9.i$next:
    goto $__clang_ocl_kern_imp_reduce.exit, $__clang_ocl_kern_imp_reduce.exit$skip;
  $__clang_ocl_kern_imp_reduce.exit:
    assume cur$1 == 14;
    cur$1 := 15;
    cur$2 := 15;
    goto $__clang_ocl_kern_imp_reduce.exit$next;
  $__clang_ocl_kern_imp_reduce.exit$skip:
    assume cur$1 != 14;
    goto $__clang_ocl_kern_imp_reduce.exit$next;
  $__clang_ocl_kern_imp_reduce.exit$next:
    assert {:lockstep_check} cur$1 == 15;
    assert {:lockstep_check} cur$2 == 15;
    assert {:vacuity_check} false;
    return;
}
