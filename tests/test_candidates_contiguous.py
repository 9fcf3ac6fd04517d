"""r2 (accessLowerBoundBlock) and r3 (accessUpperBoundBlock), paper 003 appendix A.3:
vcgen/candidates/contiguous.py."""
from test_candidates_harness import candidates, check_essential, rules_of


def test_r2_r3_essential_for_block_owned_range():
    check_essential("r2_block_range.cu", ("r2", "r3"))


def test_bounds_are_on_the_narrowed_offset():
    cands = dict((r, e) for r, e in candidates("r2_block_range.cu") if r in ("r2", "r3"))
    assert "BV32_ULE(BV32_MUL(group_id_x$1, $n), _WRITE_OFFSET_$$out[32:0])" in cands["r2"]
    assert "BV32_ULT(_WRITE_OFFSET_$$out[32:0], BV32_ADD(BV32_MUL(group_id_x$1, $n), $n))" in cands["r3"]


def test_not_generated_for_literal_block_sizes_or_without_group_ids():
    assert not rules_of("r0_chunks.cl") & {"r2", "r3"}


def test_range_essential_for_per_thread_row_strips():
    """Rule ``range``: thread (x, y) covers rows ``y0 .. y0 + rows - 1`` of column x; with
    the column residue (r1) the two threads' strips are disjoint."""
    check_essential("range_rows.cu", ("range",))
    rng = [e for r, e in candidates("range_rows.cu") if r == "range"]
    assert any("BV32_ULT(_WRITE_OFFSET_$$v[32:0]" in e and "BV32_SUB($rows, 0bv32)" in e for e in rng), rng
