"""The external suites as a summary table (``make conformance``).

Runs ``gpuverify-test`` on each suite directory given (GPUVerify's test suite and the
benchmarks of its evaluation: test data, not part of the product, and not used by ``make
test``), reads its per-kernel lines (``STATUS path (expected, 1.2s)[: why]``) and prints,
per suite: kernels, passed, missed (expected to fail, verified: the soundness count),
false alarms, errors, timeouts, other failures, and the median and 95th percentile of the
time per kernel.  Failing kernels listed in ``tests/conformance/disagreements.txt`` (where
our verdict differs from GPUVerify's expectation on purpose, each with its reason) are
counted in the column ``listed``; ``--failures`` prints every other failing kernel.

    python tests/conformance.py DIR... [-j N] [--timeout S] [--failures]

Exit status 1 when a suite has a missed kernel, else 0.
"""
from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
DISAGREEMENTS = HERE / "conformance" / "disagreements.txt"
_LINE = re.compile(r"^(PASS|FAIL|KNOWN GAP|UNEXPECTED PASS)\s+(\S+) \((\S+), ([\d.]+)s\)(?:: (.*))?$")
# gpuverify-test's summary categories (vcgen.testsuite.Verdict labels)
_COUNTS = ("missed", "false alarms", "errors", "timeouts", "wrong output", "other mismatches", "bad headers")


@dataclass
class Suite:
    """What ``gpuverify-test`` said about one directory."""
    name: str
    times: list[float] = field(default_factory=list)
    passed: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    failing: list[tuple[str, str]] = field(default_factory=list)  # (path relative to the suite, why)

    def percentile(self, q: float) -> float:
        if not self.times:
            return 0.0
        ts = sorted(self.times)
        return ts[min(len(ts) - 1, int(round(q * (len(ts) - 1))))]


def read_disagreements(path: Path = DISAGREEMENTS) -> dict[str, str]:
    """``{suite/relative/path: reason}`` from the disagreements file (``PATH: reason`` lines;
    ``#`` comments and blank lines skipped)."""
    out: dict[str, str] = {}
    if not path.exists():
        return out
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        kernel, _, reason = line.partition(": ")
        out[kernel.strip()] = reason.strip()
    return out


def run_suite(directory: Path, jobs: int, timeout: float, runner: str) -> Suite:
    """Run ``gpuverify-test`` on ``directory`` (from inside it, so paths are relative)."""
    proc = subprocess.run([runner, "-j", str(jobs), "--timeout", str(timeout), "."], cwd=directory,
                          capture_output=True, text=True)
    suite = Suite(directory.name)
    for line in proc.stdout.splitlines():
        m = _LINE.match(line)
        if m:
            status, path, _, secs, why = m.groups()
            suite.times.append(float(secs))
            if status == "PASS":
                suite.passed += 1
            elif status != "KNOWN GAP":
                suite.failing.append((path, why or ""))
            continue
        label, sep, n = line.partition(": ")
        if sep and label in _COUNTS and n.isdigit():
            suite.counts[label] = int(n)
    if not suite.times:
        sys.exit(f"conformance: gpuverify-test printed no results for {directory}:\n{proc.stdout}{proc.stderr}")
    return suite


def table(suites: list[Suite], listed: dict[str, str]) -> list[str]:
    cols = ("kernels", "passed", "missed", "false alarms", "errors", "timeouts", "other", "listed",
            "median s", "p95 s")
    rows = [("suite",) + cols]
    for s in suites:
        other = sum(s.counts.get(k, 0) for k in ("wrong output", "other mismatches", "bad headers"))
        n_listed = sum(1 for p, _ in s.failing if f"{s.name}/{p}" in listed)
        rows.append((s.name, str(len(s.times)), str(s.passed), str(s.counts.get("missed", 0)),
                     str(s.counts.get("false alarms", 0)), str(s.counts.get("errors", 0)),
                     str(s.counts.get("timeouts", 0)), str(other), str(n_listed),
                     f"{statistics.median(s.times):.1f}", f"{s.percentile(0.95):.1f}"))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths))) for r in rows]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dirs", nargs="+", type=Path)
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--runner", default=str(Path(sys.executable).with_name("gpuverify-test")))
    ap.add_argument("--failures", action="store_true", help="list failing kernels not in the disagreements")
    a = ap.parse_args(argv)
    listed = read_disagreements()
    suites = []
    for d in a.dirs:
        if not d.is_dir():
            sys.exit(f"conformance: no such directory: {d} (set CONFORMANCE=DIR)")
        suites.append(run_suite(d.resolve(), a.jobs, a.timeout, a.runner))
    print("\n".join(table(suites, listed)))
    if a.failures:
        for s in suites:
            for p, why in s.failing:
                if f"{s.name}/{p}" not in listed:
                    print(f"{s.name}/{p}: {why}")
    return 1 if any(s.counts.get("missed", 0) for s in suites) else 0


if __name__ == "__main__":
    sys.exit(main())
