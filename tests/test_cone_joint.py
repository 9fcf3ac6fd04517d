"""Houdini's slice queries over their cones once the back end races every query
(``houdini._joint_query``, ``sliced.SliceProver.ask``, ``sliced.ConeModel``): the cone is
exact, so its unsat and its model are the whole query's; a cone model is read only on the
checks it determines."""
from __future__ import annotations

import pytest

from vcgen.il.parser import parse_program
from vcgen.inference import houdini
from vcgen.inference.houdini import HoudiniStats, houdini_fixpoint, loop_slices
from vcgen.vc.query import program_vc
from vcgen.vc.solvers.backend import Wrapper, races_every_query
from vcgen.vc.solvers.escalating import STAY_AFTER, EscalatingBackend
from vcgen.vc.solvers.inprocess import Z3Backend
from vcgen.vc.solvers.sliced import ConeModel, slice_prover
from vcgen.vc.solvers.trace import TracedBackend

from test_cone_slice import needs_yices
from test_houdini import synthetic_program


class _Racing(Wrapper):
    """z3 in process, saying it races every query (as ``EscalatingBackend`` after
    ``STAY_AFTER`` escalations, or not with ``racing=False``); counts its queries."""

    def __init__(self, vc, racing: bool = True):
        self.inner, self.racing, self.asked = Z3Backend(vc), racing, 0
        self.name = "racing z3"

    def check(self, assumptions, limit=None):
        self.asked += 1
        return self.inner.check(assumptions, limit)


def _vc():
    return program_vc(parse_program(synthetic_program()), independent_candidates=True)


def test_races_every_query_looks_through_wrappers():
    vc = _vc()
    assert races_every_query(TracedBackend(_Racing(vc)))
    assert not races_every_query(TracedBackend(_Racing(vc, racing=False)))
    esc = EscalatingBackend(vc)
    assert not races_every_query(esc)
    esc.escalations = STAY_AFTER
    assert races_every_query(TracedBackend(esc))
    esc.close()


@needs_yices
def test_slice_queries_of_a_racing_back_end_are_answered_over_their_cones():
    """Same fixpoint as z3 alone over the whole VC (the largest inductive subset is
    unique), with the slice queries answered by the cone prover, not the back end."""
    whole = _vc()
    expected = houdini_fixpoint(whole, Z3Backend(whole))
    vc = _vc()
    backend, stats, prover = _Racing(vc), HoudiniStats(), slice_prover(vc)
    try:
        assert houdini_fixpoint(vc, backend, stats, prover=prover) == expected
    finally:
        prover.close()
    assert 0 < len(expected) < 40
    assert stats.cone_joint == stats.queries > 0
    assert backend.asked == 0
    assert "slice queries answered over their cones" in "\n".join(stats.lines())


@needs_yices
def test_a_back_end_that_does_not_race_is_asked_as_before():
    vc = _vc()
    backend, stats, prover = _Racing(vc, racing=False), HoudiniStats(), slice_prover(vc)
    try:
        houdini_fixpoint(vc, backend, stats, prover=prover)
    finally:
        prover.close()
    assert stats.cone_joint == 0 and backend.asked == stats.queries > 0


@needs_yices
def test_a_cone_model_determines_its_own_loop_not_the_later_ones():
    """The first loop's slice query is sat (it has non-inductive candidates); its cone
    holds the first loop's checks, not those of the loops after it, which the model must
    not be read on."""
    vc = _vc()
    slices = loop_slices(vc)
    first, last = slices[0], slices[-1]
    by_guard = houdini.candidate_checks(vc)
    alive = set(by_guard)
    prover = slice_prover(vc)
    try:
        checks = sorted(c.index for g in first for c in by_guard[g])
        assert prover.ask(checks, vc.assumptions(set(checks), alive)).status == "sat"
        model = prover.model
        assert isinstance(model, ConeModel)
        assert all(model.fixes(c) for g in first for c in by_guard[g])
        assert not any(model.fixes(c) for g in last for c in by_guard[g])
        dead = houdini._falsified(vc, model, alive, by_guard)
        assert dead and dead <= first
        # the model's process is gone with the prover's next query
        prover.prove(checks, vc.assumptions(set(checks), alive))
        assert prover.model is None
    finally:
        prover.close()


class _AllFail:
    """A model in which every check fails, determining only the checks of ``fixed``."""

    def __init__(self, fixed: set):
        self.fixed = fixed

    def fixes(self, check) -> bool:
        return check.guard in self.fixed

    def values(self, terms):
        return [True] * len(terms)


def test_falsified_reads_a_cone_model_only_on_the_checks_it_fixes():
    vc = _vc()
    by_guard = houdini.candidate_checks(vc)
    first = loop_slices(vc)[0]
    assert houdini._falsified(vc, _AllFail(first), set(by_guard), by_guard) == first


@pytest.mark.parametrize("racing", [True, False])
def test_prove_alone_keeps_no_model(racing):
    """``prove`` (a split's part, the final check) never leaves a process behind on sat."""
    vc = _vc()
    prover = slice_prover(vc)
    if prover is None:
        pytest.skip("yices-smt2 not installed")
    try:
        first = loop_slices(vc)[0]
        checks = sorted(c.index for c in vc.checks if c.guard in first)
        assert prover.prove(checks, vc.assumptions(set(checks), first)).status == "sat"
        assert prover.model is None
    finally:
        prover.close()


@needs_yices
def test_a_splits_cone_model_drops_without_asking_the_back_end():
    """A split's one-candidate query whose cone is sat takes the cone's model (the back
    end, whose joint queries all time out here, is not asked for one): same fixpoint."""
    from test_houdini import MUTUAL, _Limited
    vc = program_vc(parse_program(MUTUAL), independent_candidates=True)
    backend, stats, prover = _Limited(vc), HoudiniStats(), slice_prover(vc)
    try:
        assert houdini_fixpoint(vc, backend, stats, prover=prover) == {"_b0", "_b1"}
    finally:
        prover.close()
    assert stats.splits >= 1 and stats.cone_models >= 1
    assert stats.dropped_on_unknown == 0
    # every one-candidate query the back end got was a joint-limit-free one of a
    # candidate whose cone query was not sat
    assert len(backend.limits) < stats.queries
