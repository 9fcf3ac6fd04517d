"""``RegionalBackend``: each query asked first of z3 over the region of its checks
(``vcgen.vc.regions``), and of the wrapped back end over the whole VC unless the region
answered unsat (docs/design.md section 6).

Region unsat is a proof of the whole query (``regions`` module docstring); a region model
may be spurious, so a region ``sat``, ``unknown`` or timeout only sends the query on to
the whole VC, whose answer (and model, for ``values``) is the one returned.  The region
query gets ``REGION_LIMIT`` seconds: it is meant to be cheap, and a hard query is the
wrapped back end's business (escalation to other solvers, splitting).
"""
from __future__ import annotations

from typing import Any

import z3

from ..encode import VC
from ..regions import Region, Regions
from .backend import Backend, Outcome, Wrapper, assert_terms, query_limit


REGION_LIMIT = 2.0  # seconds for a region query


class _RegionSolver:
    """z3 in-process over one region (in the VC's context: used on the caller's thread)."""

    def __init__(self, region: Region, quantified: bool):
        self.name = f"z3 (in-process, region of {region.size} constraints)"
        self.ctx = region.constraints[0].ctx
        self.solver = z3.Solver(ctx=self.ctx)
        if quantified:  # as ``inprocess.Z3Backend``: E-matching only
            self.solver.set("smt.mbqi", False)
        assert_terms(self.solver, region.constraints)


class RegionalBackend(Wrapper):
    """Wraps a ``Backend`` over ``vc`` (module docstring).  ``last`` is whoever answered
    the last query (``trace.answerer``); ``region_unsat`` counts the queries a region
    decided."""

    def __init__(self, vc: VC, inner: Backend, timeout: float | None = None,
                 regions: Regions | None = None):
        self.inner = inner
        self.name = f"regions, then {inner.name}"
        self.timeout = timeout
        self.queries = 0
        self.region_unsat = 0
        self.regions = regions if regions is not None else Regions(vc)
        self.quantified = "Q" in vc.translator.features
        self.last: Any = inner
        off_checks, off_guards = vc.negated_literals()
        self._index = {id(c.enable): c.index for c in vc.checks}  # literal -> enabled check
        self._check_of = {**self._index, **{id(n): c.index for c, n in zip(vc.checks, off_checks)}}
        # guard literal -> its guard's name
        self._guards = {**{id(g): n for n, g in vc.guards.items()},
                        **{id(neg): n for n, neg in off_guards.items()}}
        self._solvers: dict = {}

    def check(self, assumptions: list, limit: float | None = None) -> Outcome:
        self.queries += 1
        region = self.regions.for_checks([self._index[id(a)] for a in assumptions if id(a) in self._index])
        if region is not None:
            out = self._ask(region, assumptions, limit)
            if out.status == "unsat":
                self.region_unsat += 1
                return out
        self.last = self.inner
        return self.inner.check(assumptions, limit)

    def _ask(self, region: Region, assumptions: list, limit: float | None) -> Outcome:
        """The query over ``region``: the enable literals of its checks and the literals
        of the guards it reads (the others name nothing in the region; dropping an
        assumption only weakens the query, so an unsat answer stays a proof).  Houdini's
        queries carry every guard of the VC (sync-loop 50: 470 on average per region query,
        the region reading a few dozen)."""
        key = region.checks
        rs = self._solvers.get(key)
        if rs is None:
            rs = self._solvers[key] = _RegionSolver(region, self.quantified)
        lits = [a for a in assumptions if self._check_of.get(id(a)) in region.checks
                or self._guards.get(id(a)) in region.guards]
        budget = query_limit(query_limit(self.timeout, limit), REGION_LIMIT)
        rs.solver.set("timeout", max(1, int(budget * 1000)) if budget else 4294967295)
        self.last = rs
        arr = (z3.Ast * len(lits))(*[a.as_ast() for a in lits])
        try:
            r = z3.Z3_solver_check_assumptions(rs.ctx.ref(), rs.solver.solver, len(lits), arr)
        except z3.Z3Exception as e:
            return Outcome("unknown", f"z3 error: {e}")
        if r == z3.Z3_L_UNDEF and "interrupted" in rs.solver.reason_unknown():
            raise KeyboardInterrupt  # Ctrl-C reaches z3 first
        return Outcome({z3.Z3_L_FALSE: "unsat", z3.Z3_L_TRUE: "sat"}.get(r, "unknown"))


def regional(vc: VC, inner: Backend, timeout: float | None = None) -> Backend:
    """``inner`` wrapped in a ``RegionalBackend`` when ``vc`` has a loop cut point (some
    check owned by another block than the entry), else ``inner`` itself."""
    if not vc.blocks:
        return inner
    regions = Regions(vc)
    if len(regions.owners()) < 2:
        return inner
    return RegionalBackend(vc, inner, timeout, regions)
