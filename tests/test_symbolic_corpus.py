"""The corpus with symbolic launch sizes (issue 13, ``tests/symbolic_sizes.py``): every
launch-flag number of a kernel's header replaced by ``*``.  Correct kernels must verify for
every size (a kernel that depends on a property of its sizes states it with ``__requires``),
buggy kernels must still fail, their race reports naming the sizes of the counterexample.

``test_symbolic_corpus`` runs the whole corpus, CUDA and OpenCL (marked ``slow``: ``make
test-all``); ``test_symbolic_sample`` runs a few kernels of each kind in ``make test``.
``PENDING`` lists the kernels that do not meet the expectations with symbolic sizes yet
(correct ones that do not verify, buggy ones not reported within the time limit), and
why: each must still miss them, so a fixed one is taken off the list.
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
PENDING_TIMEOUT = 60.0

PENDING: dict[str, str] = {}
SAMPLE = ("cuda/vector_add.cu", "cuda/vector_add_bug_intergroup.cu", "cuda/warp_partials.cu",
          "cuda/bitonic_step_bug_partner.cu", "cuda/block_normalize.cu", "cuda/block_normalize_bug_grid.cu",
          "opencl/final_reduce.cl", "opencl/large_grid.cl", "opencl/large_grid_bug_wrap.cl",
          "opencl/annot_pointers.cl",
          # out[gid * stride]: the products' cancellation lemma (vcgen.twothread.products)
          "opencl/strided_copy.cl", "opencl/strided_copy_bug_overflow.cl", "cuda/strided_copy.cu",
          # (offset / 4) % width == col of r * width + col: the remainder lemmas (products.RemainderLemmas)
          "opencl/annot_function_wide.cl", "opencl/annot_function_wide_bug_neighbour.cl",
          # the OpenCL half: the address-space bound (4- and 16-byte elements, a uchar buffer
          # written as uint, a 3-D launch), the global-id lemmas, kernels stating their sizes
          "opencl/annot_loop_log.cl", "opencl/extern_helper_private.cl", "opencl/bytes_subword.cl",
          "opencl/annot_global_assert.cl", "opencl/copy3d.cl", "opencl/copy3d_bug_plane.cl",
          "opencl/reduce.cl", "opencl/reduce_bug_nobarrier.cl", "opencl/stencil1d.cl",
          "opencl/segment_counts.cl", "opencl/segment_counts_bug_partial.cl",
          # async copies: group-coordinates lemma, group-uniform arguments, groups of one
          "opencl/async_copy_tile.cl", "opencl/async_copy_tile_bug_nowait.cl",
          # 5 * gid + k in 32 bits: the case refuter's global-id abstraction (vcgen.vc.global_ids);
          # the buggy one's search for further errors bounded (checker.FURTHER_ERRORS_LIMIT)
          "opencl/struct_aos.cl", "opencl/struct_aos_bug_neighbour.cl",
          # y * get_global_size(0) + x: the grid lemma (products.grid_nowrap_lemma)
          "opencl/image_rows.cl", "opencl/image_rows_bug_localrow.cl")


def _check(path: Path) -> None:
    rel = str(path.relative_to(CORPUS))
    # a pending kernel gets the time its reason speaks of (60 s): one that meets the
    # expectations within it is off the list, one that needs longer is still pending
    r: Result = run(path, min(TIMEOUT, PENDING_TIMEOUT) if rel in PENDING else TIMEOUT)
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
