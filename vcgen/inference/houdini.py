"""Houdini: the largest inductive subset of the candidate invariants (paper 003 section 2.2).

Candidates are asserts ``assert {:candidate "rN"} _bK ==> e;`` at loop heads, ``_bK`` a
``const {:existential true} _bK: bool``.  After loop cutting, each candidate is checked on
loop entry and on every back edge.  Starting from all candidates, each round queries, loop
by loop (``loop_slices``), the checks of the alive candidates of that loop (guards of dead
ones assumed false, ordinary assertions assumed, not checked); every candidate whose check
fails in a model is dropped, and that loop is queried again until it drops nothing
(``_settle_slice``); repeat until every loop's last query was unsat under the same
candidates (paper 003 section 2.2.2).  Soundness under solver trouble: if a loop's query is
``unknown``/timeout (or over its limit, 3-10 s: ``HOUDINI_SPLIT_FIRST``), its alive
candidates are queried alone, each dropped unless its query is unsat, until a model drops
some (then the loop is queried jointly again); the fixpoint is reached only when every
alive candidate was proved in the same round (docs/design.md section 6).  Such a split
waits for a round that has dropped nothing yet, and a loop whose split found no model is
split at once next time (``_ask_slice``).

A candidate's unsat one-candidate query is kept (``_proof_kept``): asked again under a
smaller alive set, it is not re-asked when nothing was dropped since, or when its proof
was over its cone and none of the guards dropped since is in its unsat core or read by
the cone's formula (then the proof still holds under the smaller alive set).

All rounds use the same solver instance and VC (assumption literals only).  In that VC a
candidate check is not assumed by the commands after it (``encode.build_vc``,
``independent_candidates``): one model then falsifies every candidate that fails on its
path, not only the first, so a round drops several.  Sound: the first failing candidate
of a path fails from states satisfying the alive candidates, hence every subset of them;
each later one fails on a path whose earlier failed asserts are candidates now dropped,
a path of the program with those candidates removed, again from states satisfying the
alive ones.  The unsat (fixpoint) query is unchanged: checking A then B assuming A is
checking A and B.

Refutation engines (paper 003 section 5, ``vcgen.refutation``) may run alongside: before
each round Houdini drops the candidates they refuted (trusted: they under-approximate),
and tells them what it dropped; after each sat answer a DYN run from the model's inputs
may drop more (``_guided_run``).  The fixpoint is the same (the largest inductive subset
is unique); only the path to it, and its cost, change.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from .. import il
from ..report import progress
from ..vc import encode as vcmod
from ..vc.query import program_vc
from ..vc.solvers import split
from ..vc.solvers.sliced import ConeModel, slice_prover
from ..vc.solvers.backend import Outcome, query_limit, races_every_query
from ..vc.solvers.conesession import ConeSession
from ..vc.solvers.split import PartProver
from ..vc.solvers.select import make_backend
from . import refutation
from .twins import ThreadSwap, twin_guards


FIRST_REFUTATION_WAIT = 1.0  # seconds Houdini waits for the engines before its first query

# Seconds a slice query over several candidates may take before Houdini asks its candidates
# one by one (``_check_slice``): at most ``SPLIT_AFTER``.  The fixpoint query of CUDA
# BlackScholes (26 candidates, remainders by a grid stride that is not a power of two)
# took 62 s with yices and 107 s with z3; its candidates one by one 14.5 s with yices.
# The final check's cap (``split.SPLIT_AFTER``), for the same reasons (most joint queries
# of the corpus answer well below it).
SPLIT_AFTER = split.SPLIT_AFTER
# The limit adapts to the kernel as the final check's (``split.SplitLimit``): a joint
# query first gets ``HOUDINI_SPLIT_FIRST`` seconds, then ``split.SPLIT_FACTOR`` times the
# slowest joint query of the kernel decided so far, at most ``SPLIT_AFTER``.  With a flat
# 10 s, CUDA BlackScholes, fluidsGL advectVelocity and s3d gr_base each waited 10 s for an
# unsat joint query that then timed out, and proved its candidates one by one in 8-11 s
# (machine at load 13).  Longer than the final check's 2 s: Houdini's joint queries are
# mostly sat, and a split of a sat query asks candidates until one has a model.
HOUDINI_SPLIT_FIRST = 3.0


@dataclass
class RuleStats:
    generated: int = 0
    proved: int = 0
    refuted: int = 0  # dropped because a refutation engine refuted them


@dataclass
class HoudiniStats:
    """Per candidate rule (``"r3"``) counts, plus totals; ``seconds`` is wall time."""
    rules: dict = field(default_factory=dict)  # rule -> RuleStats
    rounds: int = 0
    queries: int = 0
    dropped_on_unknown: int = 0
    splits: int = 0  # slice queries over the limit, asked again one candidate at a time
    slow: set = field(default_factory=set)  # guards over a split's first-pass limit once
    # rule -> (seconds, queries) of the one-candidate queries that found no model
    # (``_cheapest``); a model counts as a query of 0 s
    rule_seconds: dict = field(default_factory=dict)
    seconds: float = 0.0
    refuted_by: dict = field(default_factory=dict)  # guard -> engine that refuted it
    refutation: str = "none"  # the plan (``refutation.Plan``) that ran
    refutation_errors: list = field(default_factory=list)  # engines that failed (diagnostics)
    twin_queries: int = 0  # pinned queries for thread twins (``_twin_run``)
    twins: int = 0  # candidates dropped by the models of those queries
    cone_proofs: int = 0  # one-candidate queries proved over their cones (``_cone_answer``)
    cone_models: int = 0  # one-candidate queries answered by a model of their cone (``_one_by_one``)
    cone_joint: int = 0  # slice queries answered over their cones (``_joint_query``)
    uncones: set = field(default_factory=set)  # guards whose cone query was not unsat once
    # guards of slices whose last joint query was over its limit and whose split found no
    # model: their next query is split at once (``_ask_slice``)
    split_first: set = field(default_factory=set)
    joint_skips: int = 0  # joint queries not asked for that reason
    # guards of slices whose joint query was sat once (answered so, or a split of it ended
    # at a model: ``_ask_slice``), and of slices whose
    # joint query then went over its limit: their splits go on past a model
    # (``_one_by_one``'s ``through``) and their next query is split at once
    sat_jointly: set = field(default_factory=set)
    split_through: set = field(default_factory=set)
    deferred: int = 0  # splits put off to a round that has dropped nothing yet (``_ask_slice``)
    kept_proofs: int = 0  # one-candidate proofs still valid when asked again (``_proof_kept``)
    session_queries: int = 0  # slice queries answered by their loop's incremental cone process

    @property
    def generated(self) -> int:
        return sum(r.generated for r in self.rules.values())

    @property
    def proved(self) -> int:
        return sum(r.proved for r in self.rules.values())

    def lines(self) -> list[str]:
        """Human-readable summary (``--infer-info``)."""
        out = [f"Houdini: {self.proved} of {self.generated} candidates proved in {self.rounds} "
               f"rounds, {self.queries} queries, {self.seconds:.2f} s"]
        if self.splits:
            out.append(f"Houdini: {self.splits} slice queries split into one query per "
                       f"candidate after their limit ({HOUDINI_SPLIT_FIRST:g}-{SPLIT_AFTER:g} s)")
        if self.joint_skips or self.deferred:
            out.append(f"Houdini: {self.deferred} splits put off to a round without drops, "
                       f"{self.joint_skips} slices split at once (their last joint query was "
                       "over its limit, their split found no model)")
        if self.cone_joint:
            out.append(f"Houdini: {self.cone_joint} slice queries answered over their cones "
                       f"({self.session_queries} by their loop's incremental process)")
        if self.kept_proofs:
            out.append(f"Houdini: {self.kept_proofs} one-candidate queries not asked again: "
                       "their proofs need none of the candidates dropped since")
        if self.twin_queries:
            out.append(f"Houdini: {self.twin_queries} thread-swapped models asked, "
                       f"{self.twins} candidates dropped by them")
        if self.dropped_on_unknown:
            out.append(f"Houdini: {self.dropped_on_unknown} candidates dropped because the "
                       "solver returned unknown or timed out")
        if self.refutation != "none":
            by: dict = {}
            for engine in self.refuted_by.values():
                by[engine] = by.get(engine, 0) + 1
            detail = ", ".join(f"{refutation.DISPLAY.get(e, e)} {n}" for e, n in sorted(by.items())) or "none"
            out.append(f"Houdini: refutation engines {self.refutation}: "
                       f"{len(self.refuted_by)} candidates refuted ({detail})")
            out += [f"Houdini: refutation engine failed: {e}" for e in self.refutation_errors]
        for rule in sorted(self.rules, key=_rule_key):
            r = self.rules[rule]
            extra = f", refuted by engines {r.refuted}" if r.refuted else ""
            out.append(f"  {rule}: generated {r.generated}, proved {r.proved}{extra}")
        return out

    def as_dict(self) -> dict[str, Any]:
        return {"generated": self.generated, "proved": self.proved, "rounds": self.rounds,
                "queries": self.queries, "dropped_on_unknown": self.dropped_on_unknown,
                "splits": self.splits, "kept_proofs": self.kept_proofs,
                "twin_queries": self.twin_queries, "twins": self.twins,
                "seconds": round(self.seconds, 3), "refutation": self.refutation,
                "refuted_by_engines": len(self.refuted_by),
                "rules": {k: {"generated": v.generated, "proved": v.proved, "refuted": v.refuted}
                          for k, v in sorted(self.rules.items(), key=lambda kv: _rule_key(kv[0]))}}


def _rule_key(rule: str):
    digits = "".join(ch for ch in rule if ch.isdigit())
    return (int(digits) if digits else 1 << 30, rule)


class _Proof(NamedTuple):
    """An unsat one-candidate query (``_one_by_one``): the ``alive`` guards it assumed
    (a frozenset), and whether it was asked over the candidate's cone (``cone``: the
    prover's unsat; else the back end's, over the whole VC).  ``core``: the alive guards
    the cone query's proof needed (its unsat core, ``Outcome.core``; None if not known).
    ``reads``: the guards the cone query's formula reads (``sliced.SliceProver.reads``),
    found when first needed (``_proof_kept``)."""
    alive: frozenset
    cone: bool
    core: frozenset | None = None
    reads: frozenset | None = None


class Twins(NamedTuple):
    """Guard -> its thread twin's guard (``twins.twin_guards``), and the pinned queries
    that look for the twins' models (``twins.ThreadSwap``)."""
    of: dict
    swap: ThreadSwap


