"""r7 (guardMinusInitialsUniform), paper 003 appendix A.7: vcgen/candidates/uniform_guard.py."""
from test_candidates_harness import candidates, check_essential, rules_of


def test_r7_essential_for_barrier_in_thread_strided_loop():
    check_essential("r7_uniform_guard.cl", ("r7",))


def test_shape_and_only_with_a_barrier():
    assert ("r7", "BV32_SUB($i.i.0$1, local_id_x$1) == BV32_SUB($i.i.0$2, local_id_x$2)") \
        in candidates("r7_uniform_guard.cl")
    assert "r7" not in rules_of("r1_strided.cl")  # same loop without a barrier
