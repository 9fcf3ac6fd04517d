"""``--solver=auto`` (the ``gpuverify`` default): z3 in-process first, and the portfolio for a
query z3 has not decided within ``ESCALATE_AFTER`` seconds."""
from __future__ import annotations

from typing import Any

from ..encode import VC
from .backend import Backend, Outcome, query_limit
from .inprocess import Z3Backend
from .portfolio import PortfolioBackend, portfolio


# Seconds z3 gets alone on a query before ``auto`` races it against an external solver:
# most queries of the corpus take milliseconds; the few nonlinear bit-vector ones (gid *
# stride, Blelloch offsets) take z3 10-20 s and yices 1-3 s (``make bench``).
ESCALATE_AFTER = 0.25
# ... but before the portfolio exists, z3 gets at least as long as creating it costs
# (printing the VC as SMT-LIB text for the solver processes): the ski-rental rule, never
# worse than twice the better of waiting and buying.  Large easy VCs: bench-scaling's
# sync-loop 50, whose vacuity check and first Houdini queries are sat in 0.7 s for z3,
# escalated at 0.25 s into 1.2 s of printing and a 2-3 s yices run.  Printing costs
# about ``PRINT_SHARE`` of building the VC (``VC.seconds``) since it uses z3's benchmark
# printer (``smtlib.smt_assertions``: CUDA postProcessGL's VC built in about 2.2 s,
# printed in 0.3 s, where ``Solver.sexpr`` took 14 s); an upper estimate.
PRINT_SHARE = 0.25
STAY_AFTER = 2  # escalations after which every query of the VC goes to the portfolio
# A VC of a kernel with symbolic launch sizes (``VC.symbolic_launch``) goes to the
# portfolio from its first query: its launch axioms and global ids multiply symbolic
# bit-vectors in every query, where z3 in-process takes seconds that yices answers in
# milliseconds (corpus interleave.cl with ``*`` sizes: z3 alone 2 s on its first query,
# yices 0.01 s), so z3's turn was ``ESCALATE_AFTER`` lost on nearly every query.


class EscalatingBackend:
    """``--solver=auto``: z3 in-process with a short per-query limit; a query it does not
    decide in ``first`` seconds (``_first``) is asked again of the portfolio (created on first need,
    then kept), which has the full per-query timeout; after ``STAY_AFTER`` such queries
    every further query of the VC goes to the portfolio.  A query's ``limit`` bounds z3's
    turn and then the portfolio's: a limit shorter than z3's turn (Houdini's 3 s joint
    queries on a VC that took longer to build, parboil gridding) used to leave the query
    to z3 alone, which timed out where yices answers.  Only the back end's own timeout
    (``--timeout``) used up by z3's turn ends the query there.  Answers are those of a sound solver
    either way; ``values`` reads the model of whoever answered the last query."""

    def __init__(self, vc: VC, timeout: float | None = None, first: float = ESCALATE_AFTER):
        self.vc, self.timeout, self.first = vc, timeout, first
        self.z3 = Z3Backend(vc, timeout)
        self.portfolio: PortfolioBackend | None = None
        self.last: Backend = self.z3
        self.name = "auto: z3, then a portfolio"
        self.queries = 0
        # a symbolic launch: every query to the portfolio (``STAY_AFTER``'s comment)
        self.escalations = STAY_AFTER if vc.symbolic_launch else 0

    def check(self, assumptions: list, limit: float | None = None) -> Outcome:
        self.queries += 1
        budget = query_limit(self.timeout, limit)
        if self.racing:  # a hard VC: race every further query
            if self.portfolio is None:  # a symbolic launch's first query
                self.portfolio = portfolio(self.vc, "portfolio", self.timeout)
            self.last = self.portfolio
            return self.portfolio.check(assumptions, limit)
        alone = self._first()
        out = self.z3.check(assumptions, query_limit(alone, budget))
        self.last = self.z3
        if out.definite or out.status != "timeout" or (self.timeout and self.timeout <= alone):
            return out
        self.escalations += 1
        if self.portfolio is None:
            self.portfolio = portfolio(self.vc, "portfolio", self.timeout)
        self.last = self.portfolio
        return self.portfolio.check(assumptions, limit)

    @property
    def racing(self) -> bool:
        """Whether every further query goes to the portfolio (``STAY_AFTER``): the VC
        has proved hard for z3 alone."""
        return self.escalations >= STAY_AFTER

    def _first(self) -> float:
        """Seconds z3 gets alone: ``first``, and until the portfolio exists at least the
        cost of creating it (``PRINT_SHARE``)."""
        if self.portfolio is not None:
            return self.first
        return max(self.first, PRINT_SHARE * self.vc.seconds)

    def values(self, terms: list) -> list[Any]:
        return self.last.values(terms)

    def cancel(self) -> None:
        self.last.cancel()

    def close(self) -> None:
        self.z3.close()
        if self.portfolio is not None:
            self.portfolio.close()