@dataclass
class _Search:
    """What one Houdini run's slice queries share: the VC and its back end, the ``alive``
    guards (shrinking), the candidate checks ``by_guard``, the run's ``stats``, the
    refutation engines (``refuter``), the thread twins (``_twin_run``), the kernel's
    joint-query ``pace`` (``split.SplitLimit``) and the cone ``prover``
    (``sliced.SliceProver``), each of these four optional; and the ``proofs`` of
    one-candidate queries (``_proof_kept``)."""
    vc: vcmod.VC
    backend: Any
    alive: set
    by_guard: dict
    stats: HoudiniStats
    refuter: Any = None
    twins: Twins | None = None
    pace: split.SplitLimit | None = None
    prover: PartProver | None = None
    proofs: dict = field(default_factory=dict)  # guard -> _Proof
    # incremental per-loop cone processes for the joint queries (``_joint_query``),
    # made on first use; False once known unavailable
    sessions: Any = None


def houdini_fixpoint(vc: vcmod.VC, backend, stats: HoudiniStats | None = None,
                     refuter=None, prover: PartProver | None = None) -> set[str]:
    """Names of the guards of the candidates that survive (an inductive set).

    ``backend`` is a solver back end over ``vc`` (see ``vcgen.vc.solvers``); ``refuter`` (a
    ``refutation.Refuter``) supplies candidates refuted by engines, dropped before each
    round (recorded in ``stats.refuted_by``), and learns what Houdini drops.

    A round queries the candidates of one loop at a time (``loop_slices``: the checks of
    the other loops' candidates are off, their candidates still assumed at their heads):
    on loop nests one query over every check is far harder for the solver than the
    queries of its slices together (PolyBench gemm: the whole query undecided after
    300 s, each slice well under a second).  The fixpoint is reached when every slice
    was unsat under the same alive candidates: the goal is the disjunction of the slices'
    goals, so that is the unsat of the whole query.  A slice settled after the last drop
    is not asked again: its last query was that proof (a round that drops candidates only
    in its first slice is the last; ``make bench-scaling`` loop nest of depth 50: one round
    of 51 queries instead of two of 101 when the solver drops a candidate of the outermost
    loop).  Only the slices settled before a drop are asked again.

    ``prover`` (``sliced.SliceProver``, or None): a split's one-candidate queries are
    offered to it first, over their cones (``_cone_answer``), and so are the slice
    queries once the back end races every query (``_joint_query``): its unsat is a
    proof, its model (``sliced.ConeModel``) drops what it falsifies.
    """
    stats = stats if stats is not None else HoudiniStats()
    by_guard = candidate_checks(vc)
    alive = set(by_guard)
    slices = loop_slices(vc)
    # seconds before a joint query is split: the kernel's pace, and per slice a floor
    # that doubles when a split of the slice ended at a model (``_check_slice``)
    pace = split.SplitLimit(first=HOUDINI_SPLIT_FIRST, cap_on_model=False)
    limits = [0.0] * len(slices)
    # len(alive) when each slice was last settled (proved unsat): alive only shrinks, so
    # the proof still holds while the length is the same
    proved_at: list[int | None] = [None] * len(slices)
    twins = Twins(twin_guards(vc.checks), ThreadSwap(vc, getattr(backend, "timeout", None)))
    search = _Search(vc, backend, alive, by_guard, stats, refuter, twins, pace, prover)
    try:
        _rounds(search, slices, proved_at, limits)
    finally:
        if search.sessions:
            search.sessions.close()
    return alive


