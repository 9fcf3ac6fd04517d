"""Reported races really collide: recompute both accesses' indices from the reported ids.

For buggy corpus kernels with simple index expressions, run ``gpuverify --json`` and,
for every race in the report, evaluate in Python the index expressions of both source
lines (written below per kernel, transcribed from the kernel source) with the reported
local and group ids: the element the report names must be an element each thread
accesses there.  Also checks the ids are in range, global ids agree with
``group * size + local``, and the two threads are different threads.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from header_flags import stage_flags
from vcgen.testsuite import parse_header

REPO = Path(__file__).resolve().parent.parent


def _u32(v: int) -> int:
    return v % 2 ** 32


# kernel -> (array source name, {source line: f(local, group, size) -> set of indices
# of that array the line accesses}), ``local``/``group``/``size`` are (x, y, z) tuples.
KERNELS = {
    "corpus/opencl/interleave_bug_offbyone.cl": ("out", {
        12: lambda l, g, s: {2 * (g[0] * s[0] + l[0])},
        13: lambda l, g, s: {2 * (g[0] * s[0] + l[0]) + 2},
    }),
    "corpus/opencl/vector_add_bug_intergroup.cl": ("c", {
        11: lambda l, g, s: {l[0]},
    }),
    "corpus/opencl/stencil1d_bug_nobarrier.cl": ("tile", {
        16: lambda l, g, s: {l[0] + 1},
        18: lambda l, g, s: {0} if l[0] == 0 else set(),
        20: lambda l, g, s: {65} if l[0] == 63 else set(),
        21: lambda l, g, s: {l[0], l[0] + 1, l[0] + 2},
    }),
    "corpus/cuda/interleave_bug_offbyone.cu": ("buf", {
        13: lambda l, g, s: {2 * l[0]},
        14: lambda l, g, s: {2 * l[0] + 2},
        16: lambda l, g, s: {l[0]},
        17: lambda l, g, s: {l[0] + 128},
    }),
    "corpus/cuda/vector_add_bug_intergroup.cu": ("c", {
        10: lambda l, g, s: {l[0]},
    }),
    "corpus/cuda/produce_consume_bug_intergroup.cu": ("scratch", {
        12: lambda l, g, s: {l[0]} if g[0] == 0 else set(),
        15: lambda l, g, s: {_u32(127 - l[0])} if g[0] == 1 else set(),
    }),
    "corpus/cuda/copy3d_bug_blockoffset.cu": ("out", {
        17: lambda l, g, s: {((g[2] + l[2] + 1) * (16 + 2) + g[1] * s[1] + l[1] + 1) * (16 + 2)
                             + g[0] * s[0] + l[0] + 1},
    }),
}

ELEMENT = re.compile(r"^(\w+)\[(\d+)\]$")


def launch_sizes(flags: list) -> tuple:
    """(local size, number of groups) as (x, y, z) tuples from the header's flags."""
    vals = {}
    for f in flags:
        name, _, v = f.partition("=")
        dims = [int(x) for x in v.strip("[]").split(",")] if v else []
        vals[name] = tuple(dims + [1] * (3 - len(dims)))
    local = vals.get("--local_size") or vals["--blockDim"]
    groups = vals.get("--num_groups") or vals["--gridDim"]
    return local, groups


def check_thread(t: dict, size: tuple, groups: tuple) -> tuple:
    local, group = tuple(t["local_id"]), tuple(t["group_id"])
    assert all(0 <= a < b for a, b in zip(local, size)), (local, size)
    assert all(0 <= a < b for a, b in zip(group, groups)), (group, groups)
    assert tuple(t["global_id"]) == tuple(g * s + l for g, s, l in zip(group, size, local))
    return local, group


@pytest.mark.parametrize("kernel", sorted(KERNELS))
def test_reported_race_ids_collide(kernel):
    array, lines = KERNELS[kernel]
    flags = stage_flags("all", parse_header(REPO / kernel).flags)
    size, groups = launch_sizes(flags)
    p = subprocess.run([sys.executable, "-m", "vcgen.driver", *flags, "--json", kernel], cwd=REPO,
                       env=dict(os.environ, PYTHONPATH=str(REPO)), capture_output=True, text=True,
                       timeout=600)
    assert p.returncode == 6, p.stdout + p.stderr
    report = json.loads(p.stdout)
    races = [e for e in report["errors"] if e["kind"] == "race"]
    assert races, report
    for e in races:
        m = ELEMENT.match(e["element"])
        assert m and m.group(1) == array, e["element"]
        index = int(m.group(2))
        ids = []
        for loc, thread in ((e["location"], e["thread"]), (e["other_location"], e["other_thread"])):
            assert loc["line"] in lines, f"race at unexpected line {loc['line']}: {e}"
            local, group = check_thread(thread, size, groups)
            accessed = lines[loc["line"]](local, group, size)
            assert index in accessed, (f"{kernel}: thread local {local} group {group} at line {loc['line']} "
                                       f"accesses {sorted(accessed)}, report says {e['element']}")
            ids.append((local, group))
        assert ids[0] != ids[1], f"the two threads of a race must differ: {ids}"
        assert {e["thread"]["thread"], e["other_thread"]["thread"]} == {1, 2}
        assert "write" in e["race"]
