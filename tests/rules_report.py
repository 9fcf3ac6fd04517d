"""``make rules-report``: per candidate rule, over the corpus (paper 003 section 4.3).

    python tests/rules_report.py [--worth] [-j N] [--timeout S] [PATH...]

Runs every kernel under PATH (default: corpus) with its header flags and ``--infer-info``
and aggregates the per-rule lines (``rN: generated G, proved P[, refuted by engines R]``):

* generality (§4.3.2): kernels in which the rule generated candidates (count and fraction
  of all kernels run);
* hit rate (§4.3.3): proved / generated, summed over the corpus;
* refuted: candidates dropped by refutation engines rather than by Houdini itself;
* worth / essentiality (§4.3.4, ``--worth``): kernels that verify with all rules but not
  with the rule disabled (``--disable-rule=rN``); only rules that proved something in
  the kernel are tried (a rule proving nothing cannot be essential).

Kernels the driver cannot run (tool errors) are listed and left out of the table.
"""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from vcgen.inference.houdini import _rule_key  # noqa: E402
from vcgen.testsuite import collect_kernels, parse_header  # noqa: E402

RULE_LINE = re.compile(r"^\s+(\S+): generated (\d+), proved (\d+)(?:, refuted by engines (\d+))?\s*$", re.M)
TOOL_ERRORS = {2, 3, 4, 5, 8, 9}  # clang/optimizer/bugle/vcgen errors, interrupted, configuration


@dataclass
class KernelRun:
    path: Path
    exit_code: int
    rules: dict = field(default_factory=dict)  # rule -> (generated, proved, refuted)
    output: str = ""


@dataclass
class RuleRow:
    kernels: int = 0
    generated: int = 0
    proved: int = 0
    refuted: int = 0
    tried: int = 0  # kernels where the rule was disabled (--worth)
    essential: int = 0


def run_kernel(path: Path, extra: tuple = (), timeout: float = 600) -> KernelRun:
    """The driver on ``path`` with its header flags, ``--infer-info`` and ``extra``."""
    cmd = [sys.executable, "-m", "vcgen.driver", *parse_header(path).flags, "--infer-info", *extra, str(path)]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=timeout)
    except subprocess.TimeoutExpired:
        return KernelRun(path, 7, output="timeout")
    rules = {m.group(1): (int(m.group(2)), int(m.group(3)), int(m.group(4) or 0))
             for m in RULE_LINE.finditer(p.stdout)}
    return KernelRun(path, p.returncode, rules, p.stdout + p.stderr)


def table(rows: dict, total: int, worth: bool) -> str:
    head = f"{'rule':6s} {'kernels':>8s} {'generality':>10s} {'generated':>9s} {'proved':>7s} " \
           f"{'hit rate':>8s} {'refuted':>8s}" + (f" {'essential':>10s}" if worth else "")
    lines = [head, "-" * len(head)]
    for rule in sorted(rows, key=_rule_key):
        r = rows[rule]
        hit = f"{100 * r.proved / r.generated:.0f}%" if r.generated else "-"
        line = f"{rule:6s} {r.kernels:8d} {100 * r.kernels / max(total, 1):9.0f}% {r.generated:9d} " \
               f"{r.proved:7d} {hit:>8s} {r.refuted:8d}"
        if worth:
            line += f" {r.essential:>4d} of {r.tried:<3d}"
        lines.append(line)
    g, p = sum(r.generated for r in rows.values()), sum(r.proved for r in rows.values())
    lines.append("-" * len(head))
    lines.append(f"{'all':6s} {'':8s} {'':10s} {g:9d} {p:7d} "
                 f"{(f'{100 * p / g:.0f}%' if g else '-'):>8s} {sum(r.refuted for r in rows.values()):8d}")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Per-rule candidate statistics over the corpus.")
    ap.add_argument("paths", nargs="*", default=[str(ROOT / "corpus")])
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--worth", action="store_true", help="also measure essentiality (slow)")
    ap.add_argument("--timeout", type=float, default=600, help="seconds per driver run")
    a = ap.parse_args(argv)
    kernels = collect_kernels(a.paths)
    with ThreadPoolExecutor(a.jobs) as pool:
        runs = list(pool.map(lambda k: run_kernel(k, timeout=a.timeout), kernels))
    ok = [r for r in runs if r.exit_code not in TOOL_ERRORS]
    rows: dict = {}
    for r in ok:
        for rule, (gen, proved, refuted) in r.rules.items():
            row = rows.setdefault(rule, RuleRow())
            row.kernels += gen > 0
            row.generated += gen
            row.proved += proved
            row.refuted += refuted
    if a.worth:
        jobs = [(r, rule) for r in ok if r.exit_code == 0 for rule, (_, p, _) in r.rules.items() if p]
        with ThreadPoolExecutor(a.jobs) as pool:
            outs = list(pool.map(lambda j: run_kernel(j[0].path, ("--disable-rule", j[1]), a.timeout), jobs))
        for (r, rule), out in zip(jobs, outs):
            rows[rule].tried += 1
            rows[rule].essential += out.exit_code != 0
    with_cands = sum(1 for r in ok if any(g for g, _, _ in r.rules.values()))
    print(f"{len(ok)} kernels run ({with_cands} with candidates, "
          f"{sum(r.exit_code == 0 for r in ok)} verified)")
    print(table(rows, len(ok), a.worth))
    for r in runs:
        if r.exit_code in TOOL_ERRORS:
            last = r.output.strip().splitlines()[-1:] or [""]
            print(f"not counted (exit {r.exit_code}): {r.path}: {last[0][:100]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