def _rounds(search: _Search, slices: list, proved_at: list, limits: list) -> None:
    """``houdini_fixpoint``'s rounds over ``slices`` until the fixpoint."""
    alive, stats, refuter = search.alive, search.stats, search.refuter
    while alive:
        if refuter is not None:
            _take_refuted(refuter, alive, stats)
            if not alive:
                break
        before = set(alive)
        stats.rounds += 1
        # the slices to be split at once last: a drop found by another's joint query
        # would undo their proofs (``_ask_slice``, ``defer``)
        for i in sorted(range(len(slices)), key=lambda i: slices[i] & alive <= stats.split_first):
            part = slices[i]
            if proved_at[i] == len(alive):
                continue  # proved under the current alive set: asking again proves it again
            deferred = stats.deferred
            # with one slice no other one's drop can undo a proof: nothing to wait for
            limits[i] = _settle_slice(search, part, limits[i], len(before) if len(slices) > 1 else None)
            # a deferred split leaves the slice unproved (asked again: this round dropped)
            proved_at[i] = len(alive) if stats.deferred == deferred else None
        if refuter is not None:
            refuter.share(before - alive)
        if alive == before or all(p == len(alive) for p in proved_at):
            break


def _settle_slice(s: _Search, part: set, limit: float, defer: int | None = None) -> float:
    """Query the slice ``part`` again after each drop, until a query drops nothing (unsat):
    a loop's candidates that fail do so mostly for reasons local to the loop, found one
    model at a time, and moving to the next slice in between only re-asks the others
    with stale assumptions (PolyBench gemm, 5 nested loops: 135 queries in 27 rounds
    visiting every slice per drop, 71 in 3 rounds settling each; same fixpoint, since a
    round still ends the search only if none of its queries dropped anything).
    ``limit``: the slice's floor of the seconds before a joint query is split, ``pace``
    the kernel's (``_check_slice``); returns the slice's floor for its next queries.
    ``defer``: the number of alive candidates when the round began (``_ask_slice``)."""
    while part & s.alive:
        n = len(s.alive)
        limit = _check_slice(s, part & s.alive, limit, defer)
        if len(s.alive) == n:
            return limit
        if s.refuter is not None:
            _take_refuted(s.refuter, s.alive, s.stats)
    return limit


def candidate_checks(vc: vcmod.VC) -> dict[str, list[vcmod.Check]]:
    """Guard name -> the candidate's checks in ``vc`` (its loop's entry check and its
    back-edge checks, in VC order)."""
    by_guard: dict = {}
    for c in vc.checks:
        if c.is_candidate:
            by_guard.setdefault(c.guard, []).append(c)
    return by_guard


def loop_slices(vc: vcmod.VC) -> list[set[str]]:
    """The candidate guards grouped by loop, in program order: a candidate's checks are
    its loop's entry check (the ``H$entry`` block of ``loopcut.cut_loops``, one per loop)
    and its back-edge checks, so the block of its first check names its loop."""
    groups: dict = {}
    for c in vc.checks:
        if c.is_candidate and c.site is not None:
            groups.setdefault(c.guard, c.site.block)
    by_block: dict = {}
    for guard, block in groups.items():
        by_block.setdefault(block, set()).add(guard)
    return list(by_block.values())


def _check_slice(s: _Search, part: set, limit: float = SPLIT_AFTER, defer: int | None = None) -> float:
    """``_ask_slice`` over ``part``, but the candidates of ``part`` that were over a split's
    first-pass limit once (``stats.slow``) are left out of the joint query and asked alone
    (full timeout, ``_one_by_one``) once the others' joint query dropped nothing.  A hard
    candidate makes every joint query of its slice hard: MC_SingleAsianOptionP
    computeValue's r10 candidate took each joint query of its loop to the limit (10-22 s),
    and each time the split's first model was an easy r9 candidate.  Sound: a model of the
    query with fewer checks enabled (same alive candidates assumed) falsifies a candidate
    of the Houdini query; the slice is proved only when the joint query of the others and
    the query of each slow one were unsat under the same alive set (nothing dropped in
    between, or the caller asks the slice again).  Returns the slice's limit floor."""
    slow = part & s.stats.slow
    if not slow or slow == part:
        return _ask_slice(s, part, limit, defer)
    n, deferred = len(s.alive), s.stats.deferred
    limit = _ask_slice(s, part - slow, limit, defer)
    if len(s.alive) == n and s.stats.deferred == deferred:
        progress.note("houdini: loop %s: %d slow candidates alone", _site(s.by_guard, slow), len(slow))
        _one_by_one(s, slow)
    return limit


