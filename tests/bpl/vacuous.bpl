// The precondition n < 0 (unsigned) is unsatisfiable: everything "verifies" vacuously.
function {:bvbuiltin "bvult"} BV32_ULT(bv32, bv32): bool;
const local_id_x$1: bv32;
const local_id_x$2: bv32;
const group_size_x: bv32;
axiom group_size_x == 4bv32;
axiom BV32_ULT(local_id_x$1, group_size_x) && BV32_ULT(local_id_x$2, group_size_x);
axiom local_id_x$1 != local_id_x$2;
procedure {:kernel} {:source_name "vac"} {:language "opencl"} $vac($n: bv32)
  requires BV32_ULT($n, 0bv32);
{
  $entry:
    assert {:sourceloc "vac.cl", 2, 3} {:user_assert} {:thread 1} $n == 7bv32;
    assert {:vacuity_check} false;
    return;
}
