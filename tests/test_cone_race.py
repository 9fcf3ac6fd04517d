"""A cone query past its limit races the back end's query of the same part
(``sliced.SliceProver.race``, ``process.ProcessBackend.resume``): only its unsat may win."""
from __future__ import annotations

import io
import re
import sys
import threading
import time

import z3

from vcgen.il.parser import parse_program
from vcgen.inference.houdini import HoudiniStats, houdini_fixpoint
from vcgen.report import progress
from vcgen.vc.query import program_vc
from vcgen.vc.solvers import sliced
from vcgen.vc.solvers.backend import Outcome
from vcgen.vc.solvers.process import ProcessBackend
from vcgen.vc.solvers.sliced import SliceProver
from vcgen.vc.solvers.split import PROVER_WON, check_split

from test_cone_slice import _Table, _real, _vc
from test_houdini import MUTUAL, _ConeStub, _Limited


# A "solver" that answers each check-sat after 0.8 s
_SLOW_SOLVER = ("import sys, time\n"
                "for line in sys.stdin:\n"
                "    if line.startswith('(check-sat'):\n"
                "        time.sleep(0.8)\n"
                "        print('unsat', flush=True)\n")


def _slow_process() -> ProcessBackend:
    return ProcessBackend(None, [sys.executable, "-c", _SLOW_SOLVER], prelude="(set-logic ALL)\n")  # type: ignore[arg-type]


def test_a_query_past_its_limit_keeps_searching_for_resume():
    """With ``keep_on_timeout`` the process that did not answer within the limit is not
    killed, and ``resume`` gets its answer; without it, it is killed as before."""
    lit = z3.Bool("a")
    kept = _slow_process()
    kept.keep_on_timeout = True
    assert kept.check([lit], 0.1).status == "timeout"
    assert kept.proc is not None and kept.proc.poll() is None  # still searching
    assert kept.resume(10).status == "unsat"
    kept.close()
    killed = _slow_process()
    assert killed.check([lit], 0.1).status == "timeout"
    assert killed.proc is None
    assert killed.resume(10).status == "unknown"  # nothing to wait for


def test_a_cancel_ends_the_resumed_wait():
    p = _slow_process()
    p.keep_on_timeout = True
    assert p.check([z3.Bool("a")], 0.05).status == "timeout"
    threading.Timer(0.1, p.cancel).start()
    assert p.resume(None).status == "unknown"  # cancelled, not the late unsat
    assert p.proc is None


class _Cone:
    """A stand-in for the cone query's process (``OneShotBackend``): times out at first,
    then ``resume`` answers ``late`` after ``after`` seconds unless cancelled first."""
    name = "cone"

    def __init__(self, late: str, after: float):
        self.late, self.after = late, after
        self.keep_on_timeout = False
        self.cancelled = threading.Event()
        self.closed = False

    def check(self, assumptions, limit=None):
        return Outcome("timeout", "cone past its limit")

    def resume(self, limit=None):
        if self.cancelled.wait(self.after):
            return Outcome("unknown", "cancelled")
        return Outcome(self.late)

    def cancel(self):
        self.cancelled.set()

    def close(self):
        self.closed = True


class _Back:
    """A back end that answers ``answer`` after ``after`` seconds, or unknown at once when
    cancelled."""
    name = "back end"

    def __init__(self, answer: str, after: float):
        self.answer, self.after = answer, after
        self.cancelled = threading.Event()
        self.asked = 0

    def check(self, assumptions, limit=None):
        self.asked += 1
        if self.cancelled.wait(self.after):
            return Outcome("unknown", "cancelled")
        return Outcome(self.answer)

    def cancel(self):
        self.cancelled.set()


def _prover_after_timeout(monkeypatch, cone: _Cone) -> tuple[SliceProver, int, list]:
    monkeypatch.setattr(sliced, "OneShotBackend", lambda *a, **k: cone)
    vc = _vc()
    prover = SliceProver(vc, ["yices-smt2"])
    k = _real(vc)[0]
    assumptions = vc.assumptions({k})
    assert prover.prove([k], assumptions).status == "timeout"
    assert cone.keep_on_timeout and not cone.closed  # left searching for the race
    return prover, k, assumptions


def test_the_cone_query_that_answers_unsat_first_wins_the_race(monkeypatch):
    cone = _Cone("unsat", 0.05)
    prover, k, assumptions = _prover_after_timeout(monkeypatch, cone)
    back = _Back("sat", 30)
    start = time.monotonic()
    out = prover.race([k], back, assumptions)
    assert out.status == "unsat" and out.reason == PROVER_WON  # the cone's: ``check_split`` counts it
    assert time.monotonic() - start < 10  # the back end's query was cancelled
    assert back.cancelled.is_set() and cone.closed
    assert prover.races_won == 1 and prover.proved == 1


def test_the_back_ends_answer_first_wins_and_stops_the_cone_query(monkeypatch):
    cone = _Cone("unsat", 30)
    prover, k, assumptions = _prover_after_timeout(monkeypatch, cone)
    back = _Back("sat", 0.05)
    start = time.monotonic()
    assert prover.race([k], back, assumptions).status == "sat"  # its model is the one read
    assert time.monotonic() - start < 10
    assert cone.cancelled.is_set() and cone.closed and not back.cancelled.is_set()
    assert prover.races_won == 0


