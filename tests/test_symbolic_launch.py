"""Symbolic launch sizes (issue 13, ``vcgen/twothread/launch.py``, docs/design.md 5.1):
parsing ``*``, the launch space (at least one work item, device limits, ``__requires``),
one-thread launches among the symbolic ones, and the sizes a report gives."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from vcgen.il.errors import ToolError
from vcgen.twothread.launch import launch_config, parse_dims

ROOT = Path(__file__).resolve().parent.parent
VERIFIED, NOT_VERIFIED = 0, 6


def verify(tmp_path: Path, name: str, src: str, *flags: str) -> tuple:
    k = tmp_path / name
    k.write_text(src)
    p = subprocess.run([sys.executable, "-m", "vcgen.driver", *flags, str(k)], capture_output=True, text=True,
                       cwd=ROOT, timeout=600)
    return p.returncode, p.stdout + p.stderr


def test_parse_star():
    assert parse_dims("--blockDim", "*") == (None, 1, 1)
    assert parse_dims("--blockDim", "[*, 16]") == (None, 16, 1)
    assert parse_dims("--blockDim", "[8,*,*]") == (8, None, None)


def test_launch_config_symbolic():
    lc = launch_config(local_size="*", global_size="1024")
    assert lc.local_size == (None, 1, 1) and lc.num_groups == (None, 1, 1) and lc.global_size == (1024, 1, 1)
    lc = launch_config(local_size="64", global_size="*")
    assert lc.num_groups == (None, 1, 1) and lc.global_size is None
    assert launch_config().unspecified and launch_config().local_size == (None, None, None)
    with pytest.raises(ToolError):
        launch_config(block_dim="*")  # one of the two sizes alone


ONE_THREAD_ASSERT = """__global__ void k(int *out) {
  if (blockDim.x * gridDim.x == 1)
    __assert(out[0] == 7);
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}"""


def test_one_thread_launch_is_among_symbolic(tmp_path):
    """An assertion reachable only in a launch of one thread still fails with symbolic
    sizes (the distinctness axiom does not exclude that launch)."""
    code, out = verify(tmp_path, "k.cu", ONE_THREAD_ASSERT, "--blockDim=*", "--gridDim=*")
    assert code == NOT_VERIFIED and "this assertion might not hold" in out, out
    assert "Launch with blockDim = (1, 1, 1), gridDim = (1, 1, 1)" in out, out


def test_device_limit_on_block_size(tmp_path):
    """At most 1024 threads per block: an assertion that holds only up to that limit verifies,
    one past it does not."""
    src = "__global__ void k(int *out) {{ __assert(blockDim.x <= {n}); out[threadIdx.x] = 0; }}"
    assert verify(tmp_path, "a.cu", src.format(n=1024), "--blockDim=*", "--gridDim=1")[0] == VERIFIED
    code, out = verify(tmp_path, "b.cu", src.format(n=1023), "--blockDim=*", "--gridDim=1")
    assert code == NOT_VERIFIED and "Launch with blockDim = (1024, 1, 1)" in out, out


def test_global_size_fixes_the_product(tmp_path):
    """``--global_size=256 --local_size=*``: the counterexample's sizes multiply to 256."""
    src = "__kernel void k(__global int *A) { A[get_local_id(0)] = get_group_id(0); }"
    code, out = verify(tmp_path, "k.cl", src, "--global_size=256", "--local_size=*")
    m = re.search(r"Launch with local_size = \((\d+), 1, 1\), num_groups = \((\d+), 1, 1\)", out)
    assert code == NOT_VERIFIED and m and int(m.group(1)) * int(m.group(2)) == 256, out


def test_requires_restricts_sizes(tmp_path):
    """A race that needs more than one group disappears under ``__requires`` of one group,
    and no size at all means every size is symbolic, said in the report."""
    src = "__kernel void k(__global int *A) {{ {req} A[get_local_id(0)] = get_group_id(0); }}"
    assert verify(tmp_path, "a.cl", src.format(req="__requires(get_num_groups(0) == 1);"),
                  "--local_size=*", "--num_groups=*")[0] == VERIFIED
    code, out = verify(tmp_path, "b.cl", src.format(req=""))
    assert code == NOT_VERIFIED and "no launch size was given" in out, out
    code, out = verify(tmp_path, "c.cl", src.format(
        req="__requires(get_num_groups(0) == 1 && get_num_groups(1) == 1 && get_num_groups(2) == 1 "
            "&& get_local_size(1) == 1 && get_local_size(2) == 1);"))
    assert code == VERIFIED and "for every launch with local_size = (*, *, *)" in out, out
