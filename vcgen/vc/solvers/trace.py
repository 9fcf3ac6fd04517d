"""A back end that reports each query as a ``--verbose`` progress line
(``vcgen.report.progress``): its number, how many assumption literals it had (in Houdini:
the candidates still alive plus the slice selectors), its answer, its wall time in seconds
and the solver that answered.  Answers and models are the wrapped back end's, unchanged."""
from __future__ import annotations

import time
from typing import Any

from ...report import progress
from .backend import Backend, Outcome, Wrapper


def answerer(backend: Any) -> str:
    """The name of the solver that gave ``backend``'s last answer: ``auto`` follows its
    ``last`` back end, a portfolio its ``winner`` (its own name when nobody won)."""
    seen = set()
    b = backend
    while id(b) not in seen:
        seen.add(id(b))
        nxt = getattr(b, "last", None) or getattr(b, "winner", None)
        if nxt is None:
            break
        b = nxt
    return str(getattr(b, "name", type(b).__name__))


class TracedBackend(Wrapper):
    """Wraps a ``Backend``; ``check`` writes ``query N (K assumptions): STATUS in S s by
    SOLVER`` (plus the reason of an unknown or timeout)."""

    def __init__(self, inner: Backend, what: str = "query"):
        self.inner, self.what = inner, what
        self.name = inner.name
        self.queries = 0

    def check(self, assumptions: list, limit: float | None = None) -> Outcome:
        self.queries += 1
        t0 = time.perf_counter()
        out = self.inner.check(assumptions, limit)
        why = f" ({out.reason})" if out.reason and not out.definite else ""
        cap = f", limit {limit:g} s" if limit else ""
        progress.note("%s %d (%d assumptions%s): %s in %.2f s by %s%s", self.what, self.queries,
                      len(assumptions), cap, out.status, time.perf_counter() - t0,
                      answerer(self.inner), why)
        return out
