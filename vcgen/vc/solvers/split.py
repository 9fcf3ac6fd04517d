"""Query splitting: a query over many checks that the solver does not decide within a
limit is asked again as one query per check (or per part of its checks, recursively), on
the same warm back end (docs/design.md section 6).

The goal of a VC under assumption literals is the disjunction of the enabled checks'
failures (``encode.VC.assumptions``): the whole query is unsat exactly when every part is
unsat, and a model of a part is a model of the whole (the checks outside the part are
assumed, which only restricts the models).  So splitting is sound and complete: ``unsat``
only if every part is unsat; the first ``sat`` part is the answer, and the back end keeps
its model for ``values``; an undecided part leaves the whole undecided.  A single check
that is still undecided is asked once more with the back end's full timeout.

As Faial verifies its symbolic traces by independent SMT queries (paper 002 section 4.2),
the checks of one VC can be decided separately: one query over every race check of a loop
nest can be far harder than the queries of its checks together (PolyBench trisolv: a
69-assertion query took 168 s, its assertions one by one about 12 s together).  One query per
check beats halving there: halving pays the limit again at every level on the way to
each hard check (trisolv final check: 10 s limit, halving 131 s, one per check 23 s).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .backend import Backend, Outcome


# Seconds a query over several checks may take before it is split.  Above most joint
# queries the corpus decides (PolyBench gemm's per-loop final-check queries take <= 5 s on
# a loaded machine), which are asked once, as before; a split costs at most this much
# more than the joint query (gpgpu-sim LPS: its 14 s joint query is split, final check
# 17.8 s -> 21.6 s loaded, 18.4 s -> 13.4 s quieter), a stuck one saves minutes (trisolv).  Measured on
# a loaded machine, 20 s was worse for both LPS (33 s vs 27 s) and trisolv (72 s vs 46 s).
SPLIT_AFTER = 10.0
SPLIT_WAYS: int | None = None  # parts of a split query; None = one per check


@dataclass
class SplitStats:
    """How often ``check_split`` split (``splits``) and asked (``queries``)."""
    queries: int = 0
    splits: int = 0


def check_split(backend: Backend, assumptions_of: Callable[[Sequence[int]], list],
                checks: Sequence[int], limit: float | None = SPLIT_AFTER,
                stats: SplitStats | None = None, ways: int | None = SPLIT_WAYS) -> Outcome:
    """Is some check of ``checks`` (VC check indices, in program order) falsifiable?

    ``assumptions_of(part)``: the assumption literals that enable exactly the checks of
    ``part`` (e.g. ``lambda p: vc.assumptions(set(p), alive)``).  The query over all of
    ``checks`` is asked with ``limit`` seconds (None = the back end's timeout only); when it
    times out, it is split into ``ways`` parts of consecutive checks (None = one per
    check), each asked the same way, in order, stopping at the first part that is not
    unsat (see the module docstring).  Returns ``unsat``, ``sat`` (the back end's model is
    that part's), or the first undecided part's outcome.
    """
    stats = stats if stats is not None else SplitStats()
    stats.queries += 1
    if len(checks) <= 1:
        return backend.check(assumptions_of(checks))
    out = backend.check(assumptions_of(checks), limit)
    if out.status != "timeout":
        return out
    stats.splits += 1
    for part in _parts(checks, ways):
        out = check_split(backend, assumptions_of, part, limit, stats, ways)
        if out.status != "unsat":
            return out
    return out


def _parts(checks: Sequence[int], ways: int | None) -> list[Sequence[int]]:
    """``checks`` cut into ``ways`` (at least 2; None = ``len(checks)``) runs of nearly
    equal length."""
    n = len(checks) if ways is None else max(2, min(ways, len(checks)))
    cuts = [len(checks) * k // n for k in range(n + 1)]
    return [checks[a:b] for a, b in zip(cuts, cuts[1:])]
