"""The corpus with symbolic launch sizes (issue 13, ``tests/symbolic_sizes.py``): every
launch-flag number of a kernel's header replaced by ``*``.  Correct kernels must verify for
every size (a kernel that depends on a property of its sizes states it with ``__requires``),
buggy kernels must still fail, their race reports naming the sizes of the counterexample.

``test_symbolic_corpus`` runs the whole corpus (marked ``slow``: ``make test-all``);
``test_symbolic_sample`` runs a few kernels of each kind in ``make test``.  ``PENDING``
lists the correct kernels that do not verify with symbolic sizes yet, and why: each must
still fail, so a fixed one is taken off the list.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from symbolic_sizes import Result, run, symbolic_flags
from vcgen.testsuite import collect_kernels

CORPUS = Path(__file__).resolve().parent.parent / "corpus"
KERNELS = collect_kernels([CORPUS / "opencl", CORPUS / "cuda"])
TIMEOUT = float(os.environ.get("GPUVERIFY_TEST_TIMEOUT", "300"))

PENDING = {
    "cuda/grid_stride.cu": "with n and gridDim.x bounded, the queries on the symbolic stride "
                           "blockDim.x * gridDim.x (a product of two sizes) take over 300 s",
}
SAMPLE = ("cuda/vector_add.cu", "cuda/vector_add_bug_intergroup.cu", "cuda/warp_partials.cu",
          "cuda/bitonic_step_bug_partner.cu", "opencl/final_reduce.cl", "opencl/large_grid.cl",
          "opencl/large_grid_bug_wrap.cl", "opencl/annot_pointers.cl")


def _check(path: Path) -> None:
    rel = str(path.relative_to(CORPUS))
    r: Result = run(path, TIMEOUT)
    if rel in PENDING:
        assert r.problem is not None, f"{rel} meets the expectations now: take it off PENDING"
        pytest.xfail(f"{rel}: {PENDING[rel]}")
    assert r.problem is None, f"{rel}: {r.problem}\n--- output ---\n{r.output}"


def test_symbolic_flags():
    assert symbolic_flags(("--blockDim=[16,16]", "--gridDim=8", "-DN=4", "--local_size=64")) == \
        ("--blockDim=[*,*]", "--gridDim=*", "-DN=4", "--local_size=*")


@pytest.mark.parametrize("rel", SAMPLE)
def test_symbolic_sample(rel):
    _check(CORPUS / rel)


@pytest.mark.slow
@pytest.mark.parametrize("path", KERNELS, ids=[str(k.relative_to(CORPUS)) for k in KERNELS])
def test_symbolic_corpus(path):
    _check(path)
