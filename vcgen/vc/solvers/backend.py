"""The solver back-end interface (docs/design.md section 6): every back end answers
``check(assumptions, limit)`` incrementally on one instance holding a VC's constraints and
goal, with a per-query timeout in seconds (``--timeout``) that a query's ``limit`` may
shorten (``query_limit``); after ``sat``, ``values(terms)`` reads the model.
Outcomes are ``Outcome("sat" | "unsat" | "unknown" | "timeout", reason)``: callers must
treat anything but ``unsat`` as "not proved".
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import z3


# Outcome.reason of a "sat" that is z3's candidate model after E-matching gave up on
# quantified axioms (--boogie-file): possibly not a real model of the axioms
QUANTIFIED_CANDIDATE = "candidate model under quantified axioms"


@dataclass
class Outcome:
    status: str  # "sat" | "unsat" | "unknown" | "timeout"
    reason: str = ""
    # after "unsat" of a query given literals as assumptions (``oneshot.OneShotBackend``'s
    # ``assumed``): the printed literals the solver's proof needed, a subset of those
    # (``get-unsat-assumptions``); None when not asked
    core: frozenset | None = None

    @property
    def definite(self) -> bool:
        return self.status in ("sat", "unsat")


def query_limit(timeout: float | None, limit: float | None) -> float | None:
    """Seconds a query may take: the smaller of the back end's ``timeout`` and the query's
    ``limit`` (None or 0 = no bound)."""
    bounds = [b for b in (timeout, limit) if b]
    return min(bounds) if bounds else None


def assert_terms(solver: z3.Solver, terms: list) -> None:
    """Assert the Boolean z3 ``terms`` (of the solver's context) in ``solver`` through z3's C
    API: ``Solver.add`` casts and checks each term in Python, about half the time of
    asserting a VC (sync-loop 50: 7380 constraints, 0.14 s by ``add``, 0.07 s here), paid
    by every back end and every region solver (a hundred per run at depth 50)."""
    ref, handle = solver.ctx.ref(), solver.solver
    for t in terms:
        z3.Z3_solver_assert(ref, handle, t.as_ast())


def python_value(v: z3.ExprRef) -> bool | int | str:
    """A model value as Python: bool, int (bit-vectors unsigned), or its text."""
    if z3.is_true(v):
        return True
    if z3.is_false(v):
        return False
    if z3.is_bv_value(v) or z3.is_int_value(v):
        return v.as_long()
    return str(v)


class Backend(Protocol):
    """A solver back end over one VC (``vcgen.vc.encode.VC``)."""
    name: str
    queries: int

    def check(self, assumptions: list, limit: float | None = None) -> Outcome:
        """Is the goal satisfiable under the assumption literals (z3 Booleans of the VC)?
        ``limit``: seconds for this query if shorter than the back end's timeout (a query
        it stops answers ``timeout``; ``vcgen.vc.solvers.split`` then splits it)."""
        ...

    def values(self, terms: list) -> list[Any]:
        """Values (``python_value``) of z3 terms of the VC in the model of the last ``sat``.
        RuntimeError when the last query was not sat."""
        ...

    def cancel(self) -> None:
        """Stop a ``check`` in progress on another thread."""
        ...

    def close(self) -> None:
        ...


class Racer(Backend, Protocol):
    """A back end that can race in a portfolio: ``prepare`` translates the query on the
    caller's thread, ``run`` answers it on another."""

    def prepare(self, assumptions: list) -> Any:
        ...

    def run(self, prepared: Any, limit: float | None = None) -> Outcome:
        ...


def races_every_query(backend: Backend) -> bool:
    """Whether ``backend``, or a back end it wraps (``Wrapper.inner``), sends every query
    to its solver processes (``escalating.EscalatingBackend.racing``): a VC that z3 in
    process did not decide quickly."""
    b: Any = backend
    while b is not None:
        if getattr(b, "racing", False):
            return True
        b = getattr(b, "inner", None)
    return False


class Wrapper:
    """A back end that wraps ``inner`` and changes how ``check`` is answered only
    (``trace.TracedBackend``, ``regional.RegionalBackend``): models, cancelling and
    closing are the wrapped back end's."""
    inner: Backend

    def values(self, terms: list) -> list[Any]:
        return self.inner.values(terms)

    def cancel(self) -> None:
        self.inner.cancel()

    def close(self) -> None:
        self.inner.close()
