"""Houdini time over the corpus with and without refutation engines (paper 003 section 5.2).

    python tests/bench_refutation.py [--configs none,dyn,...] [--timeout S] [PATH...]

PATHs are kernels (.cl/.cu, compiled to the two-thread program with their header flags
by ``gpuverify --stop-at-bpl`` in a temporary directory), ``.bpl`` files or directories
(default: corpus).  For every kernel with candidates, Houdini runs once per ``--refutation``
configuration (configurations separated by ``/``, in rotating order so machine noise
spreads evenly); the table gives Houdini's wall time (seconds, ``run_houdini``: VC,
engines, fixpoint) and the total per configuration.  A configuration whose inferred
invariants differ from ``none``'s is flagged ``DIFF`` (it would be an engine bug).
Performance is measured here, never asserted in tests.
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from vcgen.inference.houdini import HoudiniOptions

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.setrecursionlimit(20000)
from vcgen.inference import houdini  # noqa: E402
from vcgen.il.parser import parse_file  # noqa: E402
from vcgen.testsuite import collect_kernels, parse_header  # noqa: E402

DEFAULT_CONFIGS = "none/dyn/sbase/dyn,sbase/lu1/seq:dyn/seq:dyn,sbase"


def two_thread_files(paths: list, tmp: Path) -> list:
    """``.bpl`` paths for the given kernels/.bpl files/directories (kernels compiled into
    ``tmp``; those that do not compile are reported and skipped)."""
    out, kernels = [], []
    for p in map(Path, paths):
        if p.is_dir():
            out += sorted(p.rglob("*.bpl"))
            kernels += collect_kernels([p])
        elif p.suffix == ".bpl":
            out.append(p)
        else:
            kernels.append(p)
    for k in kernels:
        dst = tmp / f"{k.parent.name}_{k.name}"
        shutil.copy(k, dst)
        r = subprocess.run([sys.executable, "-m", "vcgen.driver", *parse_header(k).flags,
                            "--stop-at-bpl", str(dst)], capture_output=True, text=True, cwd=ROOT)
        if r.returncode == 0 and dst.with_suffix(".bpl").exists():
            out.append(dst.with_suffix(".bpl"))
        else:
            print(f"skipped {k}: {(r.stderr or r.stdout).strip()[:120]}", file=sys.stderr)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("paths", nargs="*", default=[str(ROOT / "corpus")])
    ap.add_argument("--configs", default=DEFAULT_CONFIGS, help="'/'-separated --refutation values")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per solver query")
    a = ap.parse_args(argv)
    configs = a.configs.split("/")
    totals = {c: 0.0 for c in configs}
    refuted = {c: 0 for c in configs}
    wins = {c: 0 for c in configs}
    with tempfile.TemporaryDirectory() as tmp:
        files = two_thread_files(a.paths, Path(tmp))
        print(f"{'kernel':40s}" + "".join(f"{c:>16s}" for c in configs), flush=True)
        n = 0
        for i, f in enumerate(files):
            prog = parse_file(str(f))
            if not houdini.has_candidates(prog):
                continue
            n += 1
            times, results = {}, {}
            order = configs[i % len(configs):] + configs[:i % len(configs)]
            for c in order:
                t0 = time.perf_counter()
                out, stats, _ = houdini.run_houdini(prog, HoudiniOptions(timeout=a.timeout, refutation=c))
                times[c] = time.perf_counter() - t0
                results[c] = out
                refuted[c] += len(stats.refuted_by)
            base = results[configs[0]]
            best = min(times.values())
            cells = []
            for c in configs:
                totals[c] += times[c]
                wins[c] += times[c] == best
                cells.append(f"{times[c]:9.2f}{' DIFF' if results[c] != base else '':5s}  ")
            print(f"{f.stem[:40]:40s}" + "".join(f"{x:>16s}" for x in cells), flush=True)
    print(f"\n{n} kernels with candidates; Houdini seconds in total (candidates refuted by "
          "engines, kernels where fastest):")
    for c in configs:
        print(f"  {c:24s} {totals[c]:9.1f} s  ({refuted[c]} refuted, fastest on {wins[c]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
