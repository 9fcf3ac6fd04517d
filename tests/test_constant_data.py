"""Initialisers of immutable arrays are facts (issue 12; bugle.translate._initializer_facts):
an OpenCL ``__constant`` table with an initialiser is known, a CUDA ``__constant__`` array
(which the host may overwrite with cudaMemcpyToSymbol) is not."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

PERM_CL = """__constant int perm[8] = {PERM};
__kernel void k(__global int *out) {
  out[perm[get_local_id(0)]] = get_local_id(0);
}
"""

PERM_CU = """__constant__ int perm[8] = {0, 1, 2, 3, 4, 5, 6, 7};
__global__ void k(int *out) {
  out[perm[threadIdx.x]] = threadIdx.x;
}
"""


def run(tmp_path: Path, name: str, text: str, *flags: str) -> subprocess.CompletedProcess:
    f = tmp_path / name
    f.write_text(text)
    return subprocess.run([sys.executable, "-m", "vcgen.driver", *flags, str(f)], capture_output=True,
                          text=True, cwd=ROOT, timeout=600)


@pytest.mark.parametrize("perm, code", [("7, 6, 5, 4, 3, 2, 1, 0", 0), ("0, 1, 2, 3, 4, 5, 1, 7", 6)])
def test_opencl_constant_table_is_known(tmp_path, perm, code):
    """A permutation table indexes distinct cells; a table with a repeated entry races."""
    r = run(tmp_path, "k.cl", PERM_CL.replace("PERM", perm), "--local_size=8", "--num_groups=1")
    assert r.returncode == code, r.stdout + r.stderr
    assert code == 0 or "write-write race on out[1]" in r.stdout


def test_cuda_constant_array_may_be_overwritten_by_the_host(tmp_path):
    r = run(tmp_path, "k.cu", PERM_CU, "--blockDim=8", "--gridDim=1")
    assert r.returncode == 6, r.stdout + r.stderr
