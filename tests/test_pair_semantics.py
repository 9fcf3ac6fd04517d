"""The pair of threads of the two-thread reduction (DESIGN.md 5.1) and benign write-write
races (DESIGN.md 5.8), end to end through the driver and on lockstep's output.

* A launch of one thread has no second thread: no race is possible, but its assertions
  are still checked and the result is never "vacuous" (before, the distinctness axiom
  contradicted the launch constraints).
* Two writes of the same value and the same width to one cell are tolerated under either
  abstraction unless ``--no-benign-tolerance``; different widths (an ``int`` and a
  ``char`` write of the same byte) are not.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bugle.cc import compile_kernel
from bugle.translate import translate_ir
from vcgen import il
from vcgen.twothread.options import LaunchConfig, LockstepOptions
from vcgen.twothread.transform import lockstep

ROOT = Path(__file__).resolve().parent.parent
VERIFIED, NOT_VERIFIED = 0, 6


def verify(tmp_path: Path, src: str, *flags: str) -> tuple:
    k = tmp_path / "k.cl"
    k.write_text(src)
    p = subprocess.run([sys.executable, "-m", "vcgen.driver", *flags, str(k)], capture_output=True, text=True,
                       cwd=ROOT, timeout=600)
    return p.returncode, p.stdout + p.stderr


RACY_ASSERT = """__kernel void k(__global int *A, int n) {
  A[0] = get_local_id(0);
  A[0] = A[0] + 1;
  __assert(n != 3);
}"""


@pytest.mark.parametrize("flags", [("--local_size=1", "--num_groups=1"),
                                   ("--local_size=1", "--num_groups=4", "--only-intra-group")])
def test_one_thread_launch_checks_assertions_and_has_no_race(tmp_path, flags):
    code, out = verify(tmp_path, RACY_ASSERT, *flags)
    assert code == NOT_VERIFIED, out
    assert "this assertion might not hold" in out and "n = 3" in out, out
    assert "race" not in out and "vacuous" not in out, out
    code, out = verify(tmp_path, RACY_ASSERT.replace("__assert(n != 3);", "__assert(A[0] == 1);"), *flags)
    assert code == VERIFIED and "vacuous" not in out, out


def test_two_threads_still_race(tmp_path):
    code, out = verify(tmp_path, RACY_ASSERT.replace("__assert(n != 3);", ""), "--local_size=1", "--num_groups=2")
    assert code == NOT_VERIFIED and "write-write race on A[0]" in out, out


def _two_thread(tmp_path: Path, src: str, launch: LaunchConfig) -> il.Program:
    k = tmp_path / "k.cl"
    k.write_text(src)
    return lockstep(translate_ir(compile_kernel(str(k))), LockstepOptions(launch=launch))


def test_one_thread_pair_has_no_distinctness_axiom_nor_race_check(tmp_path):
    one = _two_thread(tmp_path, RACY_ASSERT, LaunchConfig((1, 1, 1), (1, 1, 1)))
    two = _two_thread(tmp_path, RACY_ASSERT, LaunchConfig((2, 1, 1), (1, 1, 1)))

    def facts(p: il.Program) -> tuple:
        axioms = [d for d in p.decls if isinstance(d, il.AxiomDecl) and il.has_attr(d.attrs, "distinct_threads")]
        races = [c for b in p.kernel().blocks for c in b.cmds if isinstance(c, il.Assert) and il.has_attr(c.attrs, "race")]
        return len(axioms), len(races)
    assert facts(one) == (0, 0)
    assert facts(two)[0] == 1 and facts(two)[1] > 0


BENIGN = """__kernel void k(__global char *B, __local int *L, __global int *G) {
  BODY
}"""


@pytest.mark.parametrize("body, flags, code, expect", [
    # same value, adversarial abstraction (L is never read): tolerated
    ("L[0] = 7;", (), VERIFIED, "Verified"),
    ("L[0] = 7;", ("--no-benign-tolerance",), NOT_VERIFIED, "write-write race on L[0]"),
    ("L[0] = get_local_id(0) / 64;", (), VERIFIED, "Verified"),
    ("L[0] = get_local_id(0) / 32;", (), NOT_VERIFIED, "write-write race on L[0]"),
    # a value read under the adversarial abstraction is arbitrary per thread
    ("L[0] = G[0];", ("--adversarial-abstraction",), NOT_VERIFIED, "write-write race on L[0]"),
    ("L[0] = G[0];", ("--equality-abstraction",), VERIFIED, "Verified"),
    # byte-level memory: the same byte written at the same width and value
    ("B[1] = 0;", (), VERIFIED, "Verified"),
    # ... but a char and an int write of the same (zero) byte differ in width
    ("if (get_local_id(0) == 0) ((__global int *)B)[0] = 0; else B[1] = 0;", (), NOT_VERIFIED,
     "write-write race on"),
    # a read racing with a write of the value it reads is never tolerated
    ("int v = L[0]; L[0] = v;", ("--equality-abstraction",), NOT_VERIFIED, "race on L[0]"),
])
def test_benign_write_write_races(tmp_path, body, flags, code, expect):
    got, out = verify(tmp_path, BENIGN.replace("BODY", body), "--local_size=64", "--num_groups=2", *flags)
    assert got == code and expect in out, out


def test_uninitialised_private_memory_differs_between_threads(tmp_path):
    """A private array starts with arbitrary contents in each thread: copying an
    uninitialised one into one shared cell is not a benign same-value write (GPUVerify's
    CUDA/memcpy/fail_arrayofstruct); a struct argument passed by value is the same in all
    threads."""
    code, out = verify(tmp_path, """typedef struct { short x, y; } pair_t;
__kernel void k(__global pair_t *pairs) { pair_t fresh; pairs[42] = fresh; }""",
                       "--local_size=2", "--num_groups=1")
    assert code == NOT_VERIFIED and "write-write race on" in out, out
    code, out = verify(tmp_path, """typedef struct { short x, y; } pair_t;
__kernel void k(__global pair_t *pairs, pair_t given) { pairs[42] = given; }""",
                       "--local_size=2", "--num_groups=1")
    assert code == VERIFIED, out


GROUP_LOG = """__kernel void k() {
  __local int A[32];
  A[get_local_id(0)] = 42;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int j = 0; __global_invariant(__no_write(A)), j < get_group_id(0); j++) {
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  A[(get_local_id(0) + 1) % 32] = 1;
}"""


def test_barrier_resets_group_shared_logs_for_any_pair(tmp_path):
    # the other thread may be in another group: a local array's log is still empty after
    # the barrier (its races are only checked within a group), so __no_write(A) holds
    code, out = verify(tmp_path, GROUP_LOG, "--local_size=32", "--num_groups=8")
    assert code == VERIFIED, out
    code, out = verify(tmp_path, GROUP_LOG.replace("  barrier(CLK_LOCAL_MEM_FENCE);\n  for", "  for"),
                       "--local_size=32", "--num_groups=8")
    assert code == NOT_VERIFIED and "loop invariant might not hold on entry" in out, out
