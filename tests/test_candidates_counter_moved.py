"""moved (a loop's log holds an access only once a counter left its initial value,
vcgen/candidates/counter_moved.py) and the r1 residues kept off 64-bit offsets modulo a
constant that is not a power of two (vcgen/candidates/strided.py, ``DIVIDER_WIDTH``)."""
import re
import time

from test_candidates_harness import NOT_VERIFIED, VERIFIED, candidates, check_essential, run


def test_moved_essential_for_padded_tile_loop_run_once():
    stats = check_essential("moved_padded_tile.cu", ("moved",))
    assert stats["moved"] == (2, 2)  # plain and one-group form of the tile write log


def test_moved_shape():
    moved = [e for r, e in candidates("moved_padded_tile.cu") if r == "moved"]
    assert "_WRITE_HAS_OCCURRED_$$tile ==> ($k.0 != 0bv32)" in moved
    assert any(e.startswith("(((group_id_x$1 == group_id_x$2)") and e.endswith("($k.0 != 0bv32))") for e in moved)


def test_moved_does_not_hide_rows_written_twice():
    assert run("moved_padded_tile_bug.cu")[0] == NOT_VERIFIED


def test_no_64_bit_residue_modulo_odd_row_length():
    """The padded row (17 elements): ``(OFF - ZEXT64(tx)) urem 17`` on the 64-bit log made
    each Houdini query of the loop time out (40 s for this kernel); residues modulo powers
    of two and at 32 bits are still generated."""
    r1 = [e for r, e in candidates("moved_padded_tile.cu") if r == "r1"]
    odd64 = [e for e in r1 if (m := re.search(r"BV64_UREM\(.*, (\d+)bv64\)", e)) and int(m[1]) & (int(m[1]) - 1)]
    assert not odd64
    r1_rows = [e for r, e in candidates("r1_tile_rows.cu") if r == "r1"]
    assert any("_WRITE_OFFSET_$$tile" in e and "), 64bv64) == 0bv64" in e for e in r1_rows)


def test_padded_tile_verifies_fast():
    start = time.monotonic()
    run("moved_padded_tile.cu")
    assert time.monotonic() - start < 20


def test_moved_only_where_the_log_can_be_empty_on_entry():
    """At the head of a loop entered again by an enclosing loop, the log may hold an
    access of an earlier entry while the counter is back at its initial value: the base
    case fails (lu kernel1: Houdini dropped them one sat query of 1-8 s each).  The
    barrier on the way back empties the tile's group-shared logs for any pair of
    threads, not the global array's."""
    moved = [e for r, e in candidates("moved_reentered_loop.cl") if r == "moved" and "$k.i.0" in e]
    assert moved == ["_WRITE_HAS_OCCURRED_$$tile ==> ($k.i.0 != 0bv32)",
                     "(((group_id_x$1 == group_id_x$2) && (group_id_y$1 == group_id_y$2)) && "
                     "(group_id_z$1 == group_id_z$2)) ==> (_WRITE_HAS_OCCURRED_$$tile ==> ($k.i.0 != 0bv32))"]
    # the outer loop is entered once, with empty logs: both forms for every log
    assert len([e for r, e in candidates("moved_reentered_loop.cl") if r == "moved" and "$r.i.0" in e]) == 8


def test_no_access_only_for_logs_no_access_reaches_unreset():
    """r12/r13 at the barrier loop r: the local fence empties the tile's logs, not the
    global array's, whose accesses reach the head again (vcgen/candidates/no_access.py)."""
    na = [e for r, e in candidates("moved_reentered_loop.cl") if r in ("r12", "r13")]
    assert "!_WRITE_HAS_OCCURRED_$$tile" in na and "!_READ_HAS_OCCURRED_$$tile" in na
    assert not [e for e in na if "$$a" in e]


def test_reentered_loop_verifies():
    assert run("moved_reentered_loop.cl")[0] == VERIFIED
