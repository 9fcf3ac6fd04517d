"""r8 (guardNonNeg) and r9 (loopBound), paper 003 appendix A.8/A.9: vcgen/candidates/loop_bound.py."""
from test_candidates_harness import candidates, check_essential


def test_r9_essential_for_exact_exit_value():
    check_essential("r9_loop_bound.cl", ("r9",))


def test_shapes():
    cands = candidates("r9_loop_bound.cl")
    assert ("r9", "BV32_SLE($i.i.0, 4bv32)") in cands  # guard i < 4
    assert ("r8", "BV32_SGE($i.i.0, 0bv32)") in cands  # signed guard variable


def test_r9_shrinking_counter_essential():
    """A stride halved from 32 stays <= 32: without it the tree's reads leave their row."""
    check_essential("r9_shrinking.cl", ("r9",))
    assert ("r9", "BV32_ULE($s.i.0, 32bv32)") in candidates("r9_shrinking.cl")
