"""once (a tile loop's counter took at most one step since the loop was entered,
vcgen/candidates/runs_once.py)."""
from test_candidates_harness import NOT_VERIFIED, VERIFIED, candidates, mutant_exit, run


def test_once_shape_per_thread_and_only_on_loops_enclosing_loops():
    once = [e for r, e in candidates("once_tile_loop.cl") if r == "once"]
    assert "($r.i.0$1 == local_id_x$1) || ($r.i.0$1 == BV32_ADD(local_id_x$1, 64bv32))" in once
    assert "(cur$2$entry$for.cond12.i == 12) ==> (($r.i.0$2 == local_id_x$2) || " \
           "($r.i.0$2 == BV32_ADD(local_id_x$2, 64bv32)))" in once
    assert any(e.startswith("($i.i.0$1 == ") and e.endswith(", 256bv32))") for e in once)
    # plain and entered-guarded forms per thread for i and r; nothing for the j loops
    assert len(once) == 8
    assert not [e for e in once if "$j." in e]


def test_once_proved_where_the_step_exceeds_the_range_only():
    code, stats = run("once_tile_loop.cl")
    assert code == VERIFIED
    assert stats["once"] == (8, 4)  # the four of i; r runs twice


def test_no_once_without_nested_loops():
    assert not [e for r, e in candidates("r9_loop_bound.cl") if r == "once"]


def test_tile_loop_race_still_reported(tmp_path):
    assert mutant_exit("once_tile_loop.cl", "a[i] = a[i] + j;", "a[i / 2] = a[i / 2] + j;", tmp_path) == NOT_VERIFIED
