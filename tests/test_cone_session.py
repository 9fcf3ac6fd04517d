"""A loop's joint Houdini queries in one incremental yices process over the loop's cone
(``conesession.ConeSession``, ``houdini._joint_query``): exact as the one-shot cone
query, one process per loop instead of one per query, and a loop whose process did not
decide a query goes back to one-shot processes."""
from __future__ import annotations

from vcgen.inference import houdini
from vcgen.inference.houdini import HoudiniStats, houdini_fixpoint, loop_slices
from vcgen.vc.solvers import conesession
from vcgen.vc.solvers.backend import Outcome
from vcgen.vc.solvers.inprocess import Z3Backend
from vcgen.vc.solvers.process import ProcessBackend
from vcgen.vc.solvers.sliced import ConeModel, slice_prover

from test_cone_joint import _Racing, _vc
from test_cone_slice import needs_yices


def _starts(monkeypatch) -> list:
    """Records each solver process started (``ProcessBackend._start``)."""
    started: list = []
    real = ProcessBackend._start

    def start(self):
        started.append(self.name)
        real(self)
    monkeypatch.setattr(ProcessBackend, "_start", start)
    return started


@needs_yices
def test_a_loops_joint_queries_share_one_solver_process(monkeypatch):
    """Same fixpoint as z3 alone over the whole VC; every slice query answered over a
    cone, by one process per loop (main: a fresh process per query)."""
    whole = _vc()
    expected = houdini_fixpoint(whole, Z3Backend(whole))
    vc = _vc()
    backend, stats, prover = _Racing(vc), HoudiniStats(), slice_prover(vc)
    started = _starts(monkeypatch)
    try:
        assert houdini_fixpoint(vc, backend, stats, prover=prover) == expected
    finally:
        prover.close()
    assert backend.asked == 0
    assert stats.session_queries == stats.cone_joint == stats.queries
    assert stats.queries > len(loop_slices(vc))
    assert len(started) <= len(loop_slices(vc)) < stats.queries
    assert all("incremental" in name for name in started)


@needs_yices
def test_a_session_model_determines_its_own_loop_only():
    """The first loop's query is sat; the session's model (``ConeModel`` over the
    session's cone) fixes the first loop's checks, not the last loop's, and drops only
    candidates of the first loop.  A later query over fewer of its checks is asked of
    the same process."""
    vc = _vc()
    slices = loop_slices(vc)
    first, last = slices[0], slices[-1]
    by_guard = houdini.candidate_checks(vc)
    alive = set(by_guard)
    sessions = slice_prover(vc).sessions()
    try:
        checks = sorted(c.index for g in first for c in by_guard[g])
        session = sessions.session(checks)
        assert session.check(checks, vc.assumptions(set(checks), alive), None).status == "sat"
        model = ConeModel(session.solver, vc, session.cone)
        assert all(model.fixes(c) for g in first for c in by_guard[g])
        assert not any(model.fixes(c) for g in last for c in by_guard[g])
        dead = houdini._falsified(vc, model, alive, by_guard)
        assert dead and dead <= first
        alive -= dead
        fewer = sorted(c.index for g in first & alive for c in by_guard[g])
        assert sessions.session(fewer) is session
        assert session.check(fewer, vc.assumptions(set(fewer), alive), None).definite
        assert session.queries == 2
    finally:
        sessions.close()


@needs_yices
def test_an_undecided_session_query_goes_to_a_one_shot_cone_and_ends_the_session(monkeypatch):
    """A session query past its limit: a one-shot cone query gets the joint query (what
    is left of its limit) and decides it, so the back end is not asked; the loop never
    gets a session again (one-shot cone queries from then on), and the fixpoint is the
    same."""
    whole = _vc()
    expected = houdini_fixpoint(whole, Z3Backend(whole))
    vc = _vc()
    real = conesession.ConeSession.check
    undecided: list = []

    def check(self, checks, assumptions, limit):
        if not undecided:
            undecided.append(frozenset(checks))
            self.close()
            return Outcome("timeout", "stub")
        return real(self, checks, assumptions, limit)
    monkeypatch.setattr(conesession.ConeSession, "check", check)
    backend, stats, prover = _Racing(vc), HoudiniStats(), slice_prover(vc)
    try:
        assert houdini_fixpoint(vc, backend, stats, prover=prover) == expected
        assert prover.queries > 0  # one-shot cone queries of that loop
    finally:
        prover.close()
    assert backend.asked == 0
    assert stats.session_queries < stats.cone_joint


@needs_yices
def test_sessions_refuse_a_loop_whose_session_ended_and_keep_a_few(monkeypatch):
    vc = _vc()
    sessions = slice_prover(vc).sessions()
    monkeypatch.setattr(conesession, "KEEP", 2)
    by_guard = houdini.candidate_checks(vc)
    loops = [sorted(c.index for g in part for c in by_guard[g]) for part in loop_slices(vc)]
    assert len(loops) >= 3
    try:
        made = [sessions.session(checks) for checks in loops]
        assert all(s is not None for s in made)
        assert not made[0].alive and made[1].alive and made[2].alive  # least recently used closed
        made[1].close()  # as after an undecided query
        assert sessions.session(loops[1]) is None
        assert sessions.session(loops[1][:1]) is None
        assert sessions.session(loops[0]) is not None  # closed for room, not for failing
    finally:
        sessions.close()
