"""Ticket counters (DESIGN.md 5.9, vcgen/twothread/tickets.py): an array whose atomics all
add (or all subtract) a positive constant on one element hands out distinct values,
so ``out[atomic_inc(count)] = v`` does not race; anything else keeps atomics arbitrary."""
from __future__ import annotations

import pytest

from bugle.cc import compile_kernel
from bugle.translate import translate_ir
from vcgen.twothread.options import LaunchConfig, LockstepOptions
from vcgen.twothread.transform import Lockstep


def tickets(tmp_path, body: str) -> set:
    k = tmp_path / "k.cl"
    k.write_text("__kernel void k(__global int *out, __global uint *c, __global uint *d) {\n"
                 "  size_t g = get_global_id(0);\n" + body + "\n}\n")
    from vcgen.analysis.abstraction import choose_abstraction
    prog = choose_abstraction(translate_ir(compile_kernel(str(k))))
    ls = Lockstep(prog, LockstepOptions(launch=LaunchConfig((64, 1, 1), (2, 1, 1))))
    return {n[2:] for n in ls.info.ticket_arrays}


@pytest.mark.parametrize("body, expected", [
    ("out[atomic_inc(c)] = 1;", {"c"}),
    ("out[atomic_add(c, 4)] = 1; out[atomic_inc(c)] = 2;", {"c"}),  # one direction, one element
    ("out[atomic_dec(c)] = 1; out[atomic_sub(d, 2)] = 1;", {"c", "d"}),
    ("out[atomic_add(c, (uint)-1)] = 1;", {"c"}),                 # adds -1: counts down
    ("out[atomic_inc(c)] = 1; atomic_dec(c);", set()),            # both directions
    ("out[atomic_inc(c)] = 1; out[0] = c[0];", {"c"}),            # a plain read (race-checked)
    ("c[0] = 0; out[atomic_inc(c)] = 1;", {"c"}),                  # a plain reset (race-checked)
    ("out[atomic_inc(c)] = 1; atomic_inc(c + 1);", set()),        # two elements
    ("out[atomic_add(c, g)] = 1;", set()),                        # not a constant step
    ("out[atomic_add(c, 0)] = 1;", set()),                        # no step at all
    ("out[atomic_xchg(c, 5)] = 1;", set()),
])
def test_ticket_arrays(tmp_path, body, expected):
    assert tickets(tmp_path, body) == expected


def run(tmp_path, src: str, *flags: str) -> tuple:
    import subprocess
    import sys
    from pathlib import Path
    k = tmp_path / "k.cl"
    k.write_text(src)
    p = subprocess.run([sys.executable, "-m", "vcgen.driver", "--local_size=64", "--num_groups=4", *flags, str(k)],
                       capture_output=True, text=True, cwd=Path(__file__).resolve().parent.parent, timeout=600)
    return p.returncode, p.stdout + p.stderr


LOCAL_COUNTER = """__kernel void k(__local uint *c, __global uint *out) {
  out[atomic_inc(c)] = get_global_id(0);
}"""


def test_group_shared_counter_is_one_counter_per_group(tmp_path):
    """Every group has its own __local counter: tickets are distinct within a group only
    (GPUVerify's refined_atomic_abstraction/bad_local_counters)."""
    code, out = run(tmp_path, LOCAL_COUNTER)
    assert code == 6 and "write-write race on out" in out, out
    code, out = run(tmp_path, LOCAL_COUNTER, "--only-intra-group")
    assert code == 0, out
    code, out = run(tmp_path, LOCAL_COUNTER.replace("__local uint *c", "__global uint *c"))
    assert code == 0, out


RESET = """__kernel void k(__local uint *buf, __local uint *buf2) {
  __local uint count;
  if (get_local_id(0) == 0) count = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  buf[atomic_inc(&count)] = get_local_id(0);
  SECOND
}"""


@pytest.mark.parametrize("second, code, why", [
    ("", 0, None),                                    # reset, barrier, tickets: race-free
    # a second round after a reset: its tickets repeat the first round's, so a work item's
    # first ticket and another's second one may be equal (the barriers forget the tickets)
    ("uint a = atomic_inc(&count); barrier(CLK_LOCAL_MEM_FENCE); if (get_local_id(0) == 0) count = 0;"
     " barrier(CLK_LOCAL_MEM_FENCE); uint b = atomic_inc(&count); buf2[a] = 1; buf2[b] = 2;", 6,
     "write-write race on buf2"),
    # a reset without a barrier races with the other work items' increments
    ("if (get_local_id(0) == 0) count = 0;", 6, "race on count"),
])
def test_counter_reset_by_a_plain_write(tmp_path, second, code, why):
    got, out = run(tmp_path, RESET.replace("SECOND", second))
    assert got == code, out
    assert why is None or why in out, out