def _ask_slice(s: _Search, part: set, limit: float = SPLIT_AFTER, defer: int | None = None) -> float:
    """Query the checks of the candidates ``part`` (alive ones of a slice) under the alive
    candidates; drop from ``alive`` those a model falsifies, or, when the solver gives no
    answer, those not proved one by one (``_one_by_one``).  Returns the slice's limit for
    its next queries.

    A query over several candidates gets ``limit`` seconds, or ``pace.seconds()`` when
    longer (the kernel's adaptive limit, ``HOUDINI_SPLIT_FIRST``; it learns the time of
    each decided joint query): past it, its candidates are asked one by one, each with
    the back end's full timeout.  Sound as the final check's
    split (``vcgen.vc.solvers.split``): the slice's goal is the disjunction of its
    candidates' goals, so "every candidate unsat under the same alive set" is the unsat of
    the whole, a model of one is a model of the whole; and only a candidate's *own*
    undecided query drops it, so the limit never keeps a candidate.  A large unsat query
    is often harder than its parts together (BlackScholes, yices: 62 s joint, 14.5 s one
    by one).  A split that ends at a model shows the joint query was sat, only slow
    (PolyBench lu kernel1 on a loaded machine): the slice's limit doubles, so a
    sat-heavy slice is not split over and over.

    A split that found no model (every candidate proved) marks the slice
    (``stats.split_first``): its next query skips the joint query and splits at once, until
    a split of it finds a model (then it is asked jointly again).  A joint query over the
    limit is rarely decided on the next ask either (lu kernel1 on main: 14 joint
    timeouts of 10-22 s, each followed by a split that proved every candidate over their
    cones in 0.3-0.5 s each; the same slices timed out again in each of the 3 rounds).
    A slice whose joint query was sat before (answered so, or a split of it ended at a
    model, which is a model of the joint query) and is now over the limit has many false
    candidates and slow joint queries (``stats.split_through``): its splits go on past a
    model (``_one_by_one``'s ``through``) and it stays split at once.

    ``defer``: the number of alive candidates when the round began.  When the round has
    dropped a candidate since (``len(alive) < defer``), a split is put off: the slice is
    left unproved (``stats.deferred``) and the caller's next round asks it again, after the
    slices it asks jointly, splitting it at once if its joint query had the ``SPLIT_AFTER``
    cap (no longer limit to come).  A split is mostly the proof of the slice, and a proof
    under an alive set the round has already shrunk is undone by a later drop its proofs
    needed (``_proof_kept``), while a
    round that drops nothing is the last (lu kernel1 on main: the round-1 splits of loops
    199, 280 and 378, 70 s of one-candidate proofs, undone by loop 652's drops, and the
    round-2 ones by a drop in round 3; Houdini 312 -> 157 queries, one-candidate cone proofs
    263 -> 128, joint timeouts 14 -> 6, same 130 of 432 candidates).  Sound: a deferred
    slice is not counted as proved, so the fixpoint still needs a round in which every slice
    was proved under one alive set; the rounds end since each one that defers has dropped a
    candidate."""
    if not part:
        return limit
    if all(g in s.proofs for g in part) and all(_proof_kept(s, g) for g in part):
        # every candidate's own query is proved under the current alive set, so the
        # slice's (the disjunction of their goals) is
        s.stats.kept_proofs += len(part)
        progress.note("houdini: loop %s: %d of its candidates, each proved before under "
                      "candidates its proof needs that are all still alive",
                      _site(s.by_guard, part), len(part))
        return limit
    vc, backend, alive, by_guard, stats, pace = s.vc, s.backend, s.alive, s.by_guard, s.stats, s.pace
    floor, limit = limit, max(limit, pace.seconds()) if pace is not None else limit
    asked = time.monotonic()
    skip = len(part) > 1 and part <= stats.split_first
    if skip:
        stats.joint_skips += 1
        progress.note("houdini: loop %s: %d of its candidates (%d alive in all), split at once: "
                      "its last joint query was over the limit and its split found no model",
                      _site(by_guard, part), len(part), len(alive))
        out = Outcome("timeout", "joint query not asked")
    else:
        progress.note("houdini: loop %s: %d of its candidates (%d alive in all)",
                      _site(by_guard, part), len(part), len(alive))
        out, model = _joint_query(s, part, limit if len(part) > 1 else None)
        stats.queries += 1
        if pace is not None and len(part) > 1:
            pace.record(time.monotonic() - asked, out)
    if out.status == "unsat":
        return floor
    if out.status == "sat":
        seconds = time.monotonic() - asked
        if len(part) > 1:
            stats.sat_jointly |= part
        dead = _falsified(vc, model, alive, by_guard)
        alive -= dead or part  # a model that fails no candidate: cannot happen; stay sound
        _twin_run(s, dead, seconds, model)
        _guided_run(s, time.monotonic() - asked, model)
        return floor
    split = out.status == "timeout" and len(part) > 1
    if split and not skip and part & stats.sat_jointly:
        stats.split_through |= part
    through = split and part <= stats.split_through
    if split and defer is not None and len(alive) < defer:
        # the proof would be undone by a later drop of this round's: next round.  Its
        # joint query is asked again then only if it may get more time than now (lu
        # kernel2 under load: the first joint queries, cut at 3 s, all timed out, and
        # splitting them at once from then on left the hunt for the models those
        # queries found to one-candidate queries); lu kernel1's, cut at the 10 s cap,
        # timed out again in every round (15 of them, 294 s)
        stats.deferred += 1
        if limit >= SPLIT_AFTER or through:
            stats.split_first |= part
        progress.note("houdini: loop %s: split deferred (this round dropped candidates)",
                      _site(by_guard, part))
        return floor
    stats.splits += int(split)
    timeout = getattr(backend, "timeout", None)
    # the first pass keeps at least ``SPLIT_AFTER``: one-candidate queries of 3-10 s are
    # common (BlackScholes at load 14: cut at the 3 s joint limit, 7 of them timed out,
    # each killing the warm solver process, and were asked again: Houdini 30 -> 74 s)
    first_pass = max(limit, SPLIT_AFTER)
    passes = (first_pass,) if split and (not timeout or first_pass < timeout) else ()
    found_model = _one_by_one(s, part, passes, through)
    if split and found_model and not through:
        stats.split_first -= part
        # the split's model is one of the joint query (a disjunction over the part's
        # checks): that query was sat, only slow, so a timeout of its next one makes the
        # slice a ``split_through`` one (CUDA particles collideD, loop $for.cond.i: each
        # split ended at a model in 0.3 s, after which the joint query timed out again, 2-15
        # s, six times; going through, the split dropped 5 and proved 12 in 5 s)
        stats.sat_jointly |= part
        return floor if skip else 2 * limit
    if split:
        stats.split_first |= part
    return floor


def _site(by_guard: dict, part: set) -> str:
    """The loop head of a slice's candidates (``--verbose`` lines), from the block of the
    first candidate's first check (``loop_slices``)."""
    site = by_guard[min(part)][0].site
    return str(site.block).removesuffix("$entry") if site is not None else "?"


