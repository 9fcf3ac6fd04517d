"""The oracle check: reference against ``gpuverify`` on generated kernels (``make fuzz``).

For a seed: ``generate`` a kernel, run the ``reference`` on a few random inputs and
schedules, print the kernel, run ``gpuverify`` in-process (``vcgen.driver.main``) with
the kernel's launch, and classify:

* ``miss``        -- the reference saw a race, a failing assertion or barrier divergence
                     and gpuverify said Verified (exit 0): a soundness bug;
* ``caught``      -- the reference saw a problem, gpuverify did not verify (exit 6);
* ``verified``    -- both clean;
* ``false-alarm`` -- the reference saw nothing, gpuverify did not verify (imprecision or a
                     problem the reference's executions did not reach);
* ``error``       -- gpuverify exited with another code (a front-end or vcgen gap);
* ``timeout``     -- gpuverify's timeout (exit 7) or the wall-clock limit;
* ``skipped``     -- the reference gave up (step budget);
* ``generator-bug`` -- the reference rejected the kernel (e.g. an index out of bounds).

``python -m oracle.check -n N --seed S [-j J] [--features no-dead-reads,...]`` (from
``tests/``) prints the counts and every miss and error; exit 1 if any kernel was missed.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import os
import random
import signal
import sys
import tempfile
import threading
import time
import traceback
import multiprocessing
from dataclasses import dataclass, field
from pathlib import Path

from . import reference
from .generate import Features, generate
from .source import launch_flags, render
from .syntax import Id

ROOT = Path(__file__).resolve().parents[2]
CLASSES = ("miss", "caught", "verified", "false-alarm", "error", "timeout", "skipped", "generator-bug")
SCHEDULES = (("phases", False), ("groups", True), ("phases", True))
RUNS = 6  # reference executions per kernel: scalar arguments 0..4 and one random
SOLVER_TIMEOUT = 30  # seconds per solver query (gpuverify --timeout)
WALL_LIMIT = 240  # seconds per kernel, a safety net around the whole pipeline


@dataclass
class Result:
    seed: int
    cls: str
    lang: str
    source: str
    flags: list
    problems: list = field(default_factory=list)  # the reference's real problems (strings)
    benign: int = 0  # benign races the reference saw
    inputs: str = ""  # the inputs of the first run that showed a problem
    exit_code: int | None = None
    output: str = ""
    features: list = field(default_factory=list)
    seconds: float = 0.0

    def report(self) -> str:
        """Everything needed to reproduce and understand the result."""
        lines = [f"seed {self.seed}: {self.cls} ({self.lang}, gpuverify {' '.join(self.flags)} -> exit "
                 f"{self.exit_code})", f"features: {', '.join(self.features)}"]
        if self.problems:
            lines.append(f"reference saw (inputs {self.inputs}):")
            lines += [f"  {p}" for p in self.problems[:6]]
        lines.append("kernel:")
        lines += [f"  {ln}" for ln in self.source.splitlines()]
        lines.append("gpuverify output:")
        lines += [f"  {ln}" for ln in self.output.strip().splitlines()[:20]]
        return "\n".join(lines)


def observe(kernel, seed: int, runs: int = RUNS) -> tuple:
    """(problems, benign count, inputs text) of ``runs`` reference executions on random
    arrays, scalar arguments 0, 1, .. (the last run: random), schedules in turn; problems
    of the first run that showed any (empty if none did).  Raises reference.Budget,
    reference.ReferenceError."""
    rng = random.Random(seed * 7919 + 17)
    benign = 0
    for k in range(runs):
        inputs = reference.random_inputs(kernel, rng, k if k < runs - 1 else None)
        schedule, reverse = SCHEDULES[k % len(SCHEDULES)]
        obs = reference.run(kernel, inputs, schedule, reverse)
        benign += len(obs.benign)
        if obs.problems:
            return [f"{p.kind}: {p.text}" for p in obs.problems], benign, inputs.describe(kernel)
    return [], benign, ""


class _WallClock(BaseException):
    """Raised by the alarm: not an Exception, so the driver's catch-all does not take it."""


