"""Barrier / index mutants of the correct corpus kernels (tests/mutants.py).

The slow test re-runs every mutant and compares with ``corpus/mutants.expected``; the fast
tests check the mutant generator and the record checker on small inputs.
"""
from __future__ import annotations

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


@pytest.mark.slow
def test_mutants_match_record():
    """Every mutant of every correct corpus kernel has its recorded outcome (minutes)."""
    mutants = M.all_mutants()
    results = M.run_all(mutants, jobs=2, timeout=M.DEFAULT_TIMEOUT)
    problems = M.compare(M.read_records(), results)
    assert not problems, M.summary(results) + "\n" + "\n".join(problems)