def _take_refuted(refuter, alive: set, stats: HoudiniStats) -> None:
    for g, engine in refuter.poll().items():
        if g in alive:
            alive.discard(g)
            stats.refuted_by[g] = engine


def _joint_query(s: _Search, part: set, limit: float | None) -> tuple[Outcome, Any]:
    """The query of the checks of the candidates ``part`` under the alive ones, and what
    holds its model after a ``sat`` (``s.backend``, or a ``sliced.ConeModel``).

    Once the back end races every query (``backend.races_every_query``: a VC z3 alone did
    not decide quickly), the query is asked first over the cone of influence of the
    part's checks (``SliceProver.ask``; docs/design.md section 6), a fresh yices process
    fed that cone only, and its answer is used either way: the cone is exact
    (``slicing.cone_constraints``: unsat there is unsat of the whole query, and a model
    there extends to one of the whole query with the same values on the cone).  A cone
    query past the prover's limit races the back end's query (``SliceProver.race``).
    Why: a loop's checks read the blocks before and in the loop, not the kernel's later
    loops; the slices' cones of AMD AESEncryptDecrypt kernel1 are 4-21% of its VC's
    constraints, PolyBench gemm's 14-30%, and the back end's processes parse and search
    the whole VC (a joint query of AES kernel1: 0.3 s over its cone, 2.7 s by the back
    end).  Before the back end races, z3 in process answers most queries in
    milliseconds, and printing the VC for the cone's process would cost more.

    A loop's joint queries go to its incremental cone process (``_session``,
    ``conesession.ConeSession``: the cone of the loop's first query, fed once; each query
    a ``check-sat-assuming``), exact for the same reason; the first query it does not
    decide within the prover's adaptive cone limit ends it, and a one-shot cone query
    (then the back end, as above) gets what is left of the joint limit.  Why: settling a
    loop asks the same cone again after each drop, and a fresh process per query paid the
    start and the parse each time (CUDA particles collideD, three loops settled in 71 sat
    queries: 0.05-0.7 s each one-shot, 0.01-0.05 s warm)."""
    indices = sorted({c.index for g in part for c in s.by_guard[g]})
    assumptions = s.vc.assumptions(set(indices), s.alive)
    prover = s.prover
    if prover is not None and hasattr(prover, "ask") and races_every_query(s.backend):
        started = time.monotonic()
        session = _session(s, indices)
        if session is not None:
            adaptive = getattr(prover, "limit", None)  # the cone queries' (``sliced.CONE_FIRST``)
            out = session.check(indices, assumptions,
                                query_limit(limit, adaptive.seconds()) if adaptive is not None else limit)
            if out.definite:
                s.stats.cone_joint += 1
                s.stats.session_queries += 1
                return out, ConeModel(session.solver, s.vc, session.cone) if out.status == "sat" else None
            # undecided: this query and the loop's later ones go to one-shot cone
            # processes (full preprocessing) again, with what is left of the joint limit
            # (PolyBench heat-3d kernel1: a new session's first query timed out at 2 s
            # where a one-shot cone query took 1.6 s, and the back end then timed out too)
            left = None if limit is None else limit - (time.monotonic() - started)
            if left is not None and left <= 0:
                return Outcome("timeout", "loop cone query past the joint limit"), s.backend
            limit, started = left, time.monotonic()
        out = prover.ask(indices, assumptions, limit)
        model = getattr(prover, "model", None)
        if out.status == "unsat" or (out.status == "sat" and model is not None):
            s.stats.cone_joint += 1
            return out, model
        # the cone query and the race after it share the joint query's limit
        left = None if limit is None else limit - (time.monotonic() - started)
        if left is not None and left <= 0:
            return Outcome("timeout", "cone query past the joint limit"), s.backend
        return prover.race(indices, s.backend, assumptions, left), s.backend
    return s.backend.check(assumptions, limit), s.backend


def _session(s: _Search, indices: list[int]) -> ConeSession | None:
    """The incremental cone process (``conesession.ConeSession``) for a joint query over
    the VC checks ``indices``: the one of their loop, made at its first query over all
    its candidates' checks; None when the prover has none or the loop's ended on a query
    it did not decide."""
    if s.sessions is None:
        make = getattr(s.prover, "sessions", None)
        s.sessions = (make() if make is not None else None) or False
    return s.sessions.session(indices) if s.sessions else None


def _falsified(vc, backend, alive: set, by_guard: dict) -> set:
    """The guards of ``alive`` whose checks fail in ``backend``'s model (a back end after
    a sat answer, or a ``sliced.ConeModel``: only the checks it ``fixes`` are read)."""
    fixes = getattr(backend, "fixes", None)
    checks = [c for g in sorted(alive) for c in by_guard[g] if fixes is None or fixes(c)]
    values = backend.values([c.fail for c in checks])
    return {c.guard for c, v in zip(checks, values) if v is True}


def _twin_run(s: _Search, dead: set, seconds: float, model: Any) -> None:
    """After a sat answer that dropped ``dead``: when some of them has a live thread twin,
    ask z3 for a model of the Houdini query over the twins' checks (alive candidates
    assumed) with the variables those checks read and the launch constants pinned to the
    answer's values with the threads' roles swapped (``twins.ThreadSwap.refute``, at
    most about ``seconds``, the answer's time); drop every alive candidate its model
    falsifies.  Sound as ``_falsified``: the model is one of a Houdini query under a
    superset of the largest inductive subset; no model, no drop.  AMD AESEncryptDecrypt
    kernel2: ten slices paid a query per twin (``(cur$2 == 10) ==> ...``, then its ``$1``
    copy); now 9 pinned queries of 19 pins drop the twins, 42 -> 33 queries."""
    vc, alive, by_guard, stats, twins = s.vc, s.alive, s.by_guard, s.stats, s.twins
    if twins is None:
        return
    todo = {twins.of[g] for g in dead if g in twins.of} & alive
    if not todo:
        return
    stats.twin_queries += 1
    checks = [c for g in todo for c in by_guard[g]]
    states = {v for c in checks if c.site is not None for v in il.free_vars(c.site.expr)}
    states |= twins.swap.launch
    swapped = twins.swap.refute(model, vc.assumptions({c.index for c in checks}, alive), seconds, states)
    if swapped is None:
        return
    more = _falsified(vc, swapped, alive, by_guard)
    alive -= more
    stats.twins += len(more)


