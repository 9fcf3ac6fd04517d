"""Async work-group copies (OpenCL 1.2 6.12.10) and OpenCL 2.0 atomics, end to end:
bugle emits {:async_copy}/wait calls (docs/IL.md), lockstep gives them race semantics."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bugle.async_copy import gentype
from bugle.cc import compile_kernel
from bugle.irtext import FloatT, IntT
from bugle.translate import translate_ir
from vcgen import il
from vcgen.parser import parse_program
from vcgen.printer import program_str
from vcgen.typecheck import typecheck

GPUVERIFY = str(Path(sys.executable).with_name("gpuverify"))  # this environment's driver

TILE = """
__kernel void k(__global float *in, __global float *out, __local float *tile) {
  size_t n = get_local_size(0), lid = get_local_id(0);
  event_t a = async_work_group_copy(tile, in + get_group_id(0) * n, n, 0);
  BEFORE
  wait_group_events(1, &WAITED);
  out[get_global_id(0)] = tile[n - 1 - lid];
}
"""


def run(tmp_path: Path, text: str, *flags: str) -> subprocess.CompletedProcess:
    f = tmp_path / "k.cl"
    f.write_text(text)
    return subprocess.run([GPUVERIFY, str(f), "--local_size=16", "--num_groups=2", *flags],
                          capture_output=True, text=True, timeout=300)


def test_gentype_from_mangled_name():
    assert gentype("_Z21async_work_group_copyPU3AS3fPU3AS1Kfj9ocl_event") == (1, FloatT(32))
    assert gentype("_Z21async_work_group_copyPU3AS3Dv4_iPU3AS1KS_j9ocl_event") == (4, IntT(32))


def test_il_round_trips_and_typechecks(tmp_path):
    f = tmp_path / "k.cl"
    f.write_text(TILE.replace("BEFORE", "").replace("WAITED", "a"))
    p = translate_ir(compile_kernel(str(f)))
    assert parse_program(program_str(p)) == p
    typecheck(p)
    calls = [c for b in p.kernel().blocks for c in b.cmds if isinstance(c, il.Call)]
    assert [c.proc for c in calls] == ["$bugle_async_copy_bv32", "$bugle_wait_group_events"]
    assert il.attr(calls[0].attrs, "async_copy").args[:2] == ("$$tile", "$$in")


@pytest.mark.parametrize("before,waited,verdict", [
    ("", "a", 0),                                        # read after the wait
    ("barrier(CLK_LOCAL_MEM_FENCE);", "a", 0),
    ("float x = tile[lid]; out[0] = x;", "a", 6),        # read in flight
    ("in[get_global_id(0)] = 0;", "a", 6),               # src written in flight
    ("event_t b = async_work_group_copy(tile, in, n, 0);", "b", 6),  # waits the other copy only
])
def test_race_semantics(tmp_path, before, waited, verdict):
    r = run(tmp_path, TILE.replace("BEFORE", before).replace("WAITED", waited))
    assert r.returncode == verdict, r.stdout + r.stderr


def test_group_of_one_is_rejected(tmp_path):
    f = tmp_path / "k.cl"
    f.write_text(TILE.replace("BEFORE", "").replace("WAITED", "a"))
    r = subprocess.run([GPUVERIFY, str(f), "--local_size=1", "--num_groups=2"], capture_output=True, text=True)
    assert r.returncode == 5 and "one work item" in r.stdout + r.stderr


def test_opencl20_atomics_are_atomic_calls(tmp_path):
    f = tmp_path / "a.cl"
    f.write_text("""__kernel void k(__global atomic_int *c, __local atomic_uint *l) {
      atomic_fetch_add_explicit(c, 1, memory_order_relaxed, memory_scope_device);
      int e = 0; atomic_compare_exchange_strong(c + 1, &e, 2);
      atomic_fetch_max(l, 3u); atomic_init(c + 2, 0); }""")
    p = translate_ir(compile_kernel(str(f)))
    ops = [il.attr(c.attrs, "atomic").args for b in p.kernel().blocks for c in b.cmds
           if isinstance(c, il.Call) and il.has_attr(c.attrs, "atomic")]
    assert ops == [("$$c", "add"), ("$$c", "cmpxchg"), ("$$l", "umax")]
    writes = [c for b in p.kernel().blocks for c in b.cmds if isinstance(c, il.Assign)
              and isinstance(c.lhss[0], il.MapLhs) and c.lhss[0].name == "$$c"]
    assert len(writes) == 1  # atomic_init is a plain store
