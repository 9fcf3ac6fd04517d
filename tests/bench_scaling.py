"""``make bench-scaling``: time the verifier on five synthetic kernel families by size.

    python tests/bench_scaling.py [--sizes=1,2,5,10,20,50] [--families=a,b] [--timeout=S] [--FLAG...]

The families are the synthetic protocols of paper 002 (Faial), section 7, claim 2 and its
figure 17, written as CUDA kernels over ``int *wr``/``rd`` with ``T = blockDim.x``; each
kernel of size ``k`` repeats the family's pattern ``k`` times, and every generated kernel
is race-free (a non-zero exit is printed and counts as a failure):

* ``access``: read/write pairs ``rd[tid + n_i*T]; wr[tid + i*T];``
* ``barrier``: ``wr[tid]; __syncthreads();`` in sequence
* ``conditional``: ``if (tid == i) wr[tid] = ...;`` in sequence
* ``loop``: ``k`` nested loops ``for (i_j = 0; i_j < n; i_j++) { wr[tid] = ...; ... }``
* ``sync-loop``: the same with ``__syncthreads()`` in each loop body

For each size: the wall time and the CPU time (user + system, solver processes included)
of one ``gpuverify --time`` process and its phases, and per family the growth factor from
size 10 to size 50 (on a machine shared with other jobs the CPU time is the steadier
measure).  A run over ``--timeout`` is killed with its whole process group (solver
processes included).  Performance is measured here, never
asserted in tests.
"""
from __future__ import annotations

import os
import re
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
SIZES = (1, 2, 5, 10, 20, 50)
BLOCK, GRID = 64, 4
HEADER = "__global__ void kernel(int *wr, int *rd, int n) {\n  unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;\n  unsigned T = blockDim.x * gridDim.x;\n"


def access(k: int) -> str:
    body = "".join(f"  int v{i} = rd[tid + {i + 1}u * T];\n  wr[tid + {i}u * T] = v{i};\n"
                   for i in range(k))
    return HEADER + body + "}\n"


def barrier(k: int) -> str:
    body = "".join(f"  wr[tid] = {i};\n  __syncthreads();\n" for i in range(k))
    return HEADER + body + "}\n"


def conditional(k: int) -> str:
    body = "".join(f"  if (tid == {i}u) {{\n    wr[tid] = {i};\n  }}\n" for i in range(k))
    return HEADER + body + "}\n"


def _nest(k: int, sync: bool) -> str:
    lines = []
    for d in range(k):
        pad = "  " * (d + 1)
        lines.append(f"{pad}for (int i{d} = 0; i{d} < n; i{d}++) {{")
        lines.append(f"{pad}  wr[tid] = i{d};")
        if sync:
            lines.append(f"{pad}  __syncthreads();")
    for d in reversed(range(k)):
        lines.append("  " * (d + 1) + "}")
    return HEADER + "\n".join(lines) + "\n}\n"


def loop(k: int) -> str:
    return _nest(k, sync=False)


def sync_loop(k: int) -> str:
    return _nest(k, sync=True)


FAMILIES = {"access": access, "barrier": barrier, "conditional": conditional,
            "loop": loop, "sync-loop": sync_loop}
TIMING = re.compile(r"^timing: (.*)$", re.M)


class Run(NamedTuple):
    code: int      # exit code; 7 on timeout
    wall: float    # seconds
    cpu: float     # user + system seconds of the process and the children it waited for
    phases: str    # the ``timing:`` line, or "timeout"


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(path: Path, extra: tuple, timeout: float) -> Run:
    """One ``gpuverify --time`` process on one kernel, in its own process group."""
    cmd = [sys.executable, "-m", "vcgen.driver", f"--blockDim={BLOCK}", f"--gridDim={GRID}",
           "--time", *extra, str(path)]
    t0, c0 = time.perf_counter(), _children_cpu()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                         start_new_session=True)
    try:
        _, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        return Run(7, time.perf_counter() - t0, _children_cpu() - c0, "timeout")
    m = TIMING.search(err)
    return Run(p.returncode, time.perf_counter() - t0, _children_cpu() - c0, m.group(1) if m else "")


def _option(args: list, name: str, default: str) -> str:
    for a in args:
        if a.startswith(f"--{name}="):
            return a.split("=", 1)[1]
    return default


def main(args: list) -> int:
    sizes = tuple(int(s) for s in _option(args, "sizes", ",".join(map(str, SIZES))).split(","))
    families = _option(args, "families", ",".join(FAMILIES)).split(",")
    timeout = float(_option(args, "timeout", "120"))
    own = ("--sizes=", "--families=", "--timeout=")
    extra = tuple(a for a in args if a.startswith("--") and not a.startswith(own))
    unknown = [f for f in families if f not in FAMILIES]
    if unknown:
        print(f"bench-scaling: unknown family {unknown[0]!r} (known: {', '.join(FAMILIES)})",
              file=sys.stderr)
        return 1
    failures = 0
    print(f"{'family':<12s}{'size':>6s}{'wall':>9s}{'cpu':>9s}  exit  phases", flush=True)
    with tempfile.TemporaryDirectory(prefix="bench-scaling-") as tmp:
        for fam in families:
            runs = {}
            for k in sizes:
                path = Path(tmp) / f"{fam}_{k}.cu"
                path.write_text(FAMILIES[fam](k))
                r = runs[k] = run(path, extra, timeout)
                failures += r.code != 0
                print(f"{fam:<12s}{k:>6d}{r.wall:>9.2f}{r.cpu:>9.2f}  {r.code:>4d}  {r.phases}", flush=True)
            if 10 in runs and 50 in runs:
                print(f"{fam:<12s} growth 10->50: wall {runs[50].wall / runs[10].wall:.1f}x, "
                      f"cpu {runs[50].cpu / max(runs[10].cpu, 1e-3):.1f}x", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