def _guided_run(s: _Search, seconds: float, model: Any) -> None:
    """After a sat answer: drop the candidates a DYN run from the model's inputs refutes
    (``refutation.dyn.ModelGuide``; trusted like every DYN refutation).  The model fails
    one or two of a loop's checks, though it could fail every check failing on its path:
    the solver stops at the first model, and a model maximising the failed checks
    (MaxSAT) costs more than the query.  The concrete run from the same launch ids and
    arguments follows the whole kernel and often fails many more (PolyBench lu kernel1:
    Houdini's queries 134 -> 68, same fixpoint).  Skipped when a run is not worth a query
    of ``seconds`` (``ModelGuide.wanted``)."""
    vc, alive = s.vc, s.alive
    guide = s.refuter.guide if s.refuter is not None else None
    if guide is None or not alive or not guide.wanted(seconds):
        return
    names = [n for n in guide.inputs() if n in vc.translator.types or n in vc.translator.consts]
    try:
        values = model.values([vc.translator.const(n) for n in names])
    except Exception:  # a back end that cannot read some input: only the shortcut is lost
        return
    for g in guide.refute(alive, dict(zip(names, values))):
        alive.discard(g)
        s.stats.refuted_by[g] = refutation.GUIDED


def _one_by_one(s: _Search, part: set, passes: tuple = (), through: bool = False) -> bool:
    """Single-candidate queries for the guards ``part``: each is dropped unless its own
    query is unsat.  The first model ends them (it drops every candidate it falsifies):
    the proofs so far assumed a candidate now dropped, and the caller asks the slice
    jointly again, which after a drop the warm solver usually answers at once (PolyBench
    lu kernel1: a joint query over the 10 s limit, its 26 candidates one by one 45 s, the
    joint query after the one drop they found 0.2 s).  Returns whether a model ended them.

    ``passes``: limits (seconds) of first passes, each leaving the candidates it does not
    decide to the next; the last pass has the full timeout.  A split (``_check_slice``)
    makes one first pass with the slice's limit: a split is mostly a hunt for one model,
    and a hard query met early is often easy once the solver has learnt from the others.
    On lu kernel1 one candidate took 300 s (then dropped as undecided) where the
    next-but-one gave the model in 3 s; in another split 4 candidates over 10 s each in
    sorted order took 0.1-0.3 s after the other 30.  Growing passes (1, 4, 16, 64 s)
    were worse there: a dozen candidates need 1-5 s, warm or not, and paid every pass.
    Candidates are asked cheapest rule first (``_cheapest``).
    A candidate over the first-pass limit once (``stats.slow``) skips the first passes
    of later splits: PolyBench seidel-2d kernel0 met the same 4 such candidates in
    successive splits, 4 x 10 s, then 4 x 20 s, before each split's model.
    Sound: a pass drops nothing but on a model; a candidate stays only after its own
    unsat (or a kept proof of it under the current alive set, ``_proof_kept``), all
    proofs under the same alive set (no pass changes it without ending the
    split).

    ``through``: a model does not end them; the candidates after it are asked under the
    smaller alive set, and the caller, seeing the drop, asks the slice again (the proofs
    before the model assumed a dropped candidate; those that did not need it, and those
    after the last model, are kept, ``_proof_kept``).  For slices whose joint queries are sat
    several times and then over the limit (``_ask_slice``): each of their joint queries
    drops one or two candidates in seconds, and ending the split at the first model sent
    the slice back to them.  Rodinia IMGVF, a loop of 120 candidates at load 7: joint
    queries sat in 2-10 s each, then a 10 s timeout, a split ended by a model after 8-17
    cone proofs, and the same again, every 30-40 s, over 240 s."""
    vc, backend, alive, by_guard, stats = s.vc, s.backend, s.alive, s.by_guard, s.stats
    todo = sorted(part)
    found = False
    for limit in (*passes, None):
        hard = []
        pending = list(todo)
        while pending:
            g = _cheapest(pending, by_guard, stats)
            pending.remove(g)
            if g not in alive:
                continue
            if _proof_kept(s, g):
                stats.kept_proofs += 1
                progress.note("houdini: split: candidate %s (rule %s) proved before, under "
                              "candidates its proof needs that are all still alive",
                              g, by_guard[g][0].rule)
                continue
            if limit is not None and g in stats.slow:
                hard.append(g)  # over the limit in an earlier split: asked last
                continue
            asked = time.monotonic()
            progress.note("houdini: split: candidate %s (rule %s)%s", g, by_guard[g][0].rule,
                          f", first pass of {limit:g} s" if limit is not None else "")
            cone = _cone_answer(s, g, limit)
            status = cone.status if cone is not None else None
            if cone is not None and status == "unsat":
                s.proofs[g] = _Proof(frozenset(alive), cone=True, core=cone.core)
                _record_cost(stats, by_guard[g][0].rule, time.monotonic() - asked)
                continue
            # a model of the cone extends to one of the whole query (the slice is exact,
            # ``slicing.cone_constraints``): ``g`` fails under ``alive``, and so does every
            # candidate whose check the cone's model (``sliced.ConeModel``) fails
            model = getattr(s.prover, "model", None) if status == "sat" else None
            if status == "sat" and model is None and through:
                alive.discard(g)
                stats.cone_models += 1
                found = True
                continue
            if model is not None:
                stats.cone_models += 1
                out = Outcome("sat")
            else:
                assumptions = vc.assumptions({c.index for c in by_guard[g]}, alive)
                if s.prover is not None:  # against its cone query if that went past its limit
                    out = s.prover.race(sorted(c.index for c in by_guard[g]), backend, assumptions, limit)
                else:
                    out = backend.check(assumptions, limit)
                model = backend
            stats.queries += 1
            _record_cost(stats, by_guard[g][0].rule,
                         0.0 if out.status == "sat" else time.monotonic() - asked)
            if out.status == "unsat":
                # over the whole VC, or over the cone if that won ``race``: either way
                # kept only while nothing is dropped (``_proof_kept``)
                s.proofs[g] = _Proof(frozenset(alive), cone=False)
                continue
            if out.status == "sat":
                dead = _falsified(vc, model, alive, by_guard) | {g}
                alive -= dead
                _twin_run(s, dead, time.monotonic() - asked, model)
                _guided_run(s, time.monotonic() - asked, model)
                if not through:
                    return True
                found = True
                continue
            if limit is not None and out.status == "timeout":
                stats.slow.add(g)
                hard.append(g)
                continue
            alive.discard(g)
            stats.dropped_on_unknown += 1
        todo = hard
        if not todo:
            break
    return found


