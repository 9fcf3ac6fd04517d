"""Barrier / index mutants of the correct corpus kernels (tests/mutants.py).

The fast tests check the mutant generator, the record checker, and that
``corpus/mutants.expected`` records exactly the mutants generated today (a new ``//pass``
kernel needs ``python tests/mutants.py record`` and a reviewed reason per ``verified``
mutant).

The slow test re-runs a deterministic representative subset and compares it with the
record: for every correct kernel, its first barrier-deletion mutant and its first
index-shift mutant (67 of 208 mutants; 70 s with 2 jobs on a quiet 2-core machine, about
3 minutes under load), skipping the kernels in ``SLOW_KERNELS``, whose mutants take
minutes each.  ``make mutants`` (``python tests/mutants.py check``) re-runs all of them;
so does this test with ``GPUVERIFY_ALL_MUTANTS=1``.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import mutants as M  # noqa: E402

KERNEL = """//pass
//--local_size=64 --num_groups=2
// barrier(CLK_LOCAL_MEM_FENCE); in a comment is not a mutant, nor is sdata[0] here
__kernel void k(__global int *out, __local int *scratch) {
  __local int sdata[64];
  __local unsigned flag;
  sdata[get_local_id(0)] = out[get_local_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_local_id(0)] = sdata[(get_local_id(0) + 1) % 64] + scratch[sdata[0]];
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  flag = 1;
}
"""


def test_barrier_mutants_keep_lines():
    ms = M.barrier_mutants("k.cl", KERNEL)
    assert [m.mutation for m in ms] == ["del-barrier-1@8:3", "del-barrier-2@10:3"]
    for m in ms:
        assert m.source.count("\n") == KERNEL.count("\n")
    assert "  ;\n  out[" in ms[0].source and "barrier(CLK_GLOBAL" in ms[0].source
    assert "barrier(CLK_LOCAL_MEM_FENCE);\n  out" in ms[1].source and "  ;\n  flag" in ms[1].source


def test_valued_barrier_is_replaced_by_its_argument():
    src = "__global__ void k(int *o) {\n  int n = __syncthreads_count(o[0] > 0);\n  __syncthreads();\n}\n"
    ms = M.barrier_mutants("k.cu", src)
    assert [m.mutation for m in ms] == ["del-barrier-1@2:11", "del-barrier-2@3:3"]
    assert "int n = (o[0] > 0);\n  __syncthreads();" in ms[0].source
    assert "__syncthreads_count(o[0] > 0);\n  ;\n" in ms[1].source


def test_shared_arrays_with_multiword_types():
    src = ("__global__ void k(unsigned *o) {\n  __shared__ unsigned bins[32];\n"
           "  __shared__ unsigned long long wide[4];\n  __shared__ unsigned long long total;\n"
           "  __shared__ volatile int *p;\n}\n")
    assert set(M.shared_arrays(src)) == {"bins", "wide", "p"}


def test_index_mutants_shift_first_index_of_shared_arrays():
    assert set(M.shared_arrays(KERNEL)) == {"sdata", "scratch"}  # `flag` is a scalar
    ms = {m.mutation: m.source for m in M.index_mutants("k.cl", KERNEL)}
    assert sorted(ms) == ["shift-scratch-1@9:62", "shift-sdata-1@7:3", "shift-sdata-2@9:26",
                          "shift-sdata-3@9:70"]
    assert "sdata[(get_local_id(0)) + 1] = out[get_local_id(0)];" in ms["shift-sdata-1@7:3"]
    assert "sdata[((get_local_id(0) + 1) % 64) + 1]" in ms["shift-sdata-2@9:26"]
    assert "scratch[(sdata[0]) + 1]" in ms["shift-scratch-1@9:62"]
    assert "scratch[sdata[(0) + 1]]" in ms["shift-sdata-3@9:70"]
    assert all("__local int sdata[64];" in s for s in ms.values())


def test_compare_flags_changes_missing_reasons_and_stale_records():
    rec = {("a.cl", "m1"): M.Record("a.cl", "m1", "race"),
           ("a.cl", "m2"): M.Record("a.cl", "m2", "verified", ""),
           ("a.cl", "m3"): M.Record("a.cl", "m3", "verified", "barrier redundant: own data only"),
           ("a.cl", "gone"): M.Record("a.cl", "gone", "race")}
    results = {("a.cl", "m1"): ("verified", ""), ("a.cl", "m2"): ("verified", ""),
               ("a.cl", "m3"): ("verified", ""), ("a.cl", "new"): ("race", "x")}
    problems = M.compare(rec, results)
    text = "\n".join(problems)
    assert "m1: expected race, got verified" in text
    assert "m2: recorded as verified without a reason" in text
    assert "m3" not in text
    assert "gone: recorded but no longer generated" in text
    assert "new: not recorded" in text
    assert M.compare({k: v for k, v in rec.items() if k[1] == "m3"}, {("a.cl", "m3"): ("verified", "")}) == []


def test_record_keeps_reasons_and_other_kernels(tmp_path):
    old = {("a.cl", "m1"): M.Record("a.cl", "m1", "verified", "own cell only"),
           ("a.cl", "m2"): M.Record("a.cl", "m2", "race", "a.cl: error: race"),
           ("a.cl", "gone"): M.Record("a.cl", "gone", "race"),
           ("b.cl", "m1"): M.Record("b.cl", "m1", "verified", "kept as is")}
    results = {("a.cl", "m1"): ("verified", ""), ("a.cl", "m2"): ("verified", "")}
    p = tmp_path / "m.expected"
    M.record(old, results, p, only="a.cl", pending=False)
    new = M.read_records(p)
    assert set(new) == {("a.cl", "m1"), ("a.cl", "m2"), ("b.cl", "m1")}
    assert new[("a.cl", "m1")].reason == "own cell only"
    assert new[("a.cl", "m2")] == M.Record("a.cl", "m2", "verified", "")  # race -> verified: review again
    assert new[("b.cl", "m1")] == old[("b.cl", "m1")]


def test_record_file_round_trip(tmp_path):
    recs = [M.Record("corpus/opencl/a.cl", "del-barrier-1@3:1", "verified", "barrier redundant: x"),
            M.Record("corpus/opencl/a.cl", "shift-s-1@4:1", "race", "a.cl: error: possible write-read race")]
    p = tmp_path / "m.expected"
    M.write_records(recs, p)
    back = M.read_records(p)
    assert [back[(r.kernel, r.mutation)] for r in recs] == recs


def test_recorded_file_is_well_formed():
    recs = M.read_records()
    assert recs, "corpus/mutants.expected is missing or empty"
    for r in recs.values():
        assert r.outcome != "verified" or r.reason.strip(), r.line()


#: Kernels left out of the suite's subset: blelloch_scan's shift-temp-1 mutant (two writes
#: to one cell per thread) needs 10+ minutes under load, against seconds for the others.
SLOW_KERNELS = ("corpus/cuda/blelloch_scan.cu", "corpus/opencl/blelloch_scan.cl")


def suite_subset(mutants: list) -> list:
    """The first ``del-barrier`` and the first ``shift`` mutant of each kernel, in
    generation order, except the kernels of ``SLOW_KERNELS``."""
    seen, out = set(), []
    for m in mutants:
        key = (m.kernel, m.mutation.split("-")[0])
        if m.kernel not in SLOW_KERNELS and key not in seen:
            seen.add(key)
            out.append(m)
    return out


def test_record_covers_exactly_the_generated_mutants():
    generated = {(m.kernel, m.mutation) for m in M.all_mutants()}
    recorded = set(M.read_records())
    assert not generated - recorded, f"not recorded (run `python tests/mutants.py record`): {sorted(generated - recorded)}"
    assert not recorded - generated, f"recorded but no longer generated: {sorted(recorded - generated)}"


def test_suite_subset_is_representative():
    mutants = M.all_mutants()
    sub = suite_subset(mutants)
    records = M.read_records()
    assert {m.kernel for m in sub} == {m.kernel for m in mutants} - set(SLOW_KERNELS)
    outcomes = {records[(m.kernel, m.mutation)].outcome for m in sub}
    assert {"race", "verified"} <= outcomes
    assert all(k in {m.kernel for m in mutants} for k in SLOW_KERNELS), "stale SLOW_KERNELS entry"


@pytest.mark.slow
def test_mutants_match_record():
    """The suite's subset of mutants (all with GPUVERIFY_ALL_MUTANTS=1) has its recorded
    outcome: no race mutant verifies, no harmless one is reported."""
    mutants = M.all_mutants()
    if os.environ.get("GPUVERIFY_ALL_MUTANTS") != "1":
        mutants = suite_subset(mutants)
    keys = {(m.kernel, m.mutation) for m in mutants}
    records = {k: r for k, r in M.read_records().items() if k in keys}
    results = M.run_all(mutants, jobs=2, timeout=M.DEFAULT_TIMEOUT)
    problems = M.compare(records, results)
    assert not problems, M.summary(results) + "\n" + "\n".join(problems)
