"""r4 (accessOnlyIfEnabledInEnclosingScopes), r5 (conditionsImpliesEnabledness), r6
(disabledMaintainsInstrumentation), paper 003 appendix A.4-A.6: vcgen/candidates/enabledness.py.

In the kernel, only work-item 0 runs the loop.  r4 (the log holds work-item 0's access)
and r6 (a thread 1 that never entered logged nothing) each suffice; without the
module's candidates the kernel does not verify.  r5 is implied by the lock-step's own
``cur$t$entry`` invariants here (proved, not essential), as in paper 003 table 3.
"""
from test_candidates_harness import candidates, check_essential, mutant_exit, rules_of, run, VERIFIED


def test_enabledness_module_essential():
    stats = check_essential("r4_enabled.cl", ("r4", "r5", "r6"))
    # r6: the log only shrinks, and the entry it keeps is the entry one
    assert stats["r4"][1] == 1 and stats["r6"][1] == 2 and stats["r5"][1] == 2


def test_r4_alone_suffices():
    assert run("r4_enabled.cl", ("r5", "r6"))[0] == VERIFIED


def test_shapes():
    cands = candidates("r4_enabled.cl")
    assert ("r4", "_WRITE_HAS_OCCURRED_$$a ==> (local_id_x$1 == 0bv32)") in cands
    assert ("r5", "(cur$2 == 5) ==> (local_id_x$2 == 0bv32)") in cands
    assert any(r == "r6" and e.startswith("(cur$1$entry") for r, e in cands)


def test_no_enclosing_scope_no_r4_r5():
    assert not rules_of("id_own_element.cl") & {"r4", "r5", "r6"}


def test_r4_essential_for_a_scope_inside_the_loop():
    """``if (lid == 0) sums[bid] += ..`` in a barrier-free loop (context.inner_conditions)."""
    check_essential("r4_inner_scope.cl", ("r4",))
    assert ("r4", "_WRITE_HAS_OCCURRED_$$sums ==> (local_id_x$1 == 0bv32)") in candidates("r4_inner_scope.cl")


def test_r6_frames_the_log_entry_of_a_thread_in_the_other_arm():
    """At the else arm's loop head the log of a then-arm thread holds a then-arm write; r6's
    field candidate (``OFF == OFF$entry`` ...) carries what was proved about it."""
    check_essential("r6_divergent_arms.cl", ("r6",))
    cands = candidates("r6_divergent_arms.cl")
    assert any(r == "r6" and "(_WRITE_OFFSET_$$tile == _WRITE_OFFSET_$$tile$entry" in e for r, e in cands)


def test_r6_frame_does_not_hide_overlapping_arms(tmp_path):
    # the else arm starts at row 7, which the then arm also fills
    assert mutant_exit("r6_divergent_arms.cl", "int i = 8;", "int i = 7;", tmp_path) == 6


def test_r4_only_for_conditions_stable_across_enclosing_iterations():
    """At the j head, ``lid < 8`` holds for every access the log can hold; the enclosing i
    loop's guard ``i < n`` held for the access when it was made, for the i of that
    iteration (lu kernel1, seidel-2d: such candidates are true when the outer loop runs
    once, never inductive, each dropped by a sat query of seconds)."""
    r4 = [e for r, e in candidates("r4_enclosing_loop_guard.cl") if r == "r4"]
    assert "_WRITE_HAS_OCCURRED_$$a ==> BV32_ULT(local_id_x$1, 8bv32)" in r4
    assert not [e for e in r4 if "$n" in e]