def _cone_answer(s: _Search, g: str, limit: float | None) -> Outcome | None:
    """The outcome of candidate ``g``'s one-candidate query over its checks' cone of
    influence asked of ``prover`` (``sliced.SliceProver``; docs/design.md section 6, split
    parts over their cones), None when not asked: an unsat there is the unsat of the whole
    query, which the back end is then not asked, and a sat one is a model of the whole
    query (``slicing.cone_constraints``: any model of the cone extends), which the split
    (``_one_by_one``) reads from the prover's ``model`` (``sliced.ConeModel``) instead of
    asking the back end for one.  A candidate whose cone query was not unsat once (a
    model, or over the prover's limit) is not offered again: the back end decides it.
    Shoc s3d gr_base: the split's 44 one-candidate queries over the whole VC took
    0.01-6.4 s each, over their cones (83 of 367 constraints) 0.01-0.7 s.  The alive
    guards are the query's assumptions, not facts, so that its unsat names those it
    needed (``Outcome.core``, ``_proof_kept``)."""
    if s.prover is None or g in s.stats.uncones:
        return None
    checks = sorted(c.index for c in s.by_guard[g])
    ask = getattr(s.prover, "ask", s.prover.prove)  # ``ask`` keeps a sat answer's model
    out = ask(checks, s.vc.assumptions(set(checks), s.alive), limit, frozenset(s.alive))
    if out.status == "unsat":
        s.stats.queries += 1
        s.stats.cone_proofs += 1
    else:
        s.stats.uncones.add(g)
    return out


def _proof_kept(s: _Search, g: str) -> bool:
    """Whether candidate ``g``'s last unsat one-candidate query (``s.proofs``) proves its
    query under the current alive set, so that it need not be asked again.

    The query of ``g`` under an alive set A (``VC.assumptions``: ``g``'s checks enabled,
    the others off, guards of A true, the others false) differs from the one proved under
    A0 (alive only shrinks: A is a subset of A0) only in the literals of the guards
    dropped since, D = A0 - A, now false.  Kept when D is empty (the same query), or when
    the proof was over ``g``'s cone (``_cone_answer``) and either

    - its unsat core (``_Proof.core``: a subset C of A0 such that the cone's formula F,
      the facts of that query and the literals of C are unsat) has no guard of D: the
      cone query under A has the same F and facts (the enable literals, the guards
      outside A0 false) and assumes every guard of C (C is in A0 - D = A), so it is
      unsat; or
    - its formula F (the cone's constraints and the goal, ``sliced.SliceProver.reads``)
      reads no guard of D: each guard of D then occurs in the cone query only as its own
      unit literal, so flipping it to true turns any model under A into one under A0,
      which has none.

    Either way the cone query under A is unsat, hence the whole query (the cone is a
    subset of the VC's constraints, ``slicing.cone_constraints``).  So the kept proof is
    a proof of exactly the query it stands for, and the fixpoint is as before (paper 003
    section 2.2: every alive candidate proved under one alive set; docs/design.md section
    6).  A back end proof (whole VC, no core) is kept only when D is empty.

    Why: a split that goes on past a model (``_one_by_one``'s ``through``) proves the
    candidates after the model under the smaller alive set, and its slice was asked
    again, re-proving them all (PolyBench seidel-2d kernel0: round 4 re-proved the 21
    candidates of a loop proved in round 3 under the same 63 alive candidates, 61 s);
    and a loop's candidate proofs do not read the candidates of the loops after it in
    program order (a drop there undid them all)."""
    proof = s.proofs.get(g)
    if proof is None:
        return False
    dropped = proof.alive - s.alive
    if not dropped:
        return True
    if not proof.cone or s.prover is None:
        return False
    if proof.core is not None and not dropped & proof.core:
        return True
    reads = proof.reads
    if reads is None:
        reads = s.prover.reads(sorted(c.index for c in s.by_guard[g]))
        if reads is None:
            return False
        s.proofs[g] = _Proof(proof.alive, proof.cone, proof.core, reads)
    return not dropped & reads


def _cheapest(pending: list, by_guard: dict, stats: HoudiniStats) -> str:
    """The guard of ``pending`` to ask next in a split: the one whose rule's
    one-candidate queries found no model in the least time on average so far (a rule
    not asked yet first, ties in name order).  A split is a hunt for a model, and the
    candidates of some rules take seconds each to prove whatever comes before: PolyBench
    seidel-2d kernel0 asked 6 candidates of two such rules (3-10 s each, 55 s) before
    the candidate of the split's model (1.8 s).  Only the order changes, never which
    candidates are asked or kept (``_one_by_one``)."""
    def cost(g: str) -> tuple[float, str]:
        total, n = stats.rule_seconds.get(by_guard[g][0].rule, (0.0, 0))
        return (total / n if n else 0.0, g)
    return min(pending, key=cost)


def _record_cost(stats: HoudiniStats, rule: str, seconds: float) -> None:
    total, n = stats.rule_seconds.get(rule, (0.0, 0))
    stats.rule_seconds[rule] = (total + seconds, n + 1)


def candidate_rules(vc: vcmod.VC) -> dict[str, str]:
    """Guard name -> rule name, for every candidate check of the VC."""
    return {c.guard: c.rule for c in vc.checks if c.is_candidate}


def fill_stats(stats: HoudiniStats, rules: dict, alive: set) -> None:
    for guard, rule in rules.items():
        r = stats.rules.setdefault(rule, RuleStats())
        r.generated += 1
        r.proved += guard in alive
        r.refuted += guard in stats.refuted_by


def drop_rules(program: il.Program, rules) -> il.Program:
    """The program without the candidates of the given rules (names like ``"r7"``) and
    their guard constants: as if the rules had generated nothing (``--disable-rule``,
    used to measure a rule's worth, paper 003 section 4.3.4)."""
    rules = set(rules)
    if not rules:
        return program
    guards = vcmod.existential_consts(program)
    gone: set[str] = set()
    kept: set[str] = set()

    def keep(c: il.Cmd) -> bool:
        a = il.attr(c.attrs, "candidate") if isinstance(c, il.Assert) else None
        if a is None or not isinstance(c, il.Assert):
            return True
        cg = vcmod.candidate_guard(c.expr, guards)
        dropped = bool(a.args) and str(a.args[0]) in rules
        if cg is not None:
            (gone if dropped else kept).add(cg[0])
        return not dropped

    decls = []
    for d in program.decls:
        if isinstance(d, il.ProcedureDecl) and d.blocks is not None:
            d = replace(d, blocks=tuple(replace(b, cmds=tuple(c for c in b.cmds if keep(c)))
                                        for b in d.blocks))
        decls.append(d)
    unused = gone - kept
    return il.Program(tuple(d for d in decls if not (isinstance(d, il.ConstDecl) and d.name in unused)))


