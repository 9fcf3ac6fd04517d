"""``make bench``: run corpus kernels end to end; print per-phase times and their medians.

    python tests/bench.py [PATH...] [--FLAG...]   (default: corpus; files or directories)
    make bench KERNELS='corpus/opencl/reduce.cl corpus/cuda' BENCH_FLAGS=--solver=portfolio
    make bench BENCH_FLAGS=--symbolic        (every launch size of the headers made *: issue 13)
    make bench BENCH_FLAGS='--symbolic --timeout=20 --kernel-timeout=120'

Flags other than ``--symbolic`` and ``--kernel-timeout=SECONDS`` go to every driver run
(``--timeout=SECONDS`` is the driver's per-query solver limit).  ``--kernel-timeout``
caps the wall-clock time of one kernel's process (default 600 s): a kernel over it is
killed with its solver processes and shows exit 7 and no phase times.

One ``gpuverify --time`` process per kernel with its header flags.  Per kernel: the exit
code, the four phases the driver reports (``vcgen.pipeline.Timings``: front end = clang +
translate, lock-step = abstract + lockstep, Houdini, final check), their sum, and the
wall-clock time of the process (adds interpreter start-up and imports).  Then the median
and the total of every column.  Times are seconds.  Performance is measured here, never
asserted in tests.
"""
from __future__ import annotations

import os
import re
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from vcgen.pipeline import Timings  # noqa: E402
from vcgen.testsuite import collect_kernels, parse_header  # noqa: E402

sys.path.insert(0, str(ROOT / "tests"))
from symbolic_sizes import symbolic_flags  # noqa: E402

PHASES = tuple(g for g, _ in Timings.GROUPS)
COLUMNS = PHASES + ("total", "wall")
TIMING = re.compile(r"^timing: (.*)$", re.M)
TIMEOUT = 600


def parse_timing(stderr: str) -> dict:
    """``{phase: seconds}`` from the driver's ``timing:`` line ({} when it printed none)."""
    m = TIMING.search(stderr)
    if not m:
        return {}
    return {k: float(v) for k, v in re.findall(r"(\w+) ([0-9.]+)s", m.group(1))}


def run_kernel(k: Path, extra: tuple = (), symbolic: bool = False, timeout: float = TIMEOUT) -> tuple:
    """(exit code, {column: seconds}) of ``gpuverify --time`` on ``k`` (header flags, their
    sizes made ``*`` when ``symbolic``, then ``extra``); exit 7 after ``timeout`` seconds."""
    flags = parse_header(k).flags
    cmd = [sys.executable, "-m", "vcgen.driver", *(symbolic_flags(flags) if symbolic else flags), *extra,
           "--time", str(k)]
    t0 = time.perf_counter()
    # its own process group: a timeout ends the solver processes it started too
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                         text=True, cwd=ROOT, start_new_session=True)
    try:
        _, err = p.communicate(timeout=timeout)
        code, times = p.returncode, parse_timing(err)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        code, times = 7, {}
    times["wall"] = time.perf_counter() - t0
    return code, times


def _row(label: str, values: dict, tail: str = "") -> str:
    cells = "".join(f"{values[c]:>10.3f}" if c in values else f"{'-':>10s}" for c in COLUMNS)
    return f"{label:<48s}{cells}{tail}"


def main(args: list) -> int:
    """``args``: kernels/directories, and flags (``--...``) passed to every run."""
    symbolic = "--symbolic" in args
    timeout = float(next((a.partition("=")[2] for a in args if a.startswith("--kernel-timeout=")), TIMEOUT))
    extra = tuple(a for a in args if a.startswith("--") and a != "--symbolic"
                  and not a.startswith("--kernel-timeout="))
    paths = [a for a in args if not a.startswith("--")]
    try:
        kernels = collect_kernels([Path(p).resolve() for p in paths] or [ROOT / "corpus"])
    except FileNotFoundError as e:
        print(f"bench: {e}", file=sys.stderr)
        return 1
    print(f"{'kernel':<48s}" + "".join(f"{c:>10s}" for c in COLUMNS) + "  exit", flush=True)
    rows = []
    for k in kernels:
        code, times = run_kernel(k, extra, symbolic, timeout)
        rows.append(times)
        name = str(k.relative_to(ROOT)) if k.is_relative_to(ROOT) else str(k)
        print(_row(name[-47:], times, f"  {code}"), flush=True)
    if not rows:
        print("bench: no kernels found", file=sys.stderr)
        return 1
    print("-" * (48 + 10 * len(COLUMNS)))
    cols = {c: [r[c] for r in rows if c in r] for c in COLUMNS}
    print(_row(f"median ({len(rows)} kernels)", {c: statistics.median(v) for c, v in cols.items() if v}))
    print(_row("total", {c: sum(v) for c, v in cols.items() if v}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
