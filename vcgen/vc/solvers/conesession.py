"""A Houdini slice's joint queries in one incremental solver process over its cone
(``ConeSession``; docs/design.md section 6).

Houdini settles a loop's candidates one model at a time (``houdini._settle_slice``): a
model falsifies one or two of the loop's checks, the candidates it falsifies are dropped,
and the loop is asked again, the same formula under other assumption literals.  Asked of
``sliced.SliceProver``, each such query is a fresh yices process fed the cone of the
query's checks (``slicing.cone_constraints``), and most of its time is the process start
and the parse of the cone: PolyBench gemm's loop ``$for.cond33.i`` went 64 -> 42
candidates in 13 sat queries of 0.07-0.17 s each, CUDA particles collideD's three
loops 34 -> 7, 35 -> 9 and 36 -> 9 candidates in 71 of them.

A session is an incremental solver (``yices-smt2 --incremental``) fed once the cone of a
set of checks (the loop's first query: all its candidates' checks) and the disjunction of
their goals; each query is ``check-sat-assuming`` over the query's literals.  A later
query of the same loop asks a subset of those checks (the alive ones), whose literals
switch the others off, so the goal is the query's.  The cone of the larger set is still a
cone (``slicing.cone_constraints`` of that set: a subset of the VC's constraints closed
under the definitions it reads), so the session's answer is exact as the one-shot cone
query's is: unsat there is unsat of the whole query, and a model extends to one of the
whole query with the same values on the cone (``sliced.ConeModel`` reads it).
"""
from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Sequence

from ...report import progress
from ..encode import VC
from ..slicing import cone_constraints
from .backend import Outcome
from .process import ProcessBackend
from .smtlib import script, smt_logic

# Sessions kept alive at once (least recently used closed first): Houdini settles one loop
# at a time and revisits the others once per round, so a few cover the loops asked again;
# a loop nest of depth 50 (``make bench-scaling``) must not keep 50 solver processes.
KEEP = 4


class ConeSession:
    """An incremental solver process (``command``) over the cone of the VC checks
    ``checks`` (indices into ``vc.checks``) and the disjunction of their goals; ``cone``:
    the indices into ``vc.constraints`` it holds.  ``check(checks, assumptions, limit)``
    answers the query over a subset of ``checks`` under ``assumptions`` (the query's
    literals, ``encode.VC.assumptions``) as ``ProcessBackend.check``: a timeout kills the
    process (``alive`` false from then on: the caller goes back to one-shot queries)."""

    def __init__(self, vc: VC, printed: tuple[str, list[str]], checks: Sequence[int],
                 command: list[str], timeout: float | None = None):
        self.vc = vc
        self.checks = frozenset(checks)
        self.cone = cone_constraints(vc, sorted(self.checks))
        decls, asserts = printed
        goal = vc.part_goal(sorted(self.checks))
        prelude = script(smt_logic(vc), decls + "".join(asserts[i] for i in self.cone)
                         + f"(assert {goal.sexpr()})\n", ("produce-models",))
        self.solver = ProcessBackend(vc, command, timeout, prelude=prelude)
        self.solver.name += " (incremental, one per loop)"
        self.alive = True
        self.queries = 0

    def covers(self, checks: Sequence[int]) -> bool:
        """Whether a query over ``checks`` can be asked of this session."""
        return self.alive and self.checks.issuperset(checks)

    def check(self, checks: Sequence[int], assumptions: list, limit: float | None) -> Outcome:
        """The query over ``checks`` (a subset of the session's) under ``assumptions``, at
        most ``limit`` seconds; anything but sat/unsat ends the session."""
        t0 = time.perf_counter()
        out = self.solver.check(assumptions, limit)
        self.queries += 1
        if not out.definite:
            self.close()
        progress.note("loop cone query of %d checks (%d of %d constraints, query %d of its "
                      "process): %s in %.2f s by %s", len(checks), len(self.cone),
                      len(self.vc.constraints), self.queries, out.status,
                      time.perf_counter() - t0, self.solver.name)
        return out

    def close(self) -> None:
        self.alive = False
        self.solver.close()


class ConeSessions:
    """The live ``ConeSession``s of one VC (at most ``KEEP``, least recently used closed
    first), made with ``command`` over the printed VC ``printed``
    (``sliced.SliceProver.printed``)."""

    def __init__(self, vc: VC, printed: tuple[str, list[str]], command: list[str],
                 timeout: float | None = None):
        self.vc, self.printed, self.command, self.timeout = vc, printed, command, timeout
        self._live: OrderedDict[frozenset, ConeSession] = OrderedDict()
        # check sets whose session ended on a query it did not decide: their loop's
        # queries are hard, and go back to one-shot processes (full preprocessing)
        self._failed: list[frozenset] = []

    def session(self, checks: Sequence[int]) -> ConeSession | None:
        """A live session covering ``checks`` (the first made for a superset of them), a
        new one over exactly ``checks``, or None when a session covering them ended on a
        query it did not decide."""
        if any(f.issuperset(checks) for f in self._failed):
            return None
        for key, s in list(self._live.items()):
            if not s.alive:
                del self._live[key]
                self._failed.append(key)
                if key.issuperset(checks):
                    return None
            elif s.covers(checks):
                self._live.move_to_end(key)
                return s
        s = ConeSession(self.vc, self.printed, checks, self.command, self.timeout)
        self._live[s.checks] = s
        while len(self._live) > KEEP:
            self._live.popitem(last=False)[1].close()
        return s

    def close(self) -> None:
        for s in self._live.values():
            s.close()
        self._live.clear()
