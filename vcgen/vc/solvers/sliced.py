"""Split parts asked over their cone of influence (``SliceProver``; docs/design.md
section 6).

When a joint query is split (``split.check_split``), each part (one check) is first asked
of a fresh non-incremental yices process fed only the part's cone
(``slicing.cone_constraints``: the facts, and the definitions of the blocks that can reach
its checks) and the goal over its checks, with the query's assumption literals as facts
(``oneshot``).  Only an ``unsat`` answer is used: the cone is a subset of the VC's
constraints, so that proves the part (and the caller's back end is not asked); anything
else sends the part on to the caller's back end as before, whose answer and model are the
ones reported.  So slicing can make a proof faster, never a verdict different.

Why: neither yices nor z3 drops the definitions a query cannot use.  Replayed, parboil
sad's 63 split parts took one warm incremental yices 12.0 s CPU over the whole VC, and a
fresh yices per part 4.9 s over their cones (``slicing.cone_constraints``).

The VC is printed once (``smtlib.smt_body``) and cut into its declarations and one
assertion per constraint; a part's script is those declarations, the cone's assertions
and its goal, so a part costs a process start and the solver's parse of its cone.
"""
from __future__ import annotations

import re
import threading
import time
from collections.abc import Sequence
from typing import Any

import z3

from ...il.attributes import sourceloc
from ...il.errors import ToolError
from ...report import progress
from ..encode import VC
from ..slicing import cone_constraints
from .backend import Backend, Outcome, query_limit
from .conesession import ConeSessions
from .oneshot import OneShotBackend
from .process import ProcessBackend, find_program
from .smtlib import ints_as_bv, script, smt_body, smt_logic
from .split import PROVER_WON, SplitLimit


# The start of a top-level command of z3's printed solver (a line of a term may start with
# ``(let``, never with a command's name)
_COMMAND = re.compile(r"^\((?:assert|declare-|define-)", re.MULTILINE)
_DECLARED = re.compile(r"^\(declare-fun (\S+) ", re.MULTILINE)
# A symbol of SMT-LIB text: quoted (``|a b|``) or simple
_SYMBOL = re.compile(r"\|[^|]*\||[^\s()|]+")


def _cut(body: str) -> tuple[str, list[str]] | None:
    """``(declarations, assertions)`` of ``smtlib.smt_body``'s text: the commands before the
    first ``assert``, and each ``assert`` command; None if the text does not look as
    expected (then nothing is sliced)."""
    starts = [m.start() for m in _COMMAND.finditer(body)] + [len(body)]
    commands = [body[a:b] for a, b in zip(starts, starts[1:])]
    first = next((i for i, c in enumerate(commands) if c.startswith("(assert")), len(commands))
    asserts = commands[first:]
    if not all(c.startswith("(assert") for c in asserts):
        return None
    return "".join(commands[:first]), asserts


# Seconds a cone query gets: ``CONE_FIRST``, or ``CONE_FACTOR`` times the slowest cone
# query of the VC proved so far when longer, at most the caller's limit (``split.SplitLimit``
# over cone queries).  A cone query that yices does not decide soon is left to the back
# end's portfolio, which z3 sometimes wins: CUDA shfl_vertical_shfl, 3 of 34 parts timed
# out at 10 s on their cones, then took the portfolio 12-67 s; the others took 0.01-1 s.
CONE_FIRST = 2.0
CONE_FACTOR = 3.0
# Seconds between the cancels a won race sends the back end's query (``SliceProver.race``)
CANCEL_EVERY = 0.2
# yices' own SAT solver behind its bit-blaster (``--delegate``), for the companion of a cone
# query past its limit (``SliceProver._companion``; ``slice_prover``'s); yices accepts it on
# QF_BV only
DELEGATE = "y2sat"
# VC features a companion's script may have: bit-vectors, and integers that ``ints_as_bv``
# rewrites as bit-vectors (program counters, log sources); no arrays, no quantifiers
_BV_ONLY = {"BV", "LIA"}
# the option a query whose unsat core is read sets (``OneShotBackend.assumed``)
_CORES = ("produce-unsat-assumptions",)


