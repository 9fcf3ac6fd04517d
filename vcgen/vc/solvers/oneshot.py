"""One solver process per query (``OneShotBackend``): the VC and the query's assumption
literals asserted as facts, then a single ``check-sat`` (docs/design.md section 6).

An incremental solver answers ``check-sat-assuming`` over the whole VC: the literals that
switch checks and Houdini candidates off are decided during search, never used to
simplify.  A fresh non-incremental process gets them as unit facts, and its preprocessing
(yices: constant propagation, bit-vector simplification before bit-blasting) removes
every disabled check and dead candidate before the search starts.  Neither is faster on
every query: replaying 58 Houdini queries of PolyBench covariance kernel3 (1.4 MB VC)
with yices, warm ``check-sat-assuming`` took 0.1-5.6 s (46 s in all), one fresh process
per query 0.2-4.4 s (43 s), the faster of the two per query 28 s; one query took 4.6 s
warm and 0.6 s fresh (z3, fresh and asserted: 13 s), others 0.6 s warm and 4.4 s fresh.  So the portfolio races both
(``portfolio.portfolio``) and benches the one that stops winning.

The answer is the same formula's: asserting a literal or assuming it gives the same
models, so ``sat``/``unsat`` mean what they mean for ``ProcessBackend``.
"""
from __future__ import annotations

import time

from .backend import Outcome
from .process import ProcessBackend
from .smtlib import parse_sexpr


class OneShotBackend(ProcessBackend):
    """``ProcessBackend`` with a fresh process per query: the prelude, the assumption
    literals as ``assert``s, ``check-sat``; the process stays alive after ``sat`` for
    ``values`` and is killed at the next query, on ``cancel``'s return, on timeout and
    at ``close``.  ``command`` must run the solver in its non-incremental mode (e.g.
    ``yices-smt2`` without ``--incremental``): the point is its full preprocessing."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.name += " (one process per query)"
        # printed literals passed as ``check-sat-assuming`` assumptions, not asserted, so
        # that an unsat answer names those it needed (``Outcome.core``); the prelude must
        # set ``:produce-unsat-assumptions``
        self.assumed: frozenset[str] = frozenset()

    def prepare(self, assumptions: list) -> str:
        self.generation += 1
        texts = [self._sexpr(a) for a in assumptions]
        facts = "".join(f"(assert {t})\n" for t in texts if t not in self.assumed)
        assumed = [t for t in texts if t in self.assumed]
        check = f"(check-sat-assuming ({' '.join(assumed)}))\n" if assumed else "(check-sat)\n"
        return self._text(facts + check)

    def _answer(self, budget: float | None) -> Outcome:
        """``ProcessBackend._answer``, with the unsat core over ``assumed`` after an
        ``unsat`` (``core`` None if the solver did not give one)."""
        out = super()._answer(budget)
        if out.status != "unsat" or not self.assumed:
            return out
        self._send("(get-unsat-assumptions)\n")
        resp = self._response(time.monotonic() + 5)
        names = parse_sexpr(resp or "")
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names) \
                or not set(names) <= self.assumed:
            return out
        return Outcome("unsat", out.reason, frozenset(names))

    def run(self, query: str, limit: float | None = None) -> Outcome:
        """Answer ``query`` (``prepare``) in a new process (see the class docstring); a
        cancel kills it (``ProcessBackend.run``)."""
        self._kill()
        return super().run(query, limit)

    def close(self) -> None:
        self._kill()
