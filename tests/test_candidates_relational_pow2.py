"""r17 (relationalPow2), paper 003 appendix A.15: vcgen/candidates/relational_pow2.py."""
from test_candidates_harness import candidates, check_essential, rules_of


def test_r17_essential_for_blelloch_up_sweep():
    check_essential("r17_upsweep.cu", ("r17",))


def test_shapes():
    cands = [e for r, e in candidates("r17_upsweep.cu") if r == "r17"]
    assert cands == ["($d.0 != 0bv32) ==> (BV32_MUL($offset.0, $d.0) == 32bv32)",
                     "($d.0 == 0bv32) ==> ($offset.0 == 64bv32)"]


def test_needs_two_counters():
    assert "r17" not in rules_of("r14_pow2.cl")  # one halving variable only


def test_r17_essential_with_arithmetic_shift():
    check_essential("r17_signed_upsweep.cl", ("r17",))
