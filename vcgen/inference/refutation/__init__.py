"""Refutation engines for Houdini (paper 003 section 5): SBASE, SSTEP, LU(1), DYN.

An engine works on an under-approximation of the loop-cut program Houdini uses (SBASE,
SSTEP) or of the original two-thread program (LU(1), DYN), so every candidate it refutes
is outside the largest inductive subset and may be dropped by Houdini at once (paper 003
section 5.1; the argument is in ``smt`` and ``dyn``).  Engines never drop a candidate on a
solver ``unknown``/timeout or interpreter failure: only with a concrete counterexample.

Engines: ``smt.sbase``, ``smt.sstep``, ``smt.lu1``, ``dyn.dyn``, each a generator
``engine(program, alive: set[str], ctl: Control) -> Iterator[set[str]]`` of refuted guard
names (``_bK``).

Plans (``--refutation=SPEC``): ``none``; ``ENGINE[,ENGINE...]`` runs the engines, in
order, in one worker process alongside Houdini (the paper's ``DYN||SBASE||H``; the
machine has two cores), with refuted candidates flowing to Houdini and Houdini's
refutations flowing back to the engines; ``seq:ENGINE[,...]`` runs them to completion
before Houdini (the paper's ``R;H``).  Engine names: ``sbase``, ``sstep``, ``lu1``
(alias ``lu(1)``), ``dyn``.

``DEFAULT`` was chosen by measurement (``tests/bench_refutation.py corpus``: total Houdini
seconds over the 54 corpus kernels with candidates, two shared cores, same invariants in
every configuration): none 95-106 s; SBASE 134; LU(1) 176; DYN||SBASE||H 51;
DYN||H 30-34; DYN;H (``seq:dyn``) 31-32 and fastest on most kernels; DYN;SBASE;H 34.
The SMT engines cost more than they save here (Houdini's own queries are cheap), the
worker process does not pay on a loaded two-core machine, and one or two concrete runs
kill about 60% of all candidates in milliseconds, so the default is ``seq:dyn``.  A
plan with DYN also gives Houdini a model guide (``Refuter.guide``, ``dyn.ModelGuide``).
"""
from __future__ import annotations

import multiprocessing as mp
import queue as queue_mod
import signal
from dataclasses import dataclass, field
from typing import Any, Callable

from ...il.errors import ExitCode, ToolError
from . import dyn as dyn_mod, smt

ENGINES: dict = {"sbase": smt.sbase, "sstep": smt.sstep, "lu1": smt.lu1, "dyn": dyn_mod.dyn}
DISPLAY = {"sbase": "SBASE", "sstep": "SSTEP", "lu1": "LU(1)", "dyn": "DYN",
           "dyn-model": "DYN from models"}
GUIDED = "dyn-model"  # ``HoudiniStats.refuted_by`` name of the model-guided DYN runs
_ALIASES = {"lu(1)": "lu1", "lu": "lu1"}
DEFAULT = "seq:dyn"  # measured: tests/bench_refutation.py over the corpus (see module doc)


@dataclass(frozen=True)
class Plan:
    """Engines to run (names of ``ENGINES``, in order); ``parallel``: alongside Houdini in a
    worker process (else before Houdini, in this process)."""
    engines: tuple = ()
    parallel: bool = True

    def __bool__(self) -> bool:
        return bool(self.engines)

    def __str__(self) -> str:
        if not self.engines:
            return "none"
        names = ",".join(self.engines)
        return names if self.parallel else f"seq:{names}"


def parse_plan(spec: str | None) -> Plan:
    """The plan of a ``--refutation`` value (None = ``DEFAULT``).  Raises
    ToolError(COMMAND_LINE_ERROR) on an unknown engine name."""
    text = (DEFAULT if spec is None else spec).strip().lower()
    parallel = True
    if text.startswith("seq:"):
        parallel, text = False, text[4:]
    if text in ("", "none"):
        return Plan()
    names = []
    for word in text.split(","):
        w = _ALIASES.get(word.strip(), word.strip())
        if w not in ENGINES:
            raise ToolError(f"--refutation: unknown engine {word.strip()!r} (expected none or a "
                            f"comma-separated list of {', '.join(ENGINES)}, optionally after seq:)",
                            ExitCode.COMMAND_LINE_ERROR)
        if w not in names:
            names.append(w)
    return Plan(tuple(names), parallel)


@dataclass
class Control:
    """What an engine may consult: ``timeout`` seconds per SMT query (None = none),
    ``seed`` for DYN, and ``pull()`` -> every guard refuted elsewhere so far.  ``runner``:
    the program DYN compiled (``dyn.Runner``), left for the model guide of a
    sequential plan so that it does not compile it again."""
    timeout: float | None = None
    seed: int = 0
    external: Callable[[], set] = field(default=lambda: set())
    runner: Any = None

    def pull(self) -> set[str]:
        return self.external()


