// A user invariant that is not maintained (i == 0 while i increments): the report must
// say "loop invariant might not be maintained"; the entry check holds.
function {:bvbuiltin "bvadd"} BV32_ADD(bv32, bv32): bv32;
function {:bvbuiltin "bvult"} BV32_ULT(bv32, bv32): bool;
const local_id_x$1: bv32;
const local_id_x$2: bv32;
const group_id_x$1: bv32;
const group_id_x$2: bv32;
const group_size_x: bv32;
const num_groups_x: bv32;
axiom group_size_x == 8bv32;
axiom num_groups_x == 1bv32;
axiom group_id_x$1 == 0bv32 && group_id_x$2 == 0bv32;
axiom BV32_ULT(local_id_x$1, group_size_x) && BV32_ULT(local_id_x$2, group_size_x);
axiom local_id_x$1 != local_id_x$2;
procedure {:kernel} {:source_name "inv"} {:language "cuda"} $inv($n: bv32)
{
  var $i: bv32;
  $entry:
    $i := 0bv32;
    goto $head;
  $head:
    assert {:sourceloc "inv.cu", 4, 21} {:user_invariant} $i == 0bv32;
    goto $body, $exit;
  $body:
    assume {:partition} BV32_ULT($i, $n);
    $i := BV32_ADD($i, 1bv32);
    goto $head;
  $exit:
    assume {:partition} !BV32_ULT($i, $n);
    assert {:vacuity_check} false;
    return;
}