class ProvedInvariants:
    """The invariant asserts one Houdini run proved, recorded by identity: the
    ``{:inferred "rN"}`` attribute objects ``apply_invariants`` created for them (kept
    here, so their ids stay unique while the record lives).  The loop cut copies an
    invariant's attributes into its entry and back-edge checks and passification keeps an
    attribute without expression arguments as it is (``vc.passify``), so ``marks`` tells
    the final check's checks of these asserts from every other one.  Never read from a
    file: an ``{:inferred}`` attribute a parser made (a user's ``.inv.bpl``) is another
    object, and its assert is proved like any other (``vcgen.verify.checker``)."""

    def __init__(self, marks: tuple[il.Attr, ...] = ()) -> None:
        self.marks = marks
        self._ids = frozenset(id(a) for a in marks)

    def __len__(self) -> int:
        return len(self.marks)

    def marks_any(self, attrs: il.Attrs) -> bool:
        """Whether ``attrs`` (an assert's attributes, ``tuple[il.Attr, ...]``) hold one of
        the recorded attribute objects: the assert is (a copy of) a proved invariant."""
        return any(id(a) in self._ids for a in attrs)


def apply_invariants(program: il.Program, alive: set, marks: list | None = None) -> il.Program:
    """The program with surviving candidates as ``assert {:invariant} {:inferred "rN"} e;``,
    the others deleted, and the ``{:existential}`` constants removed.  ``marks``: a list
    the new ``{:inferred}`` attribute objects are appended to (``ProvedInvariants``)."""
    guards = vcmod.existential_consts(program)

    def rewrite(c: il.Cmd):
        if not (isinstance(c, il.Assert) and il.has_attr(c.attrs, "candidate")):
            return [c]
        cg = vcmod.candidate_guard(c.expr, guards)
        if cg is None or cg[0] not in alive:
            return []
        rule = il.attr_args(c.attrs, "candidate")
        rest = tuple(a for a in c.attrs if a.name != "candidate")
        inferred = il.Attr("inferred", rule)
        if marks is not None:
            marks.append(inferred)
        return [il.Assert(cg[1], (il.Attr("invariant"), inferred) + rest)]

    decls = []
    for d in program.decls:
        if isinstance(d, il.ConstDecl) and d.name in guards:
            continue
        if isinstance(d, il.ProcedureDecl) and d.blocks is not None:
            blocks = tuple(replace(b, cmds=tuple(x for c in b.cmds for x in rewrite(c)))
                           for b in d.blocks)
            d = replace(d, blocks=blocks)
        decls.append(d)
    return il.Program(tuple(decls))


def has_candidates(program: il.Program) -> bool:
    """Whether the kernel still contains ``{:candidate}`` asserts."""
    try:
        k = program.kernel()
    except ValueError:
        return False
    return any(isinstance(c, il.Assert) and il.has_attr(c.attrs, "candidate")
               for b in (k.blocks or ()) for c in b.cmds)


@dataclass(frozen=True)
class HoudiniOptions:
    """``timeout``: seconds per solver query (None = none); ``solver``: a ``--solver`` value
    (``vcgen.vc.solvers.select``; None = z3 in-process); ``refutation``: a
    ``--refutation`` spec (``refutation.parse_plan``; None = its ``DEFAULT``);
    ``disable_rules``: rules whose candidates are dropped first; ``math_int``: bit-vectors as
    integers (``--math-int``)."""
    timeout: float | None = None
    solver: str | None = None
    refutation: str | None = None
    disable_rules: tuple[str, ...] = ()
    math_int: bool = False


class HoudiniResult(NamedTuple):
    """The program with the surviving candidates as invariants, what Houdini did, and the
    record of the invariants it proved (``ProvedInvariants``: the in-process ``gpuverify``
    hands it to the final check, ``verify_program``'s ``proved``)."""
    program: il.Program
    stats: HoudiniStats
    proved: ProvedInvariants = ProvedInvariants()


def run_houdini(program: il.Program, options: HoudiniOptions | None = None) -> HoudiniResult:
    """The ``vcgen houdini`` stage: the largest inductive subset of the candidates kept as
    ``{:invariant} {:inferred "rN"}`` asserts (``apply_invariants``).

    A program without candidates is returned as it is, without a VC or a query.
    Raises ToolError on malformed programs (with candidates: without, the final check's
    VC finds them) or an unknown refutation engine.
    """
    o = options or HoudiniOptions()
    start = time.monotonic()
    plan = refutation.parse_plan(o.refutation)
    program = drop_rules(program, o.disable_rules)
    stats = HoudiniStats(refutation=str(plan))
    if not has_candidates(program):
        # nothing to prove: no VC, no query (straight-line code with n barriers: building
        # its VC, whose log chains grow with n, was half the run; bench-scaling barrier 50)
        stats.seconds = time.monotonic() - start
        return HoudiniResult(apply_invariants(program, set()), stats)
    guards = set(vcmod.existential_consts(program))
    # the worker forks before this process builds any solver state of its own
    refuter = refutation.start(program, plan, guards, o.timeout)
    try:
        vc = program_vc(program, math_int=o.math_int, independent_candidates=True)
        backend = make_backend(vc, o.solver, o.timeout)
        # splits' one-candidate queries over their cones first, as the final check's parts
        prover = slice_prover(vc, o.timeout) if o.solver == "auto" else None
        # the engines' first answer (DYN: one concrete run) usually comes within the time
        # it took to build the VC, and saves Houdini's costliest query, the first one
        refuter.wait_first(FIRST_REFUTATION_WAIT)
        try:
            alive = houdini_fixpoint(vc, backend, stats, refuter, prover)
        finally:
            backend.close()
            if prover is not None:
                prover.close()
    finally:
        refuter.close()
    stats.refutation_errors = list(refuter.errors)
    fill_stats(stats, candidate_rules(vc), alive)
    marks: list = []
    out = apply_invariants(program, alive, marks)
    stats.seconds = time.monotonic() - start
    return HoudiniResult(out, stats, ProvedInvariants(tuple(marks)))