def run_sequential(program, plan: Plan, alive: set, timeout: float | None = None,
                   errors: list | None = None, ctl: Control | None = None) -> dict[str, str]:
    """Run the plan's engines one after the other in this process: guard -> engine name
    of every candidate they refute (the ``R;H`` configuration).  An engine that raises
    only loses its remaining refutations (message appended to ``errors``).  ``ctl``:
    the engines' ``Control`` (a new one with ``timeout`` if None)."""
    refuted: dict = {}
    alive = set(alive)
    ctl = ctl if ctl is not None else Control(timeout)
    for name in plan.engines:
        try:
            for dead in ENGINES[name](program, alive, ctl):
                for g in dead:
                    refuted.setdefault(g, name)
                alive -= dead
        except Exception as e:  # engines only accelerate Houdini: never fail the run
            if errors is not None:
                errors.append(f"{name}: {type(e).__name__}: {e}")
    return refuted


class Refuter:
    """Refuted candidates for Houdini (``houdini.houdini_fixpoint``'s ``refuter``):
    ``poll()`` -> {guard: engine} found since the last poll; ``share(guards)`` tells the
    engines what Houdini dropped; ``close()`` stops them; ``errors``: engine failures;
    ``guide``: model-guided DYN runs (``dyn.ModelGuide``) Houdini makes after a sat
    answer, when the plan runs DYN."""
    errors: list = []
    guide: dyn_mod.ModelGuide | None = None

    def poll(self) -> dict[str, str]:
        return {}

    def share(self, guards: set) -> None:
        pass

    def wait_first(self, seconds: float) -> None:
        """Block until the engines report something (or finish), at most ``seconds``."""

    def close(self) -> None:
        pass


class PrecomputedRefuter(Refuter):
    """Refutations computed before Houdini started (``seq:`` plans)."""

    def __init__(self, refuted: dict, errors: list | None = None):
        self.pending = dict(refuted)
        self.errors = list(errors or ())

    def poll(self) -> dict[str, str]:
        out, self.pending = self.pending, {}
        return out


def _worker(program, engines: tuple, alive: set, timeout, out_q, in_q) -> None:
    """Worker process: run ``engines`` in order, streaming ``(engine, guards)`` to
    ``out_q``; ``in_q`` brings the guards Houdini dropped."""
    # ``close`` stops this process with SIGTERM: die quietly, not with the command's handler;
    # a Ctrl-C reaches the whole process group, and the parent stops this process then
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    seen: set = set()

    def pull() -> set[str]:
        while True:
            try:
                seen.update(in_q.get_nowait())
            except queue_mod.Empty:
                return seen
    ctl = Control(timeout, 0, pull)
    alive = set(alive)
    try:
        for name in engines:
            for dead in ENGINES[name](program, alive - pull(), ctl):
                alive -= dead
                out_q.put((name, sorted(dead)))
    except Exception as e:  # an engine bug must not disturb Houdini: report and stop
        out_q.put(("!error", f"{type(e).__name__}: {e}"))
    out_q.put(("!done", []))


class ParallelRefuter(Refuter):
    """The plan's engines in one worker process running alongside Houdini."""

    def __init__(self, program, plan: Plan, alive: set, timeout: float | None = None):
        methods = mp.get_all_start_methods()
        ctx: Any = mp.get_context("fork" if "fork" in methods else "spawn")
        self.out_q, self.in_q = ctx.Queue(), ctx.Queue()
        self.proc = ctx.Process(target=_worker, daemon=True,
                                args=(program, plan.engines, set(alive), timeout, self.out_q, self.in_q))
        self.proc.start()
        self.done = False
        self.errors: list = []
        self.buffer: list = []  # messages read by wait_first, not yet polled

    def wait_first(self, seconds: float) -> None:
        if self.done or self.buffer:
            return
        try:
            self.buffer.append(self.out_q.get(timeout=seconds))
        except queue_mod.Empty:
            pass

    def poll(self) -> dict[str, str]:
        out: dict = {}
        while not self.done:
            if self.buffer:
                name, guards = self.buffer.pop(0)
                self._take(name, guards, out)
                continue
            try:
                name, guards = self.out_q.get_nowait()
            except queue_mod.Empty:
                break
            self._take(name, guards, out)
        return out

    def _take(self, name: str, guards: list, out: dict) -> None:
        if name == "!done":
            self.done = True
        elif name == "!error":
            self.errors.append(guards)
        else:
            for g in guards:
                out.setdefault(g, name)

    def share(self, guards: set) -> None:
        if guards and not self.done:
            self.in_q.put(set(guards))

    def close(self) -> None:
        if self.proc.is_alive():
            self.proc.terminate()
            self.proc.join(2)
            if self.proc.is_alive():
                self.proc.kill()
        self.proc.join(2)
        for q in (self.in_q, self.out_q):
            q.cancel_join_thread()
            q.close()


def start(program, plan: Plan, alive: set, timeout: float | None = None) -> Refuter:
    """A refuter for ``plan`` (``Refuter()`` for the empty plan): a worker process for
    parallel plans, the engines run to completion first for ``seq:`` plans; with a model
    guide (``Refuter.guide``) when the plan runs DYN."""
    if not plan or not alive:
        return Refuter()
    out: Refuter
    ctl = Control(timeout)
    if plan.parallel:
        out = ParallelRefuter(program, plan, alive, timeout)
    else:
        errors: list = []
        out = PrecomputedRefuter(run_sequential(program, plan, alive, timeout, errors, ctl), errors)
    if "dyn" in plan.engines:
        out.guide = dyn_mod.ModelGuide(program, runner=ctl.runner)
    return out
