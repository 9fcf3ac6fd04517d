"""r1 (accessedOffsetsSatisfyPredicates) and r10 (loopCounterIsStrided), paper 003
appendix A.2/A.10: vcgen/candidates/strided.py."""
from test_candidates_harness import candidates, check_essential


def test_r1_essential_for_strength_reduced_loop():
    check_essential("r1_strided.cl", ("r1",))


def test_r10_essential_for_strength_reduced_loop():
    check_essential("r1_strided.cl", ("r10",))


def test_shapes():
    cands = candidates("r1_strided.cl")
    assert ("r10", "BV32_UREM(BV32_SUB($i.i.0$1, local_id_x$1), 64bv32) == 0bv32") in cands
    assert any(r == "r1" and "BV32_UREM(BV32_SUB(_WRITE_OFFSET_$$a, local_id_x$1), 64bv32)" in e for r, e in cands)
