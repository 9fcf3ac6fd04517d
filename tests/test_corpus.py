"""The kernel corpus: header sanity checks, and every kernel run under the verifier.

The verifier runs (``test_kernel``) are skipped while ``vcgen/driver.py`` does not
exist. Per-kernel timeout: ``GPUVERIFY_TEST_TIMEOUT`` seconds (default 300).
"""
from __future__ import annotations

import importlib.util
import os
import re
from pathlib import Path

import pytest

from vcgen.il.errors import ExitCode
from vcgen.testsuite import Status, collect_kernels, parse_header, run_kernel

CORPUS = Path(__file__).resolve().parent.parent / "corpus"
KERNELS = collect_kernels([CORPUS / "opencl", CORPUS / "cuda"])
IDS = [str(k.relative_to(CORPUS)) for k in KERNELS]
TIMEOUT = float(os.environ.get("GPUVERIFY_TEST_TIMEOUT", "300"))


def _is_bug(path: Path) -> bool:
    return "_bug_" in path.stem


def test_corpus_size():
    cl = [k for k in KERNELS if k.suffix == ".cl"]
    cu = [k for k in KERNELS if k.suffix == ".cu"]
    assert len(cl) >= 24 and len(cu) >= 24
    assert sum(map(_is_bug, KERNELS)) >= 24


@pytest.mark.parametrize("path", [k for k in KERNELS if _is_bug(k)],
                         ids=[i for i, k in zip(IDS, KERNELS) if _is_bug(k)])
def test_bug_beside_correct_version(path):
    correct = path.with_name(path.stem.split("_bug_")[0] + path.suffix)
    assert correct.exists(), f"{path.name} has no correct version {correct.name}"
    assert parse_header(correct).expected is ExitCode.SUCCESS
    assert parse_header(path).expected is not ExitCode.SUCCESS


@pytest.mark.parametrize("path", KERNELS, ids=IDS)
def test_header(path):
    """Launch flags match the language (a CUDA program without size flags must launch its
    kernels itself: its sizes are read from the host code); source lines named in patterns
    exist and hold code."""
    header = parse_header(path)
    flags = " ".join(header.flags)
    if path.suffix == ".cl":
        assert "--local_size=" in flags and "--num_groups=" in flags
    elif "--blockDim=" not in flags and "--gridDim=" not in flags:
        assert "<<<" in path.read_text() and "--local_size" not in flags and "--num_groups" not in flags, \
            "a CUDA kernel without --blockDim/--gridDim must be a program launching its kernels (<<<...>>>)"
    else:
        assert "--blockDim=" in flags and "--gridDim=" in flags
    if not _is_bug(path):
        assert header.expected in (ExitCode.SUCCESS, ExitCode.BUGLE_ERROR)
    lines = path.read_text().splitlines()
    for pattern in header.patterns:
        for ref in re.finditer(re.escape(path.name).replace(r"\.", r"\\?\.") + r":(\d+):",
                               pattern.pattern):
            number = int(ref.group(1))
            assert 1 <= number <= len(lines), f"{pattern.pattern}: no line {number}"
            code = lines[number - 1].strip()
            assert code and not code.startswith("//"), \
                f"{pattern.pattern}: line {number} is not code: {code!r}"


_DRIVER_MISSING = importlib.util.find_spec("vcgen.driver") is None


@pytest.mark.skipif(_DRIVER_MISSING, reason="vcgen/driver.py (gpuverify) not written yet")
@pytest.mark.parametrize("path", KERNELS, ids=IDS)
def test_kernel(path):
    outcome = run_kernel(path, timeout=TIMEOUT)
    status = outcome.status
    if status is Status.KNOWN_GAP:
        pytest.xfail(f"known gap: {outcome.header.known_gap} ({outcome.explain()})")
    if status is Status.UNEXPECTED_PASS:
        pytest.fail(f"known gap passes now, remove the //known_gap line: {outcome.explain()}")
    assert status is Status.PASS, f"{outcome.explain()}\n--- output ---\n{outcome.output}"


def _clang():
    try:
        from bugle import cc
    except ImportError:
        return None
    return cc if hasattr(cc, "run_clang") and hasattr(cc, "language_of") else None


@pytest.mark.skipif(_clang() is None, reason="bugle/cc.py (clang driver) not available")
@pytest.mark.parametrize("path", KERNELS, ids=IDS)
def test_compiles_with_our_headers(path):
    """Every corpus kernel is valid OpenCL/CUDA for clang with bugle's headers."""
    cc = _clang()
    opts = [f.split("=", 1)[1] for f in parse_header(path).flags if f.startswith("--clang-opt=")]
    ir = cc.run_clang(str(path), cc.language_of(str(path)), clang_opts=opts)
    assert "define " in ir