class ConeModel:
    """The model of a sat cone query (``SliceProver.ask``): ``values`` reads it from the
    query's solver process (kept until the prover's next query or ``close``), and
    ``fixes`` tells the checks whose ``fail`` it determines.  Any model of a cone extends
    to one of the whole VC with the same values on the cone's names
    (``slicing.cone_constraints``), so a check whose definition is in the cone fails in
    that whole model iff it fails here; a check outside the cone is not determined (its
    ``fail`` Boolean is unconstrained here) and must not be read from this model."""

    def __init__(self, solver: ProcessBackend, vc: VC, cone: list[int]):
        """``solver``: the process that answered sat (a one-shot one, or a loop's
        ``conesession.ConeSession``); ``cone``: the query's indices into ``vc.constraints``."""
        self.solver, self.name = solver, solver.name
        self._definitions = vc.definitions
        self._cone = frozenset(cone)

    def fixes(self, check) -> bool:
        """Whether the model determines ``check``'s ``fail`` (an ``encode.Check``): the
        constraint defining it (``encode.VC.definitions``) is in the cone."""
        defined = self._definitions.get(check.label)
        return defined is not None and defined[0] in self._cone

    def values(self, terms: list) -> list[Any]:
        """The model's values of ``terms`` (z3 terms of the VC's context), as
        ``ProcessBackend.values``: bool, int, or the text of a value it cannot read."""
        return self.solver.values(terms)


