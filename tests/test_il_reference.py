"""The IL-level all-threads reference (tests/il_reference.py) used by
``make conformance-mutants``: it must see the races, assertion failures and divergence
of small kernels compiled by our front end, and nothing in correct ones."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from conformance_mutants import reference_subject  # noqa: E402
from il_reference import LaunchReference, Unsupported  # noqa: E402

FLAGS = ["--local_size=4", "--num_groups=2"]


def verdicts(tmp_path, text: str, flags=FLAGS, name="k.cl", seeds=2) -> list:
    path = tmp_path / name
    path.write_text(text)
    ref = LaunchReference(reference_subject(str(path), flags))
    return [ref.run(s) for s in range(seeds)]


EXCHANGE = """
__kernel void k(__global int *A, __local int *L) {
  int t = get_local_id(0);
  L[t] = A[get_global_id(0)];
  BARRIER
  A[get_global_id(0)] = L[(t + 1) % 4];
}
"""


def test_exchange_with_barrier_is_clean(tmp_path):
    for v in verdicts(tmp_path, EXCHANGE.replace("BARRIER", "barrier(CLK_LOCAL_MEM_FENCE);")):
        assert v.skipped is None and v.problems == [] and v.threads == 8


def test_exchange_without_barrier_races(tmp_path):
    for v in verdicts(tmp_path, EXCHANGE.replace("BARRIER", "")):
        assert v.problems and all(p.startswith("race: ") and "$$L[" in p and "within a group" in p
                                  for p in v.problems)


def test_global_race_between_groups_and_fence_spaces(tmp_path):
    src = """
__kernel void k(__global int *A) {
  A[get_global_id(0)] = 1;
  barrier(CLK_GLOBAL_MEM_FENCE);
  A[(get_global_id(0) + 1) % 8] = 2;
}
"""
    v = verdicts(tmp_path, src)[0]
    # within a group the barrier orders them; thread 3 of group 0 and thread 0 of group 1 do not meet
    assert v.problems and all("between groups" in p for p in v.problems)
    v = verdicts(tmp_path, src.replace("CLK_GLOBAL_MEM_FENCE", "CLK_LOCAL_MEM_FENCE"))[0]
    assert any("within a group" in p for p in v.problems)


def test_divergence_and_assertion(tmp_path):
    v = verdicts(tmp_path, """
__kernel void k(__global int *A) {
  if (get_local_id(0) < 2) barrier(CLK_LOCAL_MEM_FENCE);
}
""")[0]
    assert [p.split(":")[0] for p in v.problems] == ["divergence", "divergence"]
    v = verdicts(tmp_path, """
__kernel void k(__global int *A) {
  __assert(get_local_id(0) != 3);
}
""")[0]
    assert len(v.problems) == 2 and all(p.startswith("assert: assertion fails for local id (3, 0, 0)")
                                        for p in v.problems)


def test_atomics_are_executed_and_do_not_race_with_each_other(tmp_path):
    src = """
__kernel void k(__global unsigned *C, __global unsigned *out) {
  unsigned t = atomic_inc(&C[0]);
  out[t % 8] = get_global_id(0);
}
"""
    for v in verdicts(tmp_path, src):
        # distinct tickets: no race on out, and none among the atomics on C
        assert v.problems == [], v.problems
    v = verdicts(tmp_path, src.replace("unsigned t = atomic_inc(&C[0]);", "unsigned t = C[0]; C[0] = t + 1;"))[0]
    assert v.problems


def test_unsupported_constructs_are_named(tmp_path):
    with pytest.raises(Unsupported, match="__assume"):
        verdicts(tmp_path, "__kernel void k(__global int *A) { __assume(A[0] > 0); A[get_global_id(0)] = 1; }")


def test_conformance_mutant_pipeline(tmp_path):
    """One suite directory with a correct kernel: its barrier mutant races, the verifier
    says so and the reference agrees; flags expand ${KERNEL_DIR}."""
    from conformance_mutants import _flags, barrier_mutants, correct_kernels, run_one, summary
    d = tmp_path / "suite" / "exchange"
    d.mkdir(parents=True)
    (d / "kernel.cl").write_text("//pass\n//--local_size=4 --num_groups=2 -I ${KERNEL_DIR}\n"
                                 + EXCHANGE.replace("BARRIER", "barrier(CLK_LOCAL_MEM_FENCE);"))
    (tmp_path / "suite" / "bad.cl").write_text("//xfail:NOT_ALL_VERIFIED\n//--local_size=4\n" + EXCHANGE)
    kernels = correct_kernels([str(tmp_path / "suite")], None)
    assert kernels == [d / "kernel.cl"]
    assert _flags(kernels[0]) == ["--local_size=4", "--num_groups=2", "-I", str(d), "-I", str(d)]
    [m] = barrier_mutants(str(kernels[0]), kernels[0].read_text())
    out = run_one((m.kernel, m.mutation, m.source, 300, 1, True))
    assert (out.verifier, out.reference, out.unsound) == ("race", "racy", False)
    assert "verified mutants whose reference run races: 0" in summary([out])
