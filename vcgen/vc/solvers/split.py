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

The limit adapts to the kernel (``SplitLimit``): a joint query first gets ``SPLIT_FIRST``
seconds, and ``SPLIT_FACTOR`` times the slowest joint query of the kernel decided so far
when that is longer, at most ``SPLIT_AFTER``; ``SPLIT_AFTER`` once a query found a model
(the search for further errors, ``SplitLimit.record``).  A joint query that is not
decided in a few seconds is rarely decided soon after (parboil sad: 55 s with yices,
undecided by z3 in 60 s; its 64 checks one by one 8 s), while the joint queries the
corpus does decide take well under ``SPLIT_FIRST`` (PolyBench gemm, syrk, gemver:
0.1-1.4 s, 2 s on a loaded machine); one query of the kernel that takes longer (a slow
machine, a hard loop) lets the next ones wait longer before paying for a split, which is
dear on large easy groups (gemm split at once: final check 1.9 -> 5.4 s; gemver 3.7 ->
9.8 s).  Sound whatever the limit: it only decides when to split.

The parts of a split may first go to a ``PartProver`` (the final check's
``sliced.SliceProver``: each part over its cone of influence), whose ``unsat`` alone is
used; any other answer leaves the part to the back end, which then gives the answer and
the model.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from .backend import Backend, Outcome


# Seconds a query over several checks may take before it is split: at most ``SPLIT_AFTER``
# (also Houdini's limit, ``houdini.SPLIT_AFTER``).  The final check starts at
# ``SPLIT_FIRST`` (``SplitLimit``).  Final check, joint query cut at 10 s -> 2 s, verify
# stage on a loaded machine: parboil sad 25.7 -> 16.7 s, trisolv kernel0 18.1 -> 10.1 s,
# fluidsGL advectVelocity 18.3 -> 8.0 s, CUDA BlackScholes 22.0 -> 5.7 s, s3d gr_base
# 15.9 -> 6.2 s, stereoDisparity 14.1 -> 6.8 s (its 10 s joint query), LPS 13.8 -> 4.6 s.
SPLIT_AFTER = 10.0
SPLIT_FIRST = 2.0
SPLIT_FACTOR = 3.0
SPLIT_WAYS: int | None = None  # parts of a split query; None = one per check
# ``Outcome.reason`` of a part's unsat that a ``PartProver``'s own query won in ``race``
PROVER_WON = "proved by the prover's query in its race with the back end"


class PartProver(Protocol):
    """Something that may prove a part of a split query cheaper than the back end
    (``sliced.SliceProver``): only its ``unsat`` counts."""

    def prove(self, checks: Sequence[int], assumptions: list, limit: float | None = None,
              assumed: frozenset[str] = frozenset()) -> Outcome:
        """``unsat`` only if the part ``checks`` is proved under ``assumptions``; with
        ``assumed`` (Houdini guard names), its ``core`` may name those the proof needed
        (``sliced.SliceProver.prove``)."""
        ...

    def race(self, checks: Sequence[int], backend: Backend, assumptions: list,
             limit: float | None = None) -> Outcome:
        """``backend.check(assumptions, limit)`` for the part ``checks`` that ``prove`` did
        not prove, possibly raced against the prover's own query still searching
        (``sliced.SliceProver.race``); only the prover's unsat may replace the back end's
        answer."""
        ...

    def reads(self, checks: Sequence[int]) -> frozenset[str] | None:
        """The Houdini guards the formula of ``prove``'s query for the part ``checks``
        reads, besides its assumption literals (None: any of them;
        ``sliced.SliceProver.reads``)."""
        ...


@dataclass
class SplitStats:
    """How often ``check_split`` split (``splits``) and asked (``queries``)."""
    queries: int = 0
    splits: int = 0


@dataclass
class SplitLimit:
    """The adaptive limit of a kernel's joint queries (module docstring): ``first`` seconds,
    or ``factor`` times ``slowest`` (seconds of the slowest joint query decided so far,
    ``record``) when longer, at most ``cap``; ``cap`` once some query found a model
    (``has_model``) when ``cap_on_model``.  Share one per kernel and back end (the final
    check's VCs).  Houdini's limit (``houdini.HOUDINI_SPLIT_FIRST``) has ``cap_on_model``
    off: its models are the search itself, not the end of a verdict.

    ``cones_first``: the last split of a query ``check_split`` asked with a prover had
    every part proved by it, in less time than the joint query was given; the next query
    then goes to the prover part by part without a joint query first (``check_split``)."""
    first: float = SPLIT_FIRST
    factor: float = SPLIT_FACTOR
    cap: float = SPLIT_AFTER
    slowest: float = 0.0
    has_model: bool = False
    cap_on_model: bool = True
    cones_first: bool = False

    def seconds(self, cased: bool = False) -> float:
        """The limit of the next joint query; ``first`` for a ``cased`` one (a query over
        a check the prover asks case by case, ``check_split``) unless a model was found."""
        if self.has_model:
            return self.cap
        if cased:
            return min(self.cap, self.first)
        return min(self.cap, max(self.first, self.factor * self.slowest))

    def record(self, seconds: float, out: Outcome) -> None:
        """A query (joint, or a split's part) took ``seconds`` and answered ``out``: a
        decided joint query raises the limit of the next (a timeout says nothing about
        how long a decided query takes); a model sets it to ``cap``.  After a model the
        checker looks for further errors, one joint query per error, each sat until the
        last: a split scans the checks in order up to the failing one, and doing that per
        error cost far more than waiting (parboil splitSort, 20 errors: 43 s with a 10 s
        limit, over 120 s (1758 queries) split after 2 s)."""
        if out.definite:
            self.slowest = max(self.slowest, seconds)
        if out.status == "sat" and self.cap_on_model:
            self.has_model = True


