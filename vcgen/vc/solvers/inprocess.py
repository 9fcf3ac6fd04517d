"""z3 through its Python API, in this process: the default back end (docs/design.md
section 6)."""
from __future__ import annotations

import threading
from typing import Any

import z3

from ..encode import VC
from .backend import QUANTIFIED_CANDIDATE, Outcome, assert_terms, python_value, query_limit

# z3 replaces the process's SIGINT handler during each check and answers unknown when
# Ctrl-C comes.  On a racing or worker thread that Ctrl-C was lost to Python, and what it
# looked like ("canceled") was also what a timeout or a portfolio's cancel looks like:
# a run read it as a timeout, went on to an unbounded query and never ended (``--timeout=0``).
# Python's own handler gets every SIGINT instead; the main thread waits on the solver
# threads (``_run_interruptible``, the portfolio), so it raises KeyboardInterrupt at once
# and cancels them.
z3.set_param("ctrl_c", False)


class Z3Backend:
    """z3 in-process: one ``z3.Solver``, queries under assumptions.

    ``own_context``: the VC is copied into a fresh z3 context, so that this solver can run
    in another thread while the caller keeps using the VC's context (the portfolio);
    incoming terms are translated on the caller's thread (``prepare``, ``values``).
    ``facts``: Boolean terms of the VC asserted after it, for a one-shot query (asked with
    no assumptions): z3 preprocesses facts (constant propagation) but not assumptions
    (``vcgen.inference.twins``: a query with 3000 constants pinned, 0.15-0.3 s as facts,
    0.6-1.5 s as assumptions)."""

    name = "z3 (in-process)"

    def __init__(self, vc: VC, timeout: float | None = None, own_context: bool = False,
                 facts: list | tuple = ()):
        self.ctx = z3.Context() if own_context else vc.ctx
        self._own = own_context
        self._translated: dict[int, tuple] = {}  # ast id -> (term, its copy in our context)
        self.solver = z3.Solver(ctx=self.ctx)
        self.timeout = timeout or None
        if timeout:
            self.solver.set("timeout", _millis(timeout))
        if "Q" in vc.translator.features:
            # quantified axioms (--boogie-file): instantiated by E-matching only, as
            # Boogie has z3 do; model-based instantiation rarely ends on bit-vectors
            self.solver.set("smt.mbqi", False)
        assert_terms(self.solver, [self._tr(c) for c in [*vc.constraints, vc.goal, *facts]])
        self.model = None
        self.queries = 0

    def _tr(self, t):
        return t.translate(self.ctx) if self._own else t

    def prepare(self, assumptions: list) -> list[Any]:
        if not self._own:
            return list(assumptions)
        # the same literals come back in every query (one per check and guard): translate
        # each once, not once per query (a quadratic cost on loop nests)
        out = []
        for a in assumptions:
            hit = self._translated.get(a.get_id())
            if hit is None:  # the entry keeps ``a`` alive, so its id is never reused
                hit = self._translated[a.get_id()] = (a, a.translate(self.ctx))
            out.append(hit[1])
        return out

    def run(self, prepared: list, limit: float | None = None) -> Outcome:
        """The query on prepared assumptions (may run on another thread), stopped after
        ``query_limit(timeout, limit)`` seconds."""
        self.queries += 1
        self.model = None
        budget = query_limit(self.timeout, limit)
        if budget != self.timeout:
            self.solver.set("timeout", _millis(budget))
        try:
            r = self.solver.check(*prepared)
            if r == z3.sat:
                self.model = self.solver.model()
                return Outcome("sat")
        except z3.Z3Exception as e:  # also: the model lost to a cancel right after sat
            return Outcome("unknown", f"z3 error: {e}")
        finally:
            if budget != self.timeout:
                self.solver.set("timeout", _millis(self.timeout))
        if r == z3.unsat:
            return Outcome("unsat")
        reason = self.solver.reason_unknown()
        if "incomplete quantifiers" in reason:
            # E-matching saturated without a proof: z3's candidate model is a possible
            # counterexample, which Boogie reports as an error ("might not hold")
            try:
                self.model = self.solver.model()
                return Outcome("sat", QUANTIFIED_CANDIDATE)
            except z3.Z3Exception:
                pass
        if reason in ("timeout", "canceled"):
            return Outcome("timeout", reason)
        return Outcome("unknown", reason)

    def check(self, assumptions: list, limit: float | None = None) -> Outcome:
        prepared = self.prepare(assumptions)
        if threading.current_thread() is not threading.main_thread():
            return self.run(prepared, limit)
        return self._run_interruptible(prepared, limit)

    def _run_interruptible(self, prepared: list, limit: float | None) -> Outcome:
        """``run`` on a worker thread while this (main) thread waits: Python runs signal
        handlers only in the main thread and only between bytecodes, so a query z3 runs
        here would hold off SIGTERM (``il.command.start_program``: an interrupt) until it
        returns, for up to the whole timeout, or for ever with ``--timeout=0``.  Waiting
        on the worker, the handler runs at once; its KeyboardInterrupt interrupts z3's
        context and is raised when the worker has stopped.  The worker's own outcome or
        exception is this call's."""
        box: dict[str, Any] = {}

        def work() -> None:
            try:
                box["out"] = self.run(prepared, limit)
            except BaseException as e:  # noqa: BLE001 -- handed to the waiting thread
                box["err"] = e

        worker = threading.Thread(target=work, name="z3-query", daemon=True)
        worker.start()
        try:
            worker.join()  # a signal interrupts the wait (POSIX lock acquisition)
        except KeyboardInterrupt:
            self.cancel()
            worker.join()
            raise
        if "err" in box:
            raise box["err"]
        return box["out"]

    def cancel(self) -> None:
        """Stop a ``run`` in progress on another thread (it answers timeout "canceled")."""
        try:
            self.ctx.interrupt()
        except z3.Z3Exception:
            # the interrupt was delivered; z3's Python wrapper then reads the context's last
            # error code, which the racing thread may have set (its model lost to this very
            # cancel: "there is no current model"), and raises it here
            pass

    def values(self, terms: list) -> list[Any]:
        if self.model is None:
            raise RuntimeError("no model: the last query was not sat")
        return [python_value(self.model.eval(self._tr(t), model_completion=True)) for t in terms]

    def close(self) -> None:
        pass


def _millis(seconds: float | None) -> int:
    """z3's ``timeout`` parameter (milliseconds, its maximum = none) for ``seconds``."""
    return max(1, int(seconds * 1000)) if seconds else 4294967295
