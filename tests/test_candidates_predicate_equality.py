"""r11 (loopPredicateEquality) and r16 (predicatedEquality), paper 003 appendix A.11/A.14:
vcgen/candidates/predicate_equality.py."""
from test_candidates_harness import candidates, check_essential


def test_r16_essential_for_equal_looking_non_uniform_counter():
    check_essential("r16_equal_counter.cl", ("r16",))


def test_r11_essential_for_the_same_loop():
    check_essential("r16_equal_counter.cl", ("r11",))


def test_shapes():
    cands = candidates("r16_equal_counter.cl")
    assert ("r16", "$i.i.0$1 == $i.i.0$2") in cands
    assert ("r16", "((cur$1 == 2) && (cur$2 == 2)) ==> ($i.i.0$1 == $i.i.0$2)") in cands
    assert ("r11", "cur$1 == cur$2") in cands


def test_dead_ssa_temporaries_get_no_equality():
    # r17_upsweep's ai/bi temporaries are recomputed every iteration
    assert not any(r == "r16" and ("$add" in e or "$mul" in e) for r, e in candidates("r17_upsweep.cu"))
