"""r14 (pow2) and r15 (pow2NotZero), paper 003 appendix A.13: vcgen/candidates/pow2.py."""
from test_candidates_harness import NOT_VERIFIED, VERIFIED, candidates, run


def test_r14_essential_for_tree_reduction():
    """s being a power of two keeps lid + s from wrapping; so does r9's bound s <= 32 of a
    counter divided down (loop_bound.shrinking_bounds), an alternative proof: with r9 off,
    r14/r15 are essential."""
    code, stats = run("r14_pow2.cl", ("r9",))
    assert code == VERIFIED and stats.get("r14", (0, 0))[1], stats
    code, without = run("r14_pow2.cl", ("r9", "r14", "r15"))
    assert code == NOT_VERIFIED and "r14" not in without, without


def test_shapes():
    cands = candidates("r14_pow2.cl")
    assert ("r14", "($s.i.0 == 0bv32) || (BV32_AND($s.i.0, BV32_SUB($s.i.0, 1bv32)) == 0bv32)") in cands
    assert ("r15", "$s.i.0 != 0bv32") in cands