def test_only_an_unsat_of_the_cone_query_counts(monkeypatch):
    """A model or timeout of the cone query leaves the back end's answer, even an
    undecided one."""
    for late in ("sat", "timeout", "unknown"):
        cone = _Cone(late, 0.01)
        prover, k, assumptions = _prover_after_timeout(monkeypatch, cone)
        assert prover.race([k], _Back("timeout", 0.2), assumptions).status == "timeout"
        assert cone.closed


def test_without_a_cone_query_left_searching_the_back_end_alone_answers(monkeypatch):
    """A race for another part, or with no cone query past its limit, is the back end's
    query alone (a query left searching for another part is killed)."""
    cone = _Cone("unsat", 0.01)
    prover, k, assumptions = _prover_after_timeout(monkeypatch, cone)
    back = _Back("timeout", 0.01)
    assert prover.race([k + 1], back, assumptions).status == "timeout"
    assert cone.closed and back.asked == 1 and prover.races_won == 0
    assert prover.race([k], back, assumptions).status == "timeout"  # nothing left pending


class _RacingProver:
    """A split-part prover that never proves a part itself but whose race proves it."""

    def __init__(self):
        self.raced: list = []

    def prove(self, checks, assumptions, limit=None):
        return Outcome("timeout")

    def race(self, checks, backend, assumptions, limit=None):
        self.raced.append(tuple(checks))
        return Outcome("unsat")


def test_a_split_part_the_prover_did_not_prove_is_raced():
    """``check_split`` asks a single-check part through the prover's ``race`` (the back
    end alone times out on everything here)."""
    class Stuck(_Table):
        def check(self, assumptions, limit=None):
            self.asked.append(tuple(assumptions))
            return Outcome("timeout")
    prover = _RacingProver()
    assert check_split(Stuck(), tuple, [1, 2], limit=1.0, prover=prover).status == "unsat"
    assert prover.raced == [(1,), (2,)]


class _RacingCones(_ConeStub):
    """``_ConeStub`` whose cone queries of ``_b1`` time out, and whose race then proves it."""

    def __init__(self, vc):
        super().__init__(vc, otherwise="timeout")
        self.raced: list = []

    def race(self, checks, backend, assumptions, limit=None):
        guards = {self.vc.checks[k].guard for k in checks}
        self.raced.append(guards)
        return Outcome("unsat") if guards == {"_b1"} else backend.check(assumptions, limit)


def test_houdini_keeps_a_candidate_whose_cone_query_wins_the_race():
    """MUTUAL's ``_b1`` is inductive but the back end never decides it alone (``_Limited``):
    without the race it is dropped as undecided; raced, its cone query's unsat keeps it."""
    prog = parse_program(MUTUAL)
    vc = program_vc(prog, independent_candidates=True)
    cones, stats = _RacingCones(vc), HoudiniStats()
    alive = houdini_fixpoint(vc, _Limited(vc, stuck={"_b1"}), stats, prover=cones)
    assert alive == {"_b0", "_b1"} and stats.dropped_on_unknown == 0
    assert {"_b1"} in cones.raced


def test_verbose_cone_line_names_the_candidate_or_check(monkeypatch):
    """``--verbose``: a cone query's line names what it asks (a Houdini candidate and its
    rule, or the check's label, block and source line)."""
    class Quick:
        name = "yices"
        keep_on_timeout = False

        def __init__(self, *a, **k):
            pass

        def check(self, assumptions, limit=None):
            return Outcome("unsat")

        def close(self):
            pass
    monkeypatch.setattr(sliced, "OneShotBackend", Quick)
    prog = parse_program(MUTUAL)
    vc = program_vc(prog, independent_candidates=True)
    prover = SliceProver(vc, ["yices-smt2"])
    cand = next(c for c in vc.checks if c.guard == "_b1")
    real = next(c for c in vc.checks if not c.is_candidate and c.site is not None)
    out = io.StringIO()
    with progress.writing(stream=out):
        prover.prove([cand.index], vc.assumptions({cand.index}))
        prover.prove([real.index], vc.assumptions({real.index}))
    lines = out.getvalue().splitlines()
    assert any(re.search(rf"cone query of candidate _b1 \(rule {cand.rule}\) \(", l) for l in lines), lines
    assert any(re.search(rf"cone query of {real.label} in {re.escape(real.site.block)}", l) for l in lines), lines


class _Staged(_Back):
    """A back end of two stages, like ``escalating.EscalatingBackend``: a cancel ends the
    first stage, and the second then starts (it is not cancelled by the first cancel)."""

    def check(self, assumptions, limit=None):
        self.asked += 1
        if self.cancelled.wait(self.after):
            self.cancelled.clear()  # the first stage gave up; the second starts afresh
            if self.cancelled.wait(self.after):
                return Outcome("unknown", "cancelled")
        return Outcome(self.answer)


def test_a_won_race_cancels_every_stage_of_the_back_end(monkeypatch):
    cone = _Cone("unsat", 0.05)
    prover, k, assumptions = _prover_after_timeout(monkeypatch, cone)
    start = time.monotonic()
    assert prover.race([k], _Staged("timeout", 20), assumptions).status == "unsat"
    assert time.monotonic() - start < 10
