"""PolyBench-style kernels (PPCG output: loops over tiles whose start depends on the group
id, inner loops over the tile, ``__function_wide_invariant``s about the access logs) that
verified with GPUVerify but not with us (issue 12).  Each kernel is our own, written in that
style; each test also runs a buggy variant that must still fail.

The driver runs in-process; each test checks the exit code and what the report says.
"""
from __future__ import annotations

from vcgen.il.errors import ExitCode

from test_candidates_harness import candidates, check_essential
from test_cli_flags import gv

# The outer loop starts at the group id: a thread pair from two groups may have one thread
# past its last row while the other still runs the inner loop, which changes (havocs, in
# the loop-cut program) the logs of both.  A function-wide invariant is a fact about the
# kernel's state at every loop head, enabled thread or not: read "enabled => e" the
# disabled thread's log is unconstrained after the inner loop and the invariant is
# reported not maintained by the outer loop.
ROWS = """\
__kernel void scale_rows(__global float *A, int n) {
  __requires(n == 256);
  long b = get_group_id(0), t = get_local_id(0);
  for (long r = b; r < n; r += 8) {
    for (long c = t; c < n; c += 32)
      A[r * n + c + SHIFT] *= 2.0f;
  }
  __function_wide_invariant(__write_implies(A, ((__write_offset_bytes(A) / sizeof(float)) / n) % 8 == b));
  __function_wide_invariant(__write_implies(A, ((__write_offset_bytes(A) / sizeof(float)) % n) % 32 == t));
  __function_wide_invariant(__read_implies(A, ((__read_offset_bytes(A) / sizeof(float)) / n) % 8 == b));
  __function_wide_invariant(__read_implies(A, ((__read_offset_bytes(A) / sizeof(float)) % n) % 32 == t));
}
"""
ROWS_LAUNCH = ["--local_size=32", "--num_groups=8"]


def test_function_wide_invariant_holds_for_a_thread_outside_the_loop(tmp_path, monkeypatch, capsys):
    code, out, _ = gv(tmp_path, monkeypatch, capsys, ROWS.replace(" + SHIFT", ""), ROWS_LAUNCH)
    assert code == 0, out


def test_function_wide_invariant_still_checked(tmp_path, monkeypatch, capsys):
    # the access is one column off: the second invariant is false (and the kernel races)
    code, out, _ = gv(tmp_path, monkeypatch, capsys, ROWS.replace("SHIFT", "1"), ROWS_LAUNCH)
    assert code == ExitCode.NOT_ALL_VERIFIED, out
    assert "loop invariant might not be maintained" in out or "might not hold on entry" in out, out


SAME = "(((group_id_x$1 == group_id_x$2) && (group_id_y$1 == group_id_y$2)) && (group_id_z$1 == group_id_z$2))"


def test_tile_loops_of_a_group_and_truncated_tile_index():
    # polybench_tiles.cl: the column-tile counter c1 starts at 32 * group_id(1) in a loop the
    # threads of other groups may have left: equal in one group while both run the loop
    # (r16 guarded by same group and by both at the head; the barriers need it); the tile
    # index ZEXT64(lid_x)[32:0] * 32 + c4[32:0] is broken into its row, the local id (r0)
    cands = candidates("polybench_tiles.cl")
    assert ("r16", f"{SAME} ==> (((cur$1 == 5) && (cur$2 == 5)) ==> ($c1.i.0$1 == $c1.i.0$2))") in cands
    assert ("r0", "_WRITE_HAS_OCCURRED_$$tile ==> (BV32_UDIV(_WRITE_OFFSET_$$tile, 32bv32) == local_id_x$1)") in cands
    check_essential("polybench_tiles.cl", ("r0",))
    check_essential("polybench_tiles.cl", ("r16",))
