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


def test_r13_any_group_essential_in_a_tile_loop():
    """The tile loop's barriers are not uniform (its bound reads the group id): the write
    log is still empty at its head for a pair of any groups, each write being followed by
    a barrier on the work item's own path (KernelFacts._parked_logged)."""
    check_essential("r13_tile_any_group.cl", ("r13",))
    cands = candidates("r13_tile_any_group.cl")
    assert ("r13", "!_WRITE_HAS_OCCURRED_$$tile") in cands


def test_no_r13_any_group_when_a_write_leaves_the_loop_logged():
    """A write that reaches the loop's exit with no barrier may be in the log of a work
    item parked after the loop while one of another group runs the loop again: only the
    one-group form of r13."""
    cands = [e for r, e in candidates("r13_parked_write.cl") if r == "r13"]
    assert cands and all(e.startswith("(((group_id_x$1 == group_id_x$2)") for e in cands), cands
