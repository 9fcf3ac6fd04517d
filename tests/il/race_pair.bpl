// Two-thread sample: each thread writes A[lid]; thread 1 may log, thread 2 is checked.
function {:bvbuiltin "bvult"} BV32_ULT(bv32, bv32): bool;
const {:local_id_x} local_id_x$1: bv32;
const {:local_id_x} local_id_x$2: bv32;
const {:group_size_x} group_size_x: bv32;
axiom group_size_x == 8bv32;
axiom BV32_ULT(local_id_x$1, group_size_x) && BV32_ULT(local_id_x$2, group_size_x);
var {:source_name "A"} {:global} {:elem_width 32} $$A: [bv32]bv32;
var _WRITE_HAS_OCCURRED_$$A: bool;
var _WRITE_OFFSET_$$A: bv32;
procedure {:kernel} {:source_name "k"} $k()
  requires !_WRITE_HAS_OCCURRED_$$A;
  modifies $$A, _WRITE_HAS_OCCURRED_$$A, _WRITE_OFFSET_$$A;
{
  $entry:
    assume {:sourceloc "k.cl", 3, 5} true;
    $$A[local_id_x$1] := local_id_x$1;
    goto $log, $nolog;
  $log:
    _WRITE_HAS_OCCURRED_$$A, _WRITE_OFFSET_$$A := true, local_id_x$1;
    goto $check;
  $nolog:
    goto $check;
  $check:
    assert {:race "write-write", "$$A"} {:sourceloc "k.cl", 3, 5} {:check_offset local_id_x$2} !(_WRITE_HAS_OCCURRED_$$A && _WRITE_OFFSET_$$A == local_id_x$2);
    assume {:sourceloc "k.cl", 3, 5} true;
    $$A[local_id_x$2] := local_id_x$2;
    return;
}
