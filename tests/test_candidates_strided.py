"""r1 (accessedOffsetsSatisfyPredicates) and r10 (loopCounterIsStrided), paper 003
appendix A.2/A.10: vcgen/candidates/strided.py."""
from test_candidates_harness import candidates, check_essential, mutant_exit


def test_r1_essential_for_strength_reduced_loop():
    check_essential("r1_strided.cl", ("r1",))


def test_r10_essential_for_strength_reduced_loop():
    check_essential("r1_strided.cl", ("r10",))


def test_shapes():
    cands = candidates("r1_strided.cl")
    assert ("r10", "BV32_UREM(BV32_SUB($i.i.0$1, local_id_x$1), 64bv32) == 0bv32") in cands
    assert any(r == "r1" and "BV32_UREM(BV32_SUB(_WRITE_OFFSET_$$a, local_id_x$1), 64bv32)" in e for r, e in cands)


def test_r1_essential_through_nested_counters():
    check_essential("r1_nested_strided.cl", ("r1",))
    cands = candidates("r1_nested_strided.cl")
    # at the outer head: j is replaced by its initial value i, then i by 0
    # (guarded by same_group: data is group-shared)
    assert any(r == "r1" and e.endswith("==> (_WRITE_HAS_OCCURRED_$$data ==> (BV32_UREM(BV32_SUB(_WRITE_OFFSET_$$data, "
                                        "BV32_ADD(0bv32, local_id_x$1)), 256bv32) == 0bv32))") for r, e in cands)


def test_nested_counters_with_half_stride_race(tmp_path):
    # the inner loop steps by half the group size: threads lid and lid + 128 collide
    assert mutant_exit("r1_nested_strided.cl", "j += get_local_size(0)", "j += get_local_size(0) / 2", tmp_path) == 6


def test_r1_essential_for_mixed_zero_and_sign_extensions():
    """``ZEXT64(x) + SEXT64(y * w)``: the residue modulo the power of two ``w`` is taken on
    the offset's low 32 bits (strided.access, bvexpr.narrow_offset with ``mixed``)."""
    check_essential("r1_mixed_extensions.cu", ("r1",))


def test_r1_field_band_for_the_floats_of_a_float2():
    """Two accesses per element (``float2`` halves at ``2 * i`` and ``2 * i + 1``, or at
    bytes ``8 * x`` and ``8 * x + 4`` of a pitched row): the row residue is stated as a band
    ``(OFF - base) mod m < c`` both fields satisfy (strided.field_band), on the low 32 bits
    of the 64-bit offset, with the pinned pitch as a literal modulus."""
    check_essential("field_pitch.cu", ("r1",))
    check_essential("range_rows.cu", ("r1",))
    bands = [e for r, e in candidates("field_pitch.cu") if r == "r1" and "BV32_ULT(BV32_UREM" in e]
    assert any(e.endswith(", $pitch), 8bv32)") and "_WRITE_OFFSET_$$out[32:0]" in e for e in bands), bands


def test_r1_from_the_enclosing_loop_at_a_nested_head():
    """``rows[i * 32 + tx]`` written inside ``for j`` nested in ``for i``: at the inner head
    the log can hold a write of an earlier ``i``; the residue modulo 32 comes from the
    enclosing loop (strided.enclosing_accesses)."""
    check_essential("r1_enclosing_counter.cl", ("r1",))
    cands = candidates("r1_enclosing_counter.cl")
    inner = [e for r, e in cands if r == "r1" and "_WRITE_OFFSET_$$rows" in e]
    assert sum("BV32_UREM(BV32_SUB(_WRITE_OFFSET_$$rows, local_id_x$1), 32bv32) == 0bv32" in e for e in inner) >= 2


def test_enclosing_residue_does_not_hide_a_column_race(tmp_path):
    # each work item reads its right neighbour's column: a race the residue must not hide
    assert mutant_exit("r1_enclosing_counter.cl", "rows[j * 32 + tx]", "rows[j * 32 + (tx + 1) % 32]", tmp_path) == 6


def test_no_r10_divider_on_a_wide_counter_with_a_constant_stride_not_a_power_of_two():
    """q += n (64-bit pointer, n pinned to 100): no BV64_UREM r10 (as r1's offsets over
    DIVIDER_WIDTH); MC_SingleAsianOptionP generatePaths' such candidate took each of its
    queries past 10 s."""
    cands = candidates("r10_wide_pointer.cu")
    assert not any(r == "r10" and "BV64_UREM" in e for r, e in cands), cands
    assert any(r == "r9" and "$t" in e for r, e in cands), cands