class SliceProver:
    """Proves split parts of ``vc``'s queries over their cones (module docstring) with the
    solver command ``command`` (non-incremental yices), each query at most ``timeout``
    seconds and the adaptive ``limit`` (``CONE_FIRST``).  ``queries`` / ``proved``: parts
    asked / proved unsat.  ``delegate``: the SAT solver yices bit-blasts to in the
    companion of a cone query past its limit (``_companion``); None: no companion."""

    def __init__(self, vc: VC, command: list[str], timeout: float | None = None,
                 delegate: str | None = None):
        self.vc, self.command, self.timeout = vc, command, timeout
        self.delegate = delegate  # the companion's SAT solver (``_companion``); None: none
        self.limit = SplitLimit(first=CONE_FIRST, factor=CONE_FACTOR)
        self.queries = 0
        self.proved = 0
        self.races_won = 0  # parts proved by a cone query still searching in ``race``
        self._text: tuple[str, list[str]] | None = None
        self._usable = True
        # (part, its cone query's process) after that query ran past its limit (``race``)
        self._pending: tuple[tuple[int, ...], OneShotBackend] | None = None
        # the last ``ask``'s model, whose process stays alive until the next query
        self.model: ConeModel | None = None
        self._keep_model = False
        # printed guard symbol -> guard name, and constraint index -> the guards its
        # assertion reads (``reads``), filled on first use
        self._guard_symbols: dict[str, str] | None = None
        self._constraint_guards: dict[int, frozenset[str]] = {}
        # the bit-blasting companion of the pending cone query (``_companion``), and the
        # VC's declarations and constraints with ``Int`` as bit-vectors (first use, then
        # per constraint); None: no companion for this VC
        self._companion_solver: OneShotBackend | None = None
        self._bv_decls: str | None = None
        self._bv_asserts: dict[int, str] = {}
        self._bv_ok = delegate is not None and "BV" in vc.translator.features \
            and set(vc.translator.features) <= _BV_ONLY

    def _printed(self) -> tuple[str, list[str]] | None:
        """The VC's declarations and one assertion per constraint (printed on first use)."""
        if self._text is None and self._usable:
            cut = _cut(smt_body(self.vc))
            if cut is None or len(cut[1]) != len(self.vc.constraints) + 1:
                self._usable = False  # z3 merged or split assertions: no slicing
                return None
            decls, asserts = cut[0], cut[1][:-1]  # the last assertion is the VC's goal
            # the assumption literals' names, which the constraints need not read
            declared = set(_DECLARED.findall(decls))
            names = [str(c.enable) for c in self.vc.checks] + list(self.vc.guards)
            decls += "".join(f"(declare-fun {n} () Bool)\n" for n in names if n not in declared)
            self._text = decls, asserts
        return self._text

    def prove(self, checks: Sequence[int], assumptions: list, limit: float | None = None,
              assumed: frozenset[str] = frozenset()) -> Outcome:
        """``unsat`` if the part ``checks`` (VC check indices) cannot fail under
        ``assumptions`` (the part's query literals, ``encode.VC.assumptions``) on its cone;
        otherwise the cone query's outcome: ``sat`` is a model of the whole query (a model
        of the cone extends, ``slicing.cone_constraints``), which Houdini's splits that go
        on past models take (``houdini._one_by_one``); others ask their back end.

        A single check with cases (``encode.VC.cases``: a partition of its states by the
        log choices of its loop body) is asked once per case, the goal conjoined with the
        case's path and the negation of its leaf (what the check asserts on that path,
        ``encode.LogCaseSplitter.case_paths``): the disjunction of the cases' goals is the
        check's goal, so every case unsat is the check unsat; the first case not unsat
        ends the proof and is the outcome (a case's model is one of the check's goal).  A
        case gets ``limit`` seconds, not the adaptive ``self.limit``: it is a part of the
        check's query over a part of the VC, while the back end, which a timeout leaves
        the check to, asks the whole check over the whole VC (heat-3d kernel0 at load 8:
        the first of 11 cases cut at 3.8 s, then the back end 275 s; the cases take
        0.8-3.6 s each at load 5).

        ``assumed``: names of Houdini guards (``VC.guards``) whose literals are passed as
        ``check-sat-assuming`` assumptions instead of facts; an ``unsat`` then carries in
        ``core`` the names of those its proof needed (the union over the cases), or None
        when the solver gave none (``houdini._proof_kept``)."""
        self._drop_pending()
        cone = cone_constraints(self.vc, checks)
        printed = self._printed() if cone else None
        if printed is None:
            return Outcome("unknown", "no cone")
        goal = self.vc.part_goal(checks)
        cases = self.vc.cases.get(checks[0]) if len(checks) == 1 else None
        texts = {self.vc.guards[n].sexpr(): n for n in assumed}
        if not cases:
            return _named_core(self._ask(printed, cone, goal, assumptions, limit, tuple(checks),
                                         assumed=frozenset(texts)), texts)
        out = Outcome("unsat")
        core: set[str] | None = set()
        for case in cases:
            out = self._ask(printed, cone, z3.And(goal, *case.path, z3.Not(case.leaf)), assumptions,
                            limit, tuple(checks), len(cases), adaptive=False, assumed=frozenset(texts))
            if out.status != "unsat":
                return out
            if out.core is None or core is None:
                core = None
            else:
                core |= out.core
        return _named_core(Outcome("unsat", out.reason, None if core is None else frozenset(core)), texts)

    def ask(self, checks: Sequence[int], assumptions: list, limit: float | None = None,
            assumed: frozenset[str] = frozenset()) -> Outcome:
        """``prove``, whose ``sat`` also leaves its model in ``self.model`` (a
        ``ConeModel``) for the caller to read until the prover's next query: Houdini's
        joint queries over a slice's cone (``houdini._joint_query``), where a model is
        the usual answer and drops the candidates it falsifies."""
        self._keep_model = True
        try:
            return self.prove(checks, assumptions, limit, assumed)
        finally:
            self._keep_model = False

    def _ask(self, printed: tuple[str, list[str]], cone: list[int], goal: z3.BoolRef,
             assumptions: list, limit: float | None, checks: tuple[int, ...], cases: int = 0,
             adaptive: bool = True, assumed: frozenset[str] = frozenset()) -> Outcome:
        """One cone query: the declarations, the cone's constraints and ``goal`` (a z3
        Bool of the VC's context) to a fresh solver process, under ``assumptions``, at most
        ``limit`` seconds and (``adaptive``) the adaptive ``self.limit``; ``checks``: the
        part's VC check indices; ``cases``: the number of cases ``goal`` is one of (0: the
        whole part), for the progress line.  A whole part's query past the adaptive limit
        keeps its process searching for ``race`` (``_pending``).  ``assumed``: printed
        literals passed as assumptions (``OneShotBackend.assumed``)."""
        decls, asserts = printed
        prelude = script(smt_logic(self.vc), decls + "".join(asserts[i] for i in cone)
                         + f"(assert {goal.sexpr()})\n", _CORES if assumed else ())
        solver = OneShotBackend(self.vc, self.command, self.timeout, prelude=prelude)
        solver.assumed = assumed
        solver.keep_on_timeout = adaptive and not cases
        self.queries += 1
        t0 = time.perf_counter()
        out = Outcome("unknown", "no answer")
        try:
            out = solver.check(assumptions, query_limit(limit, self.limit.seconds()) if adaptive else limit)
        finally:
            if out.status == "timeout" and solver.keep_on_timeout:
                self._pending = checks, solver
                self._companion_solver = self._companion(cone, goal, assumptions, assumed)
            elif out.status == "sat" and self._keep_model:
                self.model = ConeModel(solver, self.vc, cone)
            else:
                solver.close()
        if out.status == "unsat":  # a model (an error) must not stretch the limit
            self.proved += 1
            self.limit.record(time.perf_counter() - t0, out)
        progress.note("cone query of %s (%d of %d constraints%s): %s in %.2f s by %s",
                      self.named(checks), len(cone), len(self.vc.constraints),
                      f", a case of {cases}" if cases else "", out.status, time.perf_counter() - t0,
                      solver.name)
        return out

    def _companion(self, cone: list[int], goal: z3.BoolRef, assumptions: list,
                   assumed: frozenset[str]) -> OneShotBackend | None:
        """A second process for a cone query that ran past its limit: the same script with
        ``Int`` as bit-vectors (``smtlib.ints_as_bv``: the same satisfiability), as QF_BV,
        to yices with its bit-blaster's own SAT solver (``--delegate``), already searching
        when returned (``ProcessBackend.submit``); ``race`` waits for both.  None when
        the VC has arrays, uninterpreted functions, quantifiers or integer arithmetic.

        Why: on the hard PolyBench queries the two modes of yices differ by a factor of
        up to 15 either way, and which one wins cannot be told beforehand.  CPU seconds
        alone, default / delegated: lu kernel1's final-check cones of fail_247 10.5 / 5.4
        and fail_248 32.5 / 6.9 (the kernel's timeouts); covariance kernel3's Houdini
        queries 15+ / 0.95, 11.8 / 4.0, 5.5 / 2.0, but 0.8 / 1.5; seidel-2d 2.3 / 9.1."""
        prelude = self._bv_prelude(cone, goal, bool(assumed))
        if prelude is None:
            return None
        solver = OneShotBackend(self.vc, self.command + [f"--delegate={self.delegate}"], self.timeout,
                                int_as_bv=True, prelude=prelude)
        solver.name += f" (--delegate={self.delegate})"
        solver.assumed = assumed
        try:
            solver.submit(solver.prepare(assumptions))
        except ToolError:
            solver.close()
            return None
        return solver

    def _bv_prelude(self, cone: list[int], goal: z3.BoolRef, cores: bool) -> str | None:
        """The companion's script before its query: options, QF_BV, the declarations, the
        cone's constraints and ``goal``, ``Int`` rewritten as bit-vectors; None when the
        VC is not bit-vectors and integers only, or its integers do arithmetic.  ``cores``:
        the query passes assumptions whose unsat core it reads."""
        printed = self._printed() if self._bv_ok else None
        if printed is None:
            return None
        decls, asserts = printed
        try:
            if self._bv_decls is None:
                self._bv_decls = ints_as_bv(decls)
            body = []
            for i in cone:
                text = self._bv_asserts.get(i)
                if text is None:
                    text = self._bv_asserts[i] = ints_as_bv(asserts[i])
                body.append(text)
            tail = ints_as_bv(f"(assert {goal.sexpr()})\n")
        except ToolError:  # integer arithmetic (--math-int): no companion for this VC
            self._bv_ok = False
            return None
        return script("QF_BV", self._bv_decls + "".join(body) + tail, _CORES if cores else ())

    def reads(self, checks: Sequence[int]) -> frozenset[str] | None:
        """The names of the Houdini guards (``VC.guards``) that the cone query of the part
        ``checks`` (``prove``) reads: those occurring in its cone's constraints or in its
        goal (with every case's path and leaf, for a part asked case by case).  None when
        not known (no printed VC, or a declaration that reads a guard): then the part's
        proof reads every guard.

        The query is these formulas and the part's assumption literals (``prove``): every
        other guard occurs in it only as its own unit literal, so its value does not change
        whether the query is unsat (``houdini._proof_kept``).  Read off the printed text the
        solver is given, so the set is that of the formula the proof was about."""
        printed = self._printed()
        symbols = self._guard_names(printed[0]) if printed is not None else None
        if printed is None or symbols is None:
            return None
        out: set[str] = set()
        for i in cone_constraints(self.vc, checks):
            if i not in self._constraint_guards:
                self._constraint_guards[i] = _symbols_in(printed[1][i], symbols)
            out |= self._constraint_guards[i]
        goal = [self.vc.part_goal(checks)]
        cases = self.vc.cases.get(checks[0]) if len(checks) == 1 else None
        goal += [t for case in cases or () for t in (*case.path, case.leaf)]
        for term in goal:
            out |= _symbols_in(term.sexpr(), symbols)
        return frozenset(out)

    def _guard_names(self, decls: str) -> dict[str, str] | None:
        """Printed symbol -> name of each guard; None if some declaration other than a
        guard's own ``declare-fun`` mentions a guard (a definition the cone's assertions
        could read it through)."""
        if self._guard_symbols is None:
            symbols = {g.sexpr(): name for name, g in self.vc.guards.items()}
            for line in decls.splitlines():
                own = _DECLARED.match(line)  # ``(declare-fun NAME (...) Sort)``
                rest = line[own.end():] if own is not None else line
                if _symbols_in(rest, symbols):
                    return None
            self._guard_symbols = symbols
        return self._guard_symbols

    def named(self, checks: Sequence[int]) -> str:
        """The part ``checks`` (VC check indices) for ``--verbose`` lines: the candidate
        guard(s) and rule(s) of a Houdini query, else its check label(s) with the block and
        source line of the first (``fail_12 in $for.body at kernel.cl:30``)."""
        cs = [self.vc.checks[k] for k in checks]
        guards = sorted({f"{c.guard} (rule {c.rule})" for c in cs if c.guard is not None})
        if len(guards) > 3:  # a joint query of a loop's candidates
            return f"candidates {', '.join(guards[:3])} and {len(guards) - 3} more"
        if guards:
            return "candidate " + ", ".join(guards)
        first = cs[0]
        where = f" in {first.site.block}" if first.site is not None else ""
        loc = sourceloc(first.site.attrs) if first.site is not None else None
        at = f" at {loc.file}:{loc.line}" if loc is not None else ""
        more = f" and {len(cs) - 1} more" if len(cs) > 1 else ""
        return f"{first.label}{more}{where}{at}"

    def race(self, checks: Sequence[int], backend: Backend, assumptions: list,
             limit: float | None = None) -> Outcome:
        """``backend.check(assumptions, limit)``: the part ``checks``'s query over the whole
        VC, which the caller asks after ``prove`` did not prove the part.  When ``prove``'s
        cone query of the same part just ran past its limit, its process has kept searching
        (``_pending``) and races the back end: an ``unsat`` from it first cancels the back
        end's query and is the answer (the cone is a subset of the VC's constraints, so it
        proves the part, as in ``prove``); any answer of the back end first stops the cone
        query and is the answer, its model the back end's.  The cone query waits at most
        ``limit`` (and the prover's timeout) more seconds, as the back end does.  Its
        bit-blasting companion (``_companion``), started when it ran past its limit, races
        with it: the first unsat of either is the cone's.

        Why: after a cone query timed out, the whole VC is now and then the easier query
        and now and then far the harder one, and which cannot be told in advance.  PolyBench
        lu kernel1's final check: one part's cone query timed out at 10 s and the whole VC
        took the back end 3.2 s; the next part's cone timed out at 10 s and the back end
        went on past 68 s.  In its Houdini, one candidate's cone query took yices 10.7 s of
        CPU alone, while the warm back end answered in 1.3 s.  Covariance kernel3: a cone
        timeout at 2.1 s, then the back end's first-pass timeout at 10 s and its full-timeout
        query 15 s.  Racing costs the CPU of one yices process for at most as long as the
        back end's query; only after a cone timeout, which is rare (lu kernel1: 5 of 330
        cone queries)."""
        pending, self._pending = self._pending, None
        companion, self._companion_solver = self._companion_solver, None
        if pending is None or pending[0] != tuple(checks):
            for left in (pending[1] if pending is not None else None, companion):
                if left is not None:
                    left.close()
            return backend.check(assumptions, limit)
        solvers = [pending[1]] + ([companion] if companion is not None else [])
        lock = threading.Lock()  # no cancel reaches the back end once its check returned
        done = threading.Event()
        state: dict = {"cone": None}
        t0 = time.perf_counter()

        def wait(solver: OneShotBackend) -> None:
            out = solver.resume(query_limit(limit, self.timeout))
            if out.status != "unsat":
                return
            with lock:
                if state["cone"] is None:
                    state["cone"], state["by"] = out, solver.name
            for other in solvers:
                if other is not solver:
                    other.cancel()
            # again until the check returns: a back end of stages (a region query, z3
            # alone, then the portfolio) goes on to its next stage when one is cancelled
            while True:
                with lock:
                    if done.is_set():
                        return
                    backend.cancel()
                if done.wait(CANCEL_EVERY):
                    return

        waiters = [threading.Thread(target=wait, args=(s,), daemon=True) for s in solvers]
        for waiter in waiters:
            waiter.start()
        try:
            out = backend.check(assumptions, limit)
        finally:
            with lock:
                done.set()
            for solver in solvers:
                solver.cancel()  # ends the waits when the back end answered first
            for waiter in waiters:
                waiter.join()
            for solver in solvers:
                solver.close()
        cone = state["cone"]
        if out.definite or cone is None or cone.status != "unsat":
            return out
        self.proved += 1
        self.races_won += 1
        progress.note("cone query of %s: unsat %.2f s into its race with %s (by %s), which it cancelled",
                      self.named(checks), time.perf_counter() - t0, getattr(backend, "name", "the back end"),
                      state["by"])
        return Outcome("unsat", PROVER_WON)  # its core (printed literals) is not read here

    def _drop_pending(self) -> None:
        """Kill a cone query left searching that no ``race`` took, and the process of the
        last ``ask``'s model."""
        model, self.model = self.model, None
        if model is not None:
            model.solver.close()
        pending, self._pending = self._pending, None
        if pending is not None:
            pending[1].close()
        companion, self._companion_solver = self._companion_solver, None
        if companion is not None:
            companion.close()

    def sessions(self) -> ConeSessions | None:
        """Incremental per-loop cone sessions (``conesession.ConeSessions``) over this
        prover's printed VC with its solver in incremental mode; None when the VC could
        not be cut into constraints."""
        printed = self._printed()
        if printed is None:
            return None
        return ConeSessions(self.vc, printed, [*self.command, "--incremental"], self.timeout)

    def close(self) -> None:
        """Kill the solver processes of a cone query left searching and of the last
        model, if any."""
        self._drop_pending()


def _named_core(out: Outcome, texts: dict[str, str]) -> Outcome:
    """``out`` with its ``core`` of printed literals as the names ``texts`` maps them to."""
    if out.core is None:
        return out
    return Outcome(out.status, out.reason, frozenset(texts[t] for t in out.core))


def _symbols_in(text: str, symbols: dict[str, str]) -> frozenset[str]:
    """The values of ``symbols`` (printed symbol -> name) whose symbol occurs in the
    SMT-LIB ``text``."""
    return frozenset(symbols[t] for t in _SYMBOL.findall(text) if t in symbols)


def slice_prover(vc: VC, timeout: float | None = None) -> SliceProver | None:
    """A ``SliceProver`` over ``vc`` (``timeout``: seconds per query, None = none) with the
    ``yices-smt2`` executable and a bit-blasting companion for its queries past their
    limit (``SliceProver._companion``), or None when it is not installed, ``vc`` records no
    definitions (``encode.VC.definitions``) or has quantified axioms (yices has no
    quantifiers)."""
    if not vc.definitions or "Q" in vc.translator.features:
        return None
    exe = find_program("yices-smt2")
    return SliceProver(vc, [exe], timeout, DELEGATE) if exe else None