def run_gpuverify(path: str, flags: list, limit: float = WALL_LIMIT) -> tuple:
    """(exit code, stdout+stderr) of ``gpuverify FLAGS PATH`` run in this process; exit code
    None if the wall-clock ``limit`` (seconds) passed."""
    from vcgen import driver
    out = io.StringIO()
    if threading.current_thread() is not threading.main_thread():
        limit = 0  # signals reach the main thread only: rely on the solver timeout
    old = signal.signal(signal.SIGALRM, _raise_wallclock) if limit else None
    if limit:
        signal.alarm(int(limit))
    debug = os.environ.get("GPUVERIFY_DEBUG")
    os.environ["GPUVERIFY_DEBUG"] = "1"  # an internal error re-raises: keep its traceback
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            try:
                driver.main([*flags, path])
                code = 0
            except SystemExit as e:
                code = e.code if isinstance(e.code, int) else 1
            except Exception:  # the driver's "internal error" (exit 5), with the traceback
                out.write("internal error:\n" + traceback.format_exc())
                code = 5
    except _WallClock:
        code = None
    finally:
        if debug is None:
            del os.environ["GPUVERIFY_DEBUG"]
        else:
            os.environ["GPUVERIFY_DEBUG"] = debug
        if limit:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, old)
    return code, out.getvalue()


def _raise_wallclock(signum, frame):
    raise _WallClock()


def check_seed(seed: int, features: Features = Features(), timeout: int = SOLVER_TIMEOUT,
               limit: float = WALL_LIMIT) -> Result:
    """Generate, observe, verify and classify the kernel of ``seed``."""
    return check_kernel(generate(seed, features), seed, timeout, limit)


def check_kernel(k, seed: int, timeout: int = SOLVER_TIMEOUT, limit: float = WALL_LIMIT) -> Result:
    """Observe (inputs drawn from ``seed``), verify and classify kernel ``k``."""
    t0 = time.monotonic()
    src = render(k)
    flags = launch_flags(k) + [f"--timeout={timeout}"]
    res = Result(seed, "skipped", k.lang, src, flags, features=sorted(k.features))
    try:
        res.problems, res.benign, res.inputs = observe(k, seed)
    except reference.Budget as e:
        res.output = f"reference: {e}"
        return res
    except reference.ReferenceError as e:
        res.cls, res.output = "generator-bug", f"reference: {e}"
        return res
    with tempfile.TemporaryDirectory(prefix="oracle-") as tmp:
        path = os.path.join(tmp, f"{k.name}.{'cl' if k.lang == 'opencl' else 'cu'}")
        Path(path).write_text(src)
        code, output = run_gpuverify(path, flags, limit)
    res.exit_code, res.output = code, output.replace(tmp + os.sep, "")
    res.cls = classify(bool(res.problems), code)
    res.seconds = time.monotonic() - t0
    return res


def liven(k):
    """Kernel ``k`` with every read value made live: each declared local and each unused
    call or atomic result is folded into ``acc``, functions return the sum of what they
    read, and ``OUT[global id] = acc`` ends the kernel.  Without device functions the
    accesses are the same (plus the ``OUT`` stores); functions now return more, so stored
    values may change.  A miss whose live kernel is caught is due to reads whose value is
    unused (issue 9, cause 1)."""
    import dataclasses
    from .syntax import Array, Assign, Bin, Const, Decl, Eval, For, Function, If, Store, Var

    def fold(name):
        return Assign("acc", Bin("^", Var("acc"), Var(name)))

    def walk(stmts, in_func: bool):
        out = []
        for s in stmts:
            if isinstance(s, Decl):
                out += [s] if in_func else [s, fold(s.name)]
            elif isinstance(s, Eval) and not in_func:
                out.append(Assign("acc", Bin("^", Var("acc"), s.expr)))
            elif isinstance(s, If):
                out.append(If(s.cond, tuple(walk(s.then, in_func)), tuple(walk(s.other, in_func))))
            elif isinstance(s, For):
                out.append(For(s.var, s.bound, s.step, tuple(walk(s.body, in_func))))
            else:
                out.append(s)
        return out

    def live_function(f):
        result = Const(0) if f.result is None else f.result
        for s in f.body:
            if isinstance(s, Decl):
                result = Bin("+", result, Var(s.name))
        return Function(f.name, f.params, f.body, result)

    if any(a.name == "OUT" for a in k.arrays):
        return k
    la = k.launch
    glob = Id("glob", 0) if la.dims == 1 else Bin("+", Bin("*", Id("glob", 1), Const(la.local[0] * la.groups[0])),
                                                   Id("glob", 0))
    body = (Decl("acc", Const(0)),) + tuple(walk(k.body, False)) + (Store("OUT", glob, Var("acc")),)
    return dataclasses.replace(k, arrays=k.arrays + (Array("OUT", "global", la.threads_per_group * la.num_groups),),
                               functions=tuple(live_function(f) for f in k.functions), body=body)


