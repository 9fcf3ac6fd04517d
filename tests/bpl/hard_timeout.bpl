// Factoring a 64-bit semiprime by bit-blasting: far beyond a 0.1 s query timeout.
// The assertion does fail (the factors exist), so a verdict must never be "verified".
function {:bvbuiltin "bvmul"} BV64_MUL(bv64, bv64): bv64;
function {:bvbuiltin "bvult"} BV64_ULT(bv64, bv64): bool;
procedure {:kernel} {:source_name "hard"} {:language "opencl"} $hard($x: bv64, $y: bv64)
  requires BV64_ULT(1bv64, $x) && BV64_ULT($x, 4294967296bv64);
  requires BV64_ULT(1bv64, $y) && BV64_ULT($y, 4294967296bv64);
{
  $entry:
    assert {:sourceloc "hard.cl", 3, 3} {:user_assert} BV64_MUL($x, $y) != 4611686014132420609bv64;
    assert {:vacuity_check} false;
    return;
}
