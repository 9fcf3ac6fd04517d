"""Query splitting (``vcgen.vc.solvers.split``): a query over several checks that times
out within its limit is asked again in parts on the same back end; unsat only if every
part is, a sat part is the answer (with its model), an undecided part leaves it undecided.
"""
from __future__ import annotations

import pytest

from vcgen.il.parser import parse_program
from vcgen.vc.query import program_vc
from vcgen.vc.solvers.backend import Outcome
from vcgen.vc.solvers.inprocess import Z3Backend
from vcgen.vc.solvers.split import SplitStats, check_split
from vcgen.verify import checker
from vcgen.verify.checker import verify_program

from vcgen_progs import kernel


class _Table:
    """A fake back end: a query over more than one check runs out of its limit; a single
    check answers from ``answers`` (check -> status, default unsat)."""

    def __init__(self, answers: dict | None = None):
        self.answers = answers or {}
        self.asked: list[tuple[tuple, float | None]] = []

    def check(self, assumptions, limit=None):
        self.asked.append((tuple(assumptions), limit))
        if len(assumptions) > 1:
            return Outcome("timeout", "limit") if limit else Outcome("unknown", "no limit given")
        return Outcome(self.answers.get(assumptions[0], "unsat"))


def test_undecided_joint_query_is_split_into_one_query_per_check():
    b, stats = _Table(), SplitStats()
    out = check_split(b, tuple, [1, 2, 3, 4, 5], limit=7.0, stats=stats)
    assert out.status == "unsat" and stats.splits == 1
    assert b.asked == [((1, 2, 3, 4, 5), 7.0)] + [((k,), None) for k in (1, 2, 3, 4, 5)]


def test_split_in_halves_recursively_down_to_single_checks():
    b, stats = _Table(), SplitStats()
    out = check_split(b, tuple, [1, 2, 3, 4, 5], limit=7.0, stats=stats, ways=2)
    assert out.status == "unsat"
    singles = [q for q, _ in b.asked if len(q) == 1]
    assert sorted(singles) == [(1,), (2,), (3,), (4,), (5,)]
    assert b.asked[0] == ((1, 2, 3, 4, 5), 7.0)  # the joint query first, with the limit
    assert all(lim is None for q, lim in b.asked if len(q) == 1)  # a single check: full timeout
    assert stats.splits == 4 and stats.queries == len(b.asked)


def test_one_undecided_part_is_never_unsat():
    for ways in (None, 2):
        b = _Table({3: "timeout"})
        assert check_split(b, tuple, [1, 2, 3, 4], limit=1.0, ways=ways).status == "timeout"
        b = _Table({4: "unknown"})
        assert check_split(b, tuple, [1, 2, 3, 4], limit=1.0, ways=ways).status == "unknown"


def test_a_sat_part_is_the_answer_and_its_query_the_last():
    """The caller reads the model of the last query: that of the sat part."""
    for ways in (None, 2):
        b = _Table({3: "sat"})
        assert check_split(b, tuple, [1, 2, 3, 4], limit=1.0, ways=ways).status == "sat"
        assert b.asked[-1][0] == (3,)


def test_a_decided_joint_query_is_asked_once():
    class Quick(_Table):
        def check(self, assumptions, limit=None):
            self.asked.append((tuple(assumptions), limit))
            return Outcome("unsat")
    b = Quick()
    assert check_split(b, tuple, [1, 2, 3], limit=1.0).status == "unsat"
    assert len(b.asked) == 1


# ------------------------------------------ end to end: verify_program on a fake solver

def _asserts(conds: list[str]) -> str:
    body = "  $entry:\n"
    for i, cond in enumerate(conds):
        body += (f'    assert {{:sourceloc "k.cl", {i + 3}, 5}} {{:user_assert}} {{:thread 1}} '
                 f"{cond};\n")
    return kernel(body + "    assert {:vacuity_check} false;\n    return;\n")


HOLD = ["BV32_ULT(local_id_x$1, 16bv32)", "BV32_ULT(group_id_x$1, 2bv32)",
        "local_id_x$1 != 16bv32", "BV32_ULE(group_id_x$1, 1bv32)"]


class _Stuck:
    """z3 over the VC, except that a query enabling more than one real check times out (a
    joint query the solver cannot decide: the old checker reported a timeout), and so do
    queries enabling a check of ``undecided`` alone."""

    def __init__(self, vc, undecided=()):
        self.z3 = Z3Backend(vc)
        self.real = {c.enable.get_id(): c.index for c in vc.checks
                     if not c.is_candidate and not c.is_vacuity}
        self.undecided = set(undecided)
        self.queries: list[set[int]] = []

    def check(self, assumptions, limit=None):
        on = {self.real[a.get_id()] for a in assumptions if a.get_id() in self.real}
        self.queries.append(on)
        if len(on) > 1 or (len(on) == 1 and on <= self.undecided):
            return Outcome("timeout", "stuck")
        return self.z3.check(assumptions)

    def values(self, terms):
        return self.z3.values(terms)

    def close(self):
        pass


def _verify(monkeypatch, text: str, undecided=()):
    made: list[_Stuck] = []

    def make(vc, solver=None, timeout=None):
        made.append(_Stuck(vc, undecided))
        return made[-1]
    monkeypatch.setattr(checker, "make_backend", make)
    # the split parts go to this back end, not to yices over their cones (tests/test_cone_slice.py)
    monkeypatch.setattr(checker, "slice_prover", lambda vc, timeout=None: None)
    return verify_program(parse_program(text)), made[-1]


def test_stuck_final_check_is_proved_by_split_queries(monkeypatch):
    res, b = _verify(monkeypatch, _asserts(HOLD))
    assert res.status == "verified"
    assert [len(q) for q in b.queries if len(q) == 1] == [1, 1, 1, 1]


def test_stuck_final_check_still_finds_the_failing_assertion(monkeypatch):
    res, _ = _verify(monkeypatch, _asserts(HOLD[:2] + ["local_id_x$1 != 5bv32"] + HOLD[2:]))
    assert res.status == "errors" and len(res.errors) == 1
    assert res.errors[0].kind == "user_assert" and res.errors[0].location.line == 5


@pytest.mark.parametrize("which", [0, 3])
def test_one_undecided_assertion_is_not_verified(monkeypatch, which):
    text = _asserts(HOLD)
    vc = program_vc(parse_program(text))
    real = [c.index for c in vc.checks if not c.is_candidate and not c.is_vacuity]
    res, _ = _verify(monkeypatch, text, undecided={real[which]})
    assert res.status == "timeout"
