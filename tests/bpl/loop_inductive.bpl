// A counting loop: both threads run i from 0 to n; the candidate i <= n (r1) is
// inductive, i == 0 (r2) is not.  No races: nothing is shared.
function {:bvbuiltin "bvadd"} BV32_ADD(bv32, bv32): bv32;
function {:bvbuiltin "bvult"} BV32_ULT(bv32, bv32): bool;
function {:bvbuiltin "bvule"} BV32_ULE(bv32, bv32): bool;
const {:existential true} _b0: bool;
const {:existential true} _b1: bool;
const local_id_x$1: bv32;
const local_id_x$2: bv32;
const group_id_x$1: bv32;
const group_id_x$2: bv32;
const group_size_x: bv32;
const num_groups_x: bv32;
axiom group_size_x == 64bv32;
axiom num_groups_x == 1bv32;
axiom group_id_x$1 == 0bv32 && group_id_x$2 == 0bv32;
axiom BV32_ULT(local_id_x$1, group_size_x) && BV32_ULT(local_id_x$2, group_size_x);
axiom local_id_x$1 != local_id_x$2;
procedure {:kernel} {:source_name "count"} {:language "opencl"} $count($n: bv32)
  requires BV32_ULT($n, 1000bv32);
{
  var $i: bv32;
  $entry:
    $i := 0bv32;
    goto $head;
  $head:
    assert {:candidate "r1"} _b0 ==> BV32_ULE($i, $n);
    assert {:candidate "r2"} _b1 ==> $i == 0bv32;
    goto $body, $exit;
  $body:
    assume {:partition} BV32_ULT($i, $n);
    $i := BV32_ADD($i, 1bv32);
    goto $head;
  $exit:
    assume {:partition} !BV32_ULT($i, $n);
    assert {:sourceloc "count.cl", 5, 3} {:user_assert} {:thread 1} $i == $n;
    assert {:vacuity_check} false;
    return;
}
