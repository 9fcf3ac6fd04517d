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

from .backend import Outcome
from .process import ProcessBackend


class OneShotBackend(ProcessBackend):
    """``ProcessBackend`` with a fresh process per query: the prelude, the assumption
    literals as ``assert``s, ``check-sat``; the process stays alive after ``sat`` for
    ``values`` and is killed at the next query, on ``cancel``'s return, on timeout and
    at ``close``.  ``command`` must run the solver in its non-incremental mode (e.g.
    ``yices-smt2`` without ``--incremental``): the point is its full preprocessing."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.name += " (one process per query)"

    def prepare(self, assumptions: list) -> str:
        self.generation += 1
        facts = "".join(f"(assert {self._sexpr(a)})\n" for a in assumptions)
        return self._text(facts + "(check-sat)\n")

    def run(self, query: str, limit: float | None = None) -> Outcome:
        """Answer ``query`` (``prepare``) in a new process (see the class docstring); a
        cancel kills it (``ProcessBackend.run``)."""
        self._kill()
        return super().run(query, limit)

    def close(self) -> None:
        self._kill()
