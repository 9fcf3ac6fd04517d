"""``make bench``: run every corpus kernel end to end; print each time and the median.

Times are wall-clock seconds of one ``gpuverify`` process per kernel (clang, translation,
lock-step, Houdini, final check), with per-phase times from ``--time``.
Performance is measured here, never asserted in tests.
"""
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from vcgen.testsuite import collect_kernels, parse_header  # noqa: E402


def main(dirs: list) -> int:
    rows = []
    for k in collect_kernels([Path(d).resolve() for d in dirs] or [ROOT / "corpus"]):
        h = parse_header(k)
        t0 = time.perf_counter()
        p = subprocess.run([sys.executable, "-m", "vcgen.driver", *h.flags, "--time", str(k)],
                           capture_output=True, text=True, cwd=ROOT, timeout=600)
        dt = time.perf_counter() - t0
        phases = re.search(r"timing: (.*)", p.stderr)
        rows.append((dt, k, p.returncode, phases.group(1) if phases else ""))
        print(f"{dt:7.2f}s  exit {p.returncode}  {k.relative_to(ROOT)}  {phases.group(1) if phases else ''}",
              flush=True)
    times = [r[0] for r in rows]
    if times:
        worst = max(rows)
        print(f"\n{len(times)} kernels: median {statistics.median(times):.2f}s, "
              f"mean {statistics.mean(times):.2f}s, worst {worst[0]:.2f}s ({worst[1].name}), "
              f"total {sum(times):.1f}s")
        for phase in ("clang", "translate", "abstract", "lockstep", "houdini", "verify"):
            vals = [float(m.group(1)) for r in rows for m in [re.search(rf"{phase} ([0-9.]+)s", r[3])] if m]
            if vals:
                print(f"  {phase:10s} median {statistics.median(vals):.3f}s  total {sum(vals):.1f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
