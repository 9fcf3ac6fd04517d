"""The corpus with symbolic launch sizes (issue 13): each kernel's header flags with every
number of ``--local_size``, ``--num_groups``, ``--global_size``, ``--blockDim`` and
``--gridDim`` replaced by ``*`` (``--blockDim=[16,16]`` -> ``--blockDim=[*,*]``: the same
dimensions, any sizes within the device limits).  Expectations:

* a correct kernel (``//pass``) verifies for every size -- a kernel whose correctness needs
  a property of the sizes states it with ``__requires`` (which holds for its header's sizes);
* a buggy kernel fails as in its header (its header's sizes are among the symbolic ones), and
  a race report names the sizes of its counterexample (``Launch with ...``).

``python tests/symbolic_sizes.py [-j N] [PATH...]`` runs it and prints one line per kernel
that does not meet them (``make test`` runs it through ``tests/test_symbolic_corpus.py``).
"""
from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from vcgen.il.errors import ExitCode
from vcgen.testsuite import collect_kernels, default_driver, parse_header

SIZE_FLAGS = ("--local_size", "--local-size", "--num_groups", "--num-groups", "--global_size", "--global-size",
              "--blockDim", "--gridDim")
LAUNCH_LINE = re.compile(r"^Launch with (blockDim|local_size) = \(\d+, \d+, \d+\), (gridDim|num_groups) = "
                         r"\(\d+, \d+, \d+\)$", re.M)


def symbolic_flags(flags: tuple[str, ...]) -> tuple[str, ...]:
    """``flags`` with each size of a launch flag replaced by ``*``."""
    out = []
    for f in flags:
        name, eq, value = f.partition("=")
        out.append(name + eq + re.sub(r"\d+", "*", value) if eq and name in SIZE_FLAGS else f)
    return tuple(out)


@dataclass
class Result:
    path: Path
    expected: int
    code: int | None
    output: str
    seconds: float

    @property
    def problem(self) -> str | None:
        """Why the run does not meet the expectations of the module docstring, or None."""
        if self.code != self.expected:
            return f"exit {self.code}, expected {self.expected}"
        if self.expected == ExitCode.NOT_ALL_VERIFIED and "race on" in self.output \
                and not LAUNCH_LINE.search(self.output):
            return "race report without the sizes of its counterexample"
        return None


def run(path: Path, timeout: float = 300.0) -> Result:
    """Run ``gpuverify`` on ``path`` with its header's flags made symbolic."""
    header = parse_header(path)
    argv = default_driver() + list(symbolic_flags(header.flags)) + [str(path)]
    start = time.monotonic()
    # its own process group: a timeout ends the solver processes it started too
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                         text=True, start_new_session=True)
    try:
        output, _ = p.communicate(timeout=timeout)
        code = p.returncode
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        code, output = None, f"timed out after {timeout:g} s"
    return Result(path, int(header.expected), code, output, time.monotonic() - start)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="*", default=[str(Path(__file__).resolve().parent.parent / "corpus")])
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=300.0)
    args = ap.parse_args()
    kernels = collect_kernels(args.paths)
    bad = 0
    with ThreadPoolExecutor(args.jobs) as pool:
        for r in pool.map(lambda k: run(k, args.timeout), kernels):
            if r.problem:
                bad += 1
                print(f"{r.path}: {r.problem} ({r.seconds:.1f} s)\n    " + "\n    ".join(r.output.splitlines()[:12]))
            else:
                print(f"ok {r.path} ({r.seconds:.1f} s)")
            sys.stdout.flush()
    print(f"{len(kernels)} kernels, {bad} not as expected")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
