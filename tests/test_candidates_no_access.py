"""r12 (noread) and r13 (nowrite), paper 003 appendix A.12: vcgen/candidates/no_access.py."""
from test_candidates_harness import candidates, check_essential, rules_of


def test_r12_essential_across_iterations():
    check_essential("r12_no_access.cl", ("r12",))


def test_shapes_and_only_with_a_barrier():
    cands = candidates("r12_no_access.cl")
    assert ("r12", "!_READ_HAS_OCCURRED_$$a") in cands
    # the write after the second barrier is still in the log at the head: r13 would be
    # false after one iteration (Houdini dropped it), so it is not generated
    assert not [e for r, e in cands if r == "r13"]
    assert not rules_of("id_own_element.cl") & {"r12", "r13"}