def check_split(backend: Backend, assumptions_of: Callable[[Sequence[int]], list],
                checks: Sequence[int], limit: float | SplitLimit | None = None,
                stats: SplitStats | None = None, ways: int | None = SPLIT_WAYS,
                prover: PartProver | None = None, cased: bool = False) -> Outcome:
    """Is some check of ``checks`` (VC check indices, in program order) falsifiable?

    ``assumptions_of(part)``: the assumption literals that enable exactly the checks of
    ``part`` (e.g. ``lambda p: vc.assumptions(set(p), alive)``).  The query over all of
    ``checks`` is asked with ``limit`` seconds (a ``SplitLimit``: its current value, and it
    learns the query's time and whether a model was found; None = a fresh ``SplitLimit``); when it times out, it is split
    into ``ways`` parts of consecutive checks (None = one per check), each asked the same
    way, in order, stopping at the first part that is not unsat (see the module
    docstring).  A part of a split is first offered to ``prover`` (e.g.
    ``sliced.SliceProver``, which asks it over its cone of influence), whose ``unsat``
    proves it; any other answer of the prover sends the part on to ``backend`` (a single
    check through ``prover.race``: the prover's query, if it ran past its limit, goes on
    searching while the back end is asked, and the first unsat of the two wins).  With a
    prover, a ``SplitLimit`` whose ``cones_first`` is set (by the last split, all its parts
    proved by the prover within the joint query's limit) skips the joint query and starts
    with the parts.  Returns ``unsat``, ``sat`` (the back end's model is that part's), or
    the first undecided part's outcome.

    ``cased``: ``checks`` hold a check that ``prover`` asks case by case (``encode.VC.cases``,
    known to the caller): the joint query gets the ``SplitLimit``'s ``first`` seconds, not
    the limit the kernel's slower queries stretched, and its split's part holding that
    check goes to the prover's cases right after.  Such a check keeps a long chain of log
    updates unsplit in the formula, which the solvers handle badly in a joint query:
    PolyBench heat-3d kernel0's final-check group holding one timed out at its limit in
    every run (7.7 s, 10 s; 12.6 s without the cased check), then the cases took
    0.3-2.3 s each.  Groups whose joint query is easy (bench-scaling's sync-loop, a cased
    invariant at each loop) are decided well within ``first`` and are not split.
    """
    stats = stats if stats is not None else SplitStats()
    limit = SplitLimit() if limit is None else limit
    if len(checks) <= 1:
        stats.queries += 1
        return backend.check(assumptions_of(checks))
    seconds = limit.seconds(cased and prover is not None) if isinstance(limit, SplitLimit) else limit
    learns = limit if isinstance(limit, SplitLimit) and prover is not None else None
    start = time.monotonic()
    if learns is None or not learns.cones_first:  # else straight to the parts
        stats.queries += 1
        out = backend.check(assumptions_of(checks), seconds)
        if isinstance(limit, SplitLimit):
            limit.record(time.monotonic() - start, out)
        if out.status != "timeout":
            return out
    stats.splits += 1
    parts_start = time.monotonic()
    by_prover = True
    raced = 0.0  # seconds of the parts the prover's query proved in its race
    for part in _parts(checks, ways):
        part_start = time.monotonic()
        if prover is not None and prover.prove(part, assumptions_of(part), SPLIT_AFTER).status == "unsat":
            stats.queries += 1
            continue
        if prover is not None and len(part) == 1:
            # asked whole as ``check_split`` asks one check, against the prover's query of
            # it if that is still searching
            stats.queries += 1
            out = prover.race(part, backend, assumptions_of(part))
            if out.status == "unsat" and out.reason == PROVER_WON:
                raced += time.monotonic() - part_start
                continue
        else:
            out = check_split(backend, assumptions_of, part, limit, stats, ways, prover)
        by_prover = False
        if learns is not None:
            learns.cones_first = False
        if out.status != "unsat":
            if isinstance(limit, SplitLimit) and out.status == "sat":
                limit.record(time.monotonic() - start, out)
            return out
    if learns is not None:
        # every part proved by the prover in less time than a joint query gets: the next
        # joint query would most likely time out as this one did (shoc s3d gr_base: two
        # groups of the final check, each a 2.6 s joint timeout, then 55-118 cones proved
        # in 1.6-3.8 s on a loaded machine).  A part the prover's query proved only in
        # its race (``PROVER_WON``) is one neither its cone query within its limit nor
        # the back end over the whole VC proved sooner; the joint query, which must
        # refute that check too, over the whole VC, is no quicker: it counts as the
        # prover's, its time not against the limit (CUDA shfl_vertical_shfl: one hard
        # part of 11, proved in its race 1-7 s after its cone query's 2 s; the next
        # group's joint query then timed out too, 2.0-2.3 s, before its parts were
        # proved in 0.3-1.1 s)
        learns.cones_first = by_prover and (seconds is None or time.monotonic() - parts_start - raced <= seconds)
    return Outcome("unsat")  # every part unsat (by the prover or the back end)


def _parts(checks: Sequence[int], ways: int | None) -> list[Sequence[int]]:
    """``checks`` cut into ``ways`` (at least 2; None = ``len(checks)``) runs of nearly
    equal length."""
    n = len(checks) if ways is None else max(2, min(ways, len(checks)))
    cuts = [len(checks) * k // n for k in range(n + 1)]
    return [checks[a:b] for a, b in zip(cuts, cuts[1:])]
