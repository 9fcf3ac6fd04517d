"""Thread twins: one Houdini model, read with the two threads' roles swapped, refutes the
twin of a candidate it refuted (docs/design.md section 6).

The two-thread program (paper 001 section 3, GPUVerify's lock-step reduction) names thread
1's copy of a variable ``x$1`` and thread 2's ``x$2``; candidates come in pairs that differ
only by that swap (``(cur$1 == 10) ==> !(i$1 < lid$1)`` and its ``$2`` twin).  A model
falsifying one of a pair is usually the other's counterexample with the threads' roles
swapped, but the solver answers one model per query, so Houdini (paper 003 section 2.2)
paid a second query for the twin (AMD AESEncryptDecrypt kernel2: ten slices of two
queries each, one per twin).

After a sat answer whose model falsified a candidate with a live twin, ``ThreadSwap``
reads the model's values of the thread variables the twin's checks read (``x$1@3``, the
incarnations at the check) and of the program's constants (launch ids, arguments), swaps
the threads' roles (``x$1@3`` takes the model's ``x$2@3``), and asks z3 for a model of
the twin's Houdini query with those pinned; everything else (the path to the check,
arrays, logs) is left to z3, which the pins guide to the swapped counterexample.
Sound without any symmetry of the VC (the logs and ``{:thread 1}`` asserts are not
symmetric): only a real model of a Houdini query drops a candidate
(``houdini._falsified``), and a pinned query that is unsat, unknown or slow drops
nothing.  Pinning every thread variable instead (4000 on AES kernel2) cost more than
the query saved: reading 4000 values from a solver process took 0.6-1 s.
"""
from __future__ import annotations

import re
from typing import Any

import z3

from .. import il
from ..vc import encode as vcmod
from ..vc.solvers.inprocess import Z3Backend

# A thread variable of the two-thread program, possibly an incarnation (``passify``):
# ``base$1``, ``base$2@7``; ``base`` may itself contain ``$1`` (``$x.fca$1$2``: thread 2).
_THREAD_NAME = re.compile(r"^(?P<base>.+)\$(?P<thread>[12])(?P<incarnation>@\d+)?$")

# Seconds the pinned query may take at least (``ThreadSwap.refute``; else the answer's
# time: it saves about one such query).  AES kernel2, 19 pins: 0.7-1.2 s at load 15.
PINNED_LIMIT = 0.5


def swapped_name(name: str) -> str | None:
    """The other thread's copy of a thread variable (``x$1@3`` -> ``x$2@3``), None for a
    name that belongs to no thread."""
    m = _THREAD_NAME.match(name)
    if m is None:
        return None
    return f"{m['base']}${3 - int(m['thread'])}{m['incarnation'] or ''}"


def swap_threads(e: il.Expr) -> il.Expr:
    """``e`` with every thread variable renamed to the other thread's copy."""
    names = {n: swapped_name(n) for n in il.free_vars(e)}
    return il.substitute(e, {n: il.Var(s) for n, s in names.items() if s is not None})


def twin_guards(checks: list) -> dict[str, str]:
    """Guard -> the guard of its thread twin at the same loop head: the candidate whose
    expression is this one's with the threads swapped (``swap_threads``), both read from
    their first check (the loop's entry check, ``houdini.loop_slices``).  A candidate
    equal to its own swap (``x$1 == x$2`` reads ``x$2 == x$1``) has no twin unless that
    text is another candidate."""
    first: dict = {}
    for c in checks:
        if c.is_candidate and c.site is not None and c.guard not in first:
            first[c.guard] = c.site
    by_expr: dict = {}
    for g, site in first.items():
        body = _body(site.expr, g)
        if body is not None:
            by_expr.setdefault((site.block, body), g)
    twins: dict = {}
    for g, site in first.items():
        body = _body(site.expr, g)
        if body is None:
            continue
        other = by_expr.get((site.block, swap_threads(body)))
        if other is not None and other != g:
            twins[g] = other
    return twins


def _body(e: il.Expr, guard: str) -> il.Expr | None:
    """``e`` of a candidate check ``guard ==> e``."""
    if isinstance(e, il.BinOp) and e.op == "==>" and e.left == il.Var(guard):
        return e.right
    return None


class ThreadSwap:
    """Pinned queries over ``vc`` (module docstring): ``refute`` -> a z3 back end holding
    a model of a Houdini query, or None.  Its z3 solvers are in ``vc``'s context (used on
    the caller's thread only); the thread-variable pairs are made on first use."""

    def __init__(self, vc: vcmod.VC, timeout: float | None = None):
        self.vc = vc
        self.timeout = timeout
        self._pairs: list | None = None
        # the program's constants (launch ids, kernel arguments): pinned in every query
        self.launch = set(vc.translator.program.consts())
        self.queries = 0

    def pairs(self) -> list[tuple[Any, Any]]:
        """``(x$1, x$2)`` and ``(x$2, x$1)`` for every scalar thread constant of the VC
        whose other copy is also one (same sort): pin the first to the second's value.
        Read from the translator (``encode.Translator.consts``), not by walking the VC's
        terms (0.5-2 s in Python on AESEncryptDecrypt kernel2)."""
        if self._pairs is None:
            # the translator's constants: every variable and incarnation the VC names
            consts = dict(self.vc.translator.consts)
            self._pairs = []
            for name, c in consts.items():
                other = consts.get(swapped_name(name) or "")
                if other is not None and _scalar(c.sort()) and other.sort() == c.sort():
                    self._pairs.append((c, other))
        return self._pairs

    def refute(self, backend, assumptions: list, limit: float | None,
               states: set | None = None) -> Z3Backend | None:
        """After a sat answer of ``backend``: z3 asked ``assumptions`` (a Houdini query over
        the twins' checks) with each thread constant named in ``states`` (all when None)
        pinned to its other copy's value in ``backend``'s model; the z3 back end when it
        answered sat (its model is a model of that query, read with ``values``), else
        None.  ``limit``: seconds for the pinned query (at least ``PINNED_LIMIT``).  A
        fresh z3 solver with the assumptions and pins as facts (``Z3Backend``'s
        ``facts``), which its preprocessing propagates."""
        if "Q" in self.vc.translator.features:
            return None  # quantified axioms: z3's sat may be a candidate model only
        pairs = [(c, o) for c, o in self.pairs() if states is None or c.decl().name() in states]
        if not pairs:
            return None
        try:
            values = backend.values([other for _, other in pairs])
        except Exception:  # a back end that cannot read some value: only the shortcut is lost
            return None
        pins = [c == _literal(c.sort(), v) for (c, _), v in zip(pairs, values)
                if isinstance(v, (bool, int))]
        self.queries += 1
        solver = Z3Backend(self.vc, self.timeout, facts=[*assumptions, *pins])
        out = solver.check([], max(PINNED_LIMIT, limit or 0.0))
        return solver if out.status == "sat" else None


def _scalar(sort: z3.SortRef) -> bool:
    return sort.kind() in (z3.Z3_BOOL_SORT, z3.Z3_BV_SORT, z3.Z3_INT_SORT)


def _literal(sort: z3.SortRef, value: bool | int) -> z3.ExprRef:
    if sort.kind() == z3.Z3_BOOL_SORT:
        return z3.BoolVal(bool(value), sort.ctx)
    if sort.kind() == z3.Z3_BV_SORT:
        return z3.BitVecVal(value, sort)
    return z3.IntVal(value, sort.ctx)