def classify(reference_problem: bool, code: int | None) -> str:
    if code is None or code == 7:
        return "timeout"
    if code == 0:
        return "miss" if reference_problem else "verified"
    if code == 6:
        return "caught" if reference_problem else "false-alarm"
    return "error"


# ---------------------------------------------------------------------- the fuzz run


def _work(args) -> Result:
    seed, features, timeout = args
    r = check_seed(seed, features, timeout)
    if r.cls in ("caught", "verified", "false-alarm"):
        r.source = r.output = ""  # keep the pipe small; misses and errors keep everything
    return r


def summary(results: list) -> str:
    counts = {c: sum(1 for r in results if r.cls == c) for c in CLASSES}
    racy = counts["miss"] + counts["caught"]
    verified = counts["miss"] + counts["verified"]
    checked = sum(counts[c] for c in ("miss", "caught", "verified", "false-alarm"))
    clean = counts["verified"] + counts["false-alarm"]
    rate = f"{100 * counts['false-alarm'] / clean:.1f}% of clean kernels" if clean else "n/a"
    return (f"generated {len(results)}, reference-racy {racy}, verified {verified}, misses {counts['miss']}, "
            f"caught {counts['caught']}, false alarms {counts['false-alarm']} ({rate}), errors {counts['error']}, "
            f"timeouts {counts['timeout']}, skipped {counts['skipped']}, checked {checked}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Oracle fuzzing: generated kernels, reference vs gpuverify.")
    ap.add_argument("-n", type=int, default=1000, help="number of kernels")
    ap.add_argument("--seed", type=int, default=0, help="first seed (kernels use SEED .. SEED+N-1)")
    ap.add_argument("-j", "--jobs", type=int, default=int(os.environ.get("JOBS", "2")))
    ap.add_argument("--features", default="", help="e.g. no-dead-reads,no-atomics")
    ap.add_argument("--timeout", type=int, default=SOLVER_TIMEOUT, help="solver timeout per query (s)")
    ap.add_argument("-v", "--verbose", action="store_true", help="one line per kernel")
    ap.add_argument("--triage", action="store_true",
                    help="re-check each miss with every read value made live (dead-read misses)")
    a = ap.parse_args(argv)
    try:
        features = Features.parse(a.features)
    except ValueError as e:
        ap.error(str(e))
    off = features.switched_off()
    print(f"oracle: seeds {a.seed}..{a.seed + a.n - 1}, features off: {', '.join(off) or 'none'}", flush=True)
    results = []
    t0 = time.monotonic()
    # multiprocessing.Pool: its worker recycling works (ProcessPoolExecutor's
    # max_tasks_per_child hangs on Python 3.11 once a worker retires)
    with multiprocessing.get_context("spawn").Pool(max(1, a.jobs), maxtasksperchild=50) as pool:
        for r in pool.imap(_work, [(s, features, a.timeout) for s in range(a.seed, a.seed + a.n)]):
            results.append(r)
            if a.verbose:
                print(f"seed {r.seed}: {r.cls} exit {r.exit_code} [{r.seconds:.1f} s] {r.problems[:1]}", flush=True)
            if r.cls in ("miss", "error", "timeout", "generator-bug"):
                print(r.report(), flush=True)
            if r.cls == "miss" and a.triage:
                live = check_kernel(liven(generate(r.seed, features)), r.seed, a.timeout)
                print(f"seed {r.seed}: with every read live: {live.cls}"
                      + (" (a dead-read miss)" if live.cls == "caught" else ""), flush=True)
            if len(results) % 250 == 0:
                print(f"... {summary(results)} [{time.monotonic() - t0:.0f} s]", flush=True)
    print(summary(results))
    return 1 if any(r.cls == "miss" for r in results) else 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
