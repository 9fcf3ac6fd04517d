"""r0 (accessBreak, paper 003 appendix A.1): vcgen/candidates/access_breaking.py."""
from test_candidates_harness import VERIFIED, run, candidates, check_essential, rules_of


# a thread's chunk is also the range its loop covers (rule ``range``): either rule proves
# these kernels, so the two are dropped together
CHUNK_RULES = ("r0", "range")


def test_r0_essential_for_per_thread_chunks():
    """r0 or the per-thread ``range`` (lid * 4 <= OFF < lid * 4 + 4) proves it; each alone suffices."""
    check_essential("r0_chunks.cl", CHUNK_RULES)
    assert run("r0_chunks.cl", ("r0",))[0] == VERIFIED
    assert run("r0_chunks.cl", ("range",))[0] == VERIFIED


def test_r0_shape_divides_out_the_component():
    assert ("r0", "_WRITE_HAS_OCCURRED_$$a ==> (BV32_UDIV(_WRITE_OFFSET_$$a, 4bv32) == local_id_x$1)") \
        in candidates("r0_chunks.cl")


def test_r0_not_generated_when_the_loop_part_is_above_the_components():
    assert "r0" not in rules_of("r1_strided.cl")  # a[i], i from lid by 64: r1's business


def test_r0_essential_for_global_id_chunks():
    """The launch's fixed block size is a literal coefficient (LoopContext.concrete_sizes)."""
    check_essential("r0_global_chunks.cu", CHUNK_RULES)


def test_r0_essential_for_mixed_zero_and_sign_extensions():
    """``ZEXT64(y * w) + SEXT64(x)`` is broken at its low 32 bits (bvexpr.narrow_offset)."""
    check_essential("r0_mixed_extensions.cu", CHUNK_RULES)


def test_r0_essential_through_umul24():
    """``ZEXT32(v[24:0])`` of a launch id or pinned size is the value itself
    (LoopContext.concrete_sizes), so ``__umul24(threadIdx.y, N)`` is a literal multiple."""
    check_essential("r0_umul24.cu", CHUNK_RULES)


def test_no_component_whose_digit_a_loop_term_reaches():
    # r0_loop_digit.cl writes C[(c0 + t0) * n + c1 + t1]: in the outer loop both tile
    # counters are loop terms, each in the digit of a local id, so no quotient or remainder
    # of the offset is a local id there (such candidates are false and only cost Houdini
    # rounds); in the inner loop c0 is fixed and the row of the tile is the local id x
    cands = [e for r, e in candidates("r0_loop_digit.cl") if r == "r0"]
    assert not any(e.startswith("_WRITE_HAS_OCCURRED_$$C ==> (BV32_UDIV(_WRITE_OFFSET_$$C,") or
                   e.startswith("_WRITE_HAS_OCCURRED_$$C ==> (BV32_UREM(_WRITE_OFFSET_$$C,") for e in cands), cands
    assert any("local_id_x$1" in e for e in cands), cands
    # the tile's row: ZEXT64(lid_x)[32:0] * 32 + c4[32:0] (peel_low_bits)
    assert any("_WRITE_OFFSET_$$tile, 32bv32) == local_id_x$1" in e
               for r, e in candidates("polybench_tiles.cl") if r == "r0")
