"""r14 (pow2) and r15 (pow2NotZero), paper 003 appendix A.13: vcgen/candidates/pow2.py."""
from test_candidates_harness import candidates, check_essential


def test_r14_essential_for_tree_reduction():
    check_essential("r14_pow2.cl", ("r14", "r15"))


def test_shapes():
    cands = candidates("r14_pow2.cl")
    assert ("r14", "($s.i.0 == 0bv32) || (BV32_AND($s.i.0, BV32_SUB($s.i.0, 1bv32)) == 0bv32)") in cands
    assert ("r15", "$s.i.0 != 0bv32") in cands
