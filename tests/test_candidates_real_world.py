"""Candidate rules and invariant forms for false alarms of real-world kernels (issue 12:
scans, tiled transposes, PPCG-generated loops, reductions publishing a block's result):
each small kernel verifies with the mechanism and fails without it, and a buggy variant
(``*_bug.*``) is still reported."""
import pytest

from test_candidates_harness import NOT_VERIFIED, VERIFIED, candidates, check_essential, run


@pytest.mark.parametrize("kernel", ["r17_signed_scan_bug.cl", "skipped_uniform_loop_bug.cl", "r1_tile_rows_bug.cu",
                                    "r1_long_counter_bug.cl", "copies_block_sum_bug.cu",
                                    "warp_read_only_loop_bug.cu", "global_copy_same_index.cu",
                                    "range_rows_bug.cu", "field_pitch_bug.cu"])
def test_buggy_variants_are_reported(kernel):
    assert run(kernel)[0] == NOT_VERIFIED


def test_r17_pairs_signed_halving():
    """``int d; d >>= 1`` (ASHR) and ``offset /= 2`` (SDIV) are halving counters."""
    check_essential("r17_signed_scan.cl", ("r17",))
    r17 = [e for r, e in candidates("r17_signed_scan.cl") if r == "r17"]
    assert "($d.i.0 != 0bv32) ==> (BV32_MUL($offset.i.0, $d.i.0) == 64bv32)" in r17
    # the down-sweep pair too: d doubles while offset halves, product the up-sweep's final offset
    assert "($offset.i.1 != 0bv32) ==> (BV32_MUL($d10.i.0, $offset.i.1) == $offset.i.0)" in r17


def test_skipped_uniform_loop_gets_entry_guarded_candidates():
    """Inside ``if (levels > 1)`` both threads may skip the loop: its candidates hold only
    for threads that entered it, and the user invariant needs ``i >= 1`` from them."""
    assert run("skipped_uniform_loop.cl")[0] == VERIFIED
    r9 = [e for r, e in candidates("skipped_uniform_loop.cl") if r == "r9"]
    assert "(cur$1$entry$for.cond.i == 5) ==> BV32_UGE($i.i.0, 1bv32)" in r9  # the one the invariant needs
    assert "BV32_UGE($i.i.0, 1bv32)" in r9  # plain too: a value assigned before the ``if`` keeps it
    # a top-level uniform loop no path avoids keeps its plain candidates
    assert any(r == "r9" and not e.startswith("(cur$") for r, e in candidates("r9_loop_bound.cl"))


def test_r1_through_widened_tile_index_and_nested_counter():
    stats = check_essential("r1_tile_rows.cu", ("r1",))
    assert stats["r1"][1] >= 2
    r1 = [e for r, e in candidates("r1_tile_rows.cu") if r == "r1"]
    # the tile offset ZEXT64(ty + i) * 16 + tx, modulo 16 * 4, for threads of one group
    assert any("_WRITE_OFFSET_$$tile" in e and "), 64bv64) == 0bv64" in e and e.startswith("(((group_id_x$1 == group_id_x$2)")
               for e in r1)
    # out's rows through i, the counter of the loops nested in the r loop: modulo width * 4
    assert any("_WRITE_OFFSET_$$out" in e and "BV32_MUL($width, 4bv32)) == 0bv32" in e for e in r1)


def test_r1_through_truncated_long_counter_and_mixed_sources():
    check_essential("r1_long_counter.cl", ("r1",))
    cands = candidates("r1_long_counter.cl")
    # c1 (long) moves by 1048576 and is multiplied by n, pinned to 64 by __requires:
    # modulo 64 * 1048576 for the low 32 bits, stated for the loop's own read
    assert any(r == "r1" and "_READ_SOURCE_$$A == 3" in e and "67108864bv32) == 0bv32" in e for r, e in cands)
    assert any(r == "id" and "_READ_SOURCE_$$A ==" in e for r, e in cands)


def test_copies_equal_at_barrier_loop_head():
    check_essential("copies_block_sum.cu", ("copies",))
    assert ("copies", "(((group_id_x$1 == group_id_x$2) && (group_id_y$1 == group_id_y$2)) && "
                      "(group_id_z$1 == group_id_z$2)) ==> ($$s$1 == $$s$2)") in candidates("copies_block_sum.cu")


def test_warp_sync_leaves_unfilled_logs_alone():
    assert run("warp_read_only_loop.cu")[0] == VERIFIED


def _abstractions(kernel: str) -> dict:
    """Source name -> "equality" | "adversarial" chosen for the arrays of a test kernel."""
    from bugle.cc import compile_kernel
    from bugle.translate import translate_ir
    from test_candidates_harness import KERNELS
    from vcgen import il
    from vcgen.analysis.abstraction import choose_abstraction

    path = KERNELS / kernel
    lang = "cuda" if path.suffix == ".cu" else "opencl"
    prog = translate_ir(compile_kernel(str(path), language=lang, defines=(), includes=(), spir64=False), None, str(path))
    return {il.attr(d.attrs, "source_name").args[0]: "equality" if il.has_attr(d.attrs, "equality") else "adversarial"
            for d in choose_abstraction(prog).globals() if isinstance(d.type, il.MapType)
            and il.has_attr(d.attrs, "source_name")}


def test_published_shared_value_gets_equality_global_copy_does_not():
    """``out[blockIdx.x] = s[0]``: the index does not depend on the thread, the value comes
    from group-shared s -> equality; ``b[i] = in[i]``: a global source stays adversarial."""
    assert _abstractions("copies_block_sum.cu")["s"] == "equality"
    assert _abstractions("copies_block_sum.cu")["in"] == "adversarial"
    assert _abstractions("global_copy_same_index.cu")["in"] == "adversarial"
    # the per-thread write out[tid] = s[tid] publishes nothing
    assert _abstractions("warp_read_only_loop.cu")["in"] == "adversarial"
