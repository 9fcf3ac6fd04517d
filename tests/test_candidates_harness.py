"""Shared helpers of the candidate-rule tests (``tests/test_candidates_*.py``) and a check
of the helpers themselves.

``check_essential(kernel, rules)``: the kernel under ``tests/kernels/candidates`` verifies
with every rule, the given rules proved some candidate, and it does *not* verify with
those rules' candidates dropped (``--disable-rule``, paper 003 section 4.3.4 "worth").
``candidates(kernel)``: ``(rule, expression text)`` of the candidates the lock-step
transformation generates, for shape checks.
"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from vcgen import il
from vcgen.il.printer import expr_str
from vcgen.testsuite import parse_header

ROOT = Path(__file__).resolve().parent.parent
KERNELS = Path(__file__).resolve().parent / "kernels" / "candidates"
RULE_LINE = re.compile(r"^\s+(\S+): generated (\d+), proved (\d+)", re.M)
VERIFIED, NOT_VERIFIED = 0, 6


def run(kernel: str, disable: tuple = ()) -> tuple:
    """(exit code, {rule: (generated, proved)}) of the driver on a test kernel."""
    path = KERNELS / kernel
    cmd = [sys.executable, "-m", "vcgen.driver", *parse_header(path).flags, "--infer-info",
           *(f"--disable-rule={r}" for r in disable), str(path)]
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=600)
    rules = {m[1]: (int(m[2]), int(m[3])) for m in RULE_LINE.finditer(p.stdout)}
    return p.returncode, rules


def check_essential(kernel: str, rules: tuple) -> dict:
    """Assert ``rules`` are essential for ``kernel``; returns the per-rule stats of the full run."""
    code, stats = run(kernel)
    assert code == VERIFIED, f"{kernel} should verify with all rules: {stats}"
    assert any(stats.get(r, (0, 0))[1] for r in rules), f"{kernel}: no candidate of {rules} proved: {stats}"
    code, without = run(kernel, rules)
    assert code == NOT_VERIFIED, f"{kernel} should not verify without {rules}: {without}"
    assert not any(r in without for r in rules)
    return stats


def candidates(kernel: str) -> list:
    """(rule, candidate expression text) at every loop head of the two-thread program."""
    from bugle.cc import compile_kernel
    from bugle.translate import translate_ir
    from vcgen.analysis.abstraction import choose_abstraction
    from vcgen.stages import lockstep_options
    from vcgen.twothread.transform import lockstep

    path = KERNELS / kernel
    flags = parse_header(path).flags
    opt = dict(f.lstrip("-").split("=", 1) for f in flags if "=" in f)
    lang = "cuda" if path.suffix == ".cu" else "opencl"
    prog = translate_ir(compile_kernel(str(path), language=lang, defines=(), includes=(), spir64=False),
                        None, str(path))
    lopts = lockstep_options({"local_size": opt.get("local_size"), "num_groups": opt.get("num_groups"),
                              "block_dim": opt.get("blockDim"), "grid_dim": opt.get("gridDim"),
                              "warp_sync": int(opt["warp-sync"]) if "warp-sync" in opt else None})
    out = lockstep(choose_abstraction(prog, None), lopts)
    return [(il.attr(c.attrs, "candidate").args[0], expr_str(c.expr.right))
            for b in out.kernel().blocks for c in b.cmds
            if isinstance(c, il.Assert) and il.has_attr(c.attrs, "candidate")]


def mutant_exit(kernel: str, old: str, new: str, tmp_path: Path) -> int:
    """Exit code of the driver on ``kernel`` with ``old`` replaced by ``new`` in its source,
    run with the kernel's header flags (a buggy variant must still be reported: 6)."""
    from vcgen import driver
    path = KERNELS / kernel
    src = path.read_text()
    assert old in src, f"{old!r} not in {kernel}"
    mutant = tmp_path / path.name
    mutant.write_text(src.replace(old, new))
    try:
        driver.main([*parse_header(path).flags, str(mutant)])
    except SystemExit as e:
        return int(e.code or 0)
    return 0


def rules_of(kernel: str) -> set:
    return {r for r, _ in candidates(kernel)}


def test_harness_sees_generated_and_proved_candidates():
    code, stats = run("id_own_element.cl")
    assert code == VERIFIED and stats["id"] == (1, 1)
    assert ("id", "_WRITE_HAS_OCCURRED_$$a ==> (_WRITE_OFFSET_$$a == local_id_x$1)") in candidates("id_own_element.cl")
