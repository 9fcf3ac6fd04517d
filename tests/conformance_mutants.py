"""Barrier-deletion mutants of the correct kernels of external suites (``make conformance-mutants``).

For every kernel expected to pass (header ``//pass``, no ``known_gap``) under the given
directories, one mutant per barrier call (``barrier``, ``work_group_barrier``,
``__syncthreads*``, ``__syncwarp``: ``mutants.barrier_mutants``) is verified with
``gpuverify`` and the kernel's header flags (``${KERNEL_DIR}`` is the original kernel's
folder, which is also added with ``-I`` so local includes resolve).  Each mutant the
verifier calls Verified is then run by the concrete reference ``il_reference`` (every
thread of group 0 and of the last group, ``--seeds`` random inputs): a mutant that is
Verified while the reference run races (or fails an assertion, or diverges) is a
soundness bug and makes the command fail.  ``--reference-all`` runs the reference (once) on
every other mutant too, which shows how often it sees what the verifier reports.

The suites are test data, not part of the product: nothing in ``make test`` uses this.

    python tests/conformance_mutants.py DIR... [-j N] [--timeout S] [--only TEXT]
                                        [--seeds K] [--reference-all] [-v]
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
import multiprocessing
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from mutants import barrier_mutants  # noqa: E402
from vcgen.il.errors import ExitCode, ToolError  # noqa: E402
from vcgen.testsuite import HeaderError, parse_header  # noqa: E402

DEFAULT_TIMEOUT = 300.0


@dataclass
class Outcome:
    kernel: str
    mutation: str
    verifier: str  # "race" (exit 6), "verified" (exit 0), "error", "timeout"
    detail: str = ""
    reference: str = "not run"  # "racy", "clean", "unsupported", "skipped", "not run"
    reference_detail: list = field(default_factory=list)
    uninterpreted: bool = False
    seconds: float = 0.0

    @property
    def unsound(self) -> bool:
        return self.verifier == "verified" and self.reference == "racy"


def correct_kernels(dirs: list, only: str | None) -> list:
    out = []
    for d in dirs:
        for p in sorted(Path(d).rglob("*")):
            if p.suffix not in (".cl", ".cu") or (only and only not in str(p)):
                continue
            try:
                h = parse_header(p)
            except HeaderError:
                continue
            if h.expected == ExitCode.SUCCESS and h.known_gap is None:
                out.append(p)
    return out


def _flags(kernel: Path) -> list:
    flags = [f.replace("${KERNEL_DIR}", str(kernel.parent)) for f in parse_header(kernel).flags]
    return flags + ["-I", str(kernel.parent)]


def _verify(path: str, flags: list, timeout: float) -> tuple:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    try:
        p = subprocess.run([sys.executable, "-m", "vcgen.driver", *flags, path], cwd=ROOT, env=env,
                           capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", f"after {timeout:.0f} s"
    out = p.stdout + p.stderr
    first = next((ln.strip() for ln in out.splitlines() if "error" in ln), out.strip()[:160])
    if p.returncode == ExitCode.SUCCESS:
        return "verified", ""
    if p.returncode == ExitCode.NOT_ALL_VERIFIED:
        return "race", first
    if p.returncode == ExitCode.TIMEOUT:
        return "timeout", first
    return "error", f"exit {p.returncode}: {first}"


def reference_subject(path: str, flags: list):
    """The il_reference Subject of a kernel file compiled with gpuverify ``flags``.
    Raises il_reference.Unsupported for front-end errors and unsupported flags."""
    from bugle.cc import compile_kernel
    from bugle.translate import translate_ir
    from il_reference import Subject, Unsupported
    from vcgen.pipeline import command
    from vcgen.stages import lockstep_options
    from vcgen.twothread.kernel_args import apply_kernel_args
    try:
        o = command.make_context("gpuverify", list(flags) + [path]).params
    except Exception as e:  # click errors: the header's flags are not ours to judge here
        raise Unsupported(f"flags: {e}") from None
    if o["warp_sync"]:
        raise Unsupported("--warp-sync: warp lock-step is not modelled")
    try:
        lang = "cuda" if path.endswith(".cu") else "opencl"
        ir = compile_kernel(path, language=lang, defines=tuple(o["defines"]), includes=tuple(o["includes"]),
                            spir64=o["spir64"], clang_opts=tuple(o["clang_opts"]))
        prog = apply_kernel_args(translate_ir(ir, o["kernel"], path), o["kernel_args"])
        lopts = lockstep_options(dict(o, no_infer=True))
    except ToolError as e:
        raise Unsupported(f"front end: {str(e).strip().splitlines()[0]}") from None
    la = lopts.launch
    return Subject(path, prog, la.local_size, la.num_groups, la.global_offset, lopts.only_intra_group,
                   lopts.only_divergence, lopts.benign_tolerance)


def _reference(path: str, flags: list, seeds: int, out: Outcome) -> None:
    from il_reference import LaunchReference, Unsupported
    try:
        ref = LaunchReference(reference_subject(path, flags))
    except Unsupported as e:
        out.reference, out.reference_detail = "unsupported", [str(e)]
        return
    skipped = []
    for seed in range(seeds):
        try:
            v = ref.run(seed)
        except Exception as e:  # a bug of the reference must not hide the other mutants
            out.reference, out.reference_detail = "skipped", [f"{type(e).__name__}: {e}"]
            return
        out.uninterpreted = v.uninterpreted
        if v.skipped:
            skipped.append(v.skipped)
            continue
        if v.problems:
            out.reference, out.reference_detail = "racy", [f"seed {seed}: {p}" for p in v.problems[:4]]
            return
    out.reference = "clean" if len(skipped) < seeds else "skipped"
    out.reference_detail = skipped[:1]


def run_one(args) -> Outcome:
    kernel, mutation, source, timeout, seeds, reference_all = args
    t0 = time.monotonic()
    k = Path(kernel)
    flags = _flags(k)
    out = Outcome(kernel, mutation, "error")
    with tempfile.TemporaryDirectory(prefix="cmutant-") as tmp:
        path = os.path.join(tmp, k.name)
        Path(path).write_text(source)
        out.verifier, out.detail = _verify(path, flags, timeout)
        out.detail = out.detail.replace(tmp + os.sep, "")
        if out.verifier == "verified" or reference_all:
            _reference(path, flags, seeds if out.verifier == "verified" else 1, out)
            out.reference_detail = [d.replace(tmp + os.sep, "") for d in out.reference_detail]
    out.seconds = time.monotonic() - t0
    return out


def summary(results: list) -> list:
    def count(pred):
        return sum(1 for r in results if pred(r))
    lines = [f"mutants {len(results)}: verifier race {count(lambda r: r.verifier == 'race')}, "
             f"verified {count(lambda r: r.verifier == 'verified')}, error {count(lambda r: r.verifier == 'error')}, "
             f"timeout {count(lambda r: r.verifier == 'timeout')}"]
    for v in ("verified", "race"):
        rs = [r for r in results if r.verifier == v and r.reference != "not run"]
        if rs:
            lines.append(f"reference on the {len(rs)} {'verified' if v == 'verified' else 'racy'} mutants: "
                         + ", ".join(f"{k} {sum(1 for r in rs if r.reference == k)}"
                                     for k in ("racy", "clean", "unsupported", "skipped")))
    lines.append(f"verified mutants whose reference run races: {count(lambda r: r.unsound)}")
    return lines


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dirs", nargs="+", help="suite directories (kernels with GPUVerify test headers)")
    ap.add_argument("-j", "--jobs", type=int, default=int(os.environ.get("JOBS", "2")))
    ap.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help="seconds per gpuverify run")
    ap.add_argument("--only", default=None, help="only kernels whose path contains this text")
    ap.add_argument("--seeds", type=int, default=2, help="reference runs (random inputs) per mutant")
    ap.add_argument("--reference-all", action="store_true", help="run the reference on every mutant")
    ap.add_argument("-v", "--verbose", action="store_true", help="one line per mutant")
    a = ap.parse_args(argv)
    for d in a.dirs:
        if not Path(d).is_dir():
            ap.error(f"{d}: not a directory")
    tasks = []
    kernels = correct_kernels(a.dirs, a.only)
    for k in kernels:
        for m in barrier_mutants(str(k), k.read_text(errors="replace")):
            tasks.append((str(k), m.mutation, m.source, a.timeout, a.seeds, a.reference_all))
    print(f"{len(kernels)} correct kernels, {len(tasks)} barrier mutants", flush=True)
    results = []
    # multiprocessing.Pool: ProcessPoolExecutor's max_tasks_per_child hangs on Python 3.11
    with multiprocessing.get_context("spawn").Pool(max(1, a.jobs), maxtasksperchild=20) as pool:
        for r in pool.imap(run_one, tasks):
            results.append(r)
            if a.verbose or r.unsound:
                ref = f"  reference {r.reference}" + (f" ({'; '.join(r.reference_detail)})"
                                                      if r.reference_detail else "")
                print(f"{'UNSOUND ' if r.unsound else ''}{r.kernel}  {r.mutation}  {r.verifier}"
                      f"{'  ' + r.detail if r.detail else ''}{ref if r.reference != 'not run' else ''}"
                      f"{'  [uses floats]' if r.unsound and r.uninterpreted else ''}  [{r.seconds:.0f} s]",
                      flush=True)
    for line in summary(results):
        print(line)
    return 1 if any(r.unsound for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
