"""The adaptive limit of the final check's joint queries (``split.SplitLimit``, docs/design.md
section 6): a short first limit, raised by the slowest joint query of the VC decided so
far.  The back end is a fake that answers from the set of enabled checks on a fake clock,
so no solver runs (splitting itself: tests/test_split.py)."""
from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from vcgen.il.parser import parse_program
from vcgen.vc.solvers import split
from vcgen.vc.solvers.inprocess import Z3Backend
from vcgen.vc.solvers.backend import Outcome
from vcgen.vc.solvers.split import SPLIT_AFTER, SPLIT_FACTOR, SPLIT_FIRST, SplitLimit, check_split
from vcgen.verify import checker
from vcgen.verify.checker import verify_program

from vcgen_progs import kernel


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def monotonic(self) -> float:
        return self.now


class FakeBackend:
    """Answers a query (the list of enabled checks, as ``assumptions_of`` gives it) with
    ``answer(checks)``, which returns ``(status, seconds)``: a query with a limit below its
    seconds times out after the limit.  ``asked``: ``(checks, limit)`` per query."""

    def __init__(self, clock: Clock, answer: Callable[[Sequence[int]], tuple[str, float]]):
        self.clock, self.answer = clock, answer
        self.asked: list[tuple[tuple, float | None]] = []
        self.name, self.queries = "fake", 0

    def check(self, assumptions: list, limit: float | None = None) -> Outcome:
        self.queries += 1
        self.asked.append((tuple(assumptions), limit))
        status, seconds = self.answer(assumptions)
        if limit is not None and seconds > limit:
            self.clock.now += limit
            return Outcome("timeout")
        self.clock.now += seconds
        return Outcome(status)


@pytest.fixture
def clock(monkeypatch) -> Clock:
    c = Clock()
    monkeypatch.setattr(split.time, "monotonic", c.monotonic)
    return c


def _all(checks: Sequence[int]) -> list:
    return list(checks)


def test_a_joint_query_first_gets_the_short_limit_then_one_query_per_check(clock):
    """A joint query the solver cannot decide costs ``SPLIT_FIRST`` seconds, not
    ``SPLIT_AFTER`` (parboil sad: 55 s joint, its checks one by one 8 s)."""
    b = FakeBackend(clock, lambda cs: ("unsat", 60.0 if len(cs) > 1 else 0.1))
    out = check_split(b, _all, [1, 2, 3])
    assert out.status == "unsat"
    assert b.asked[0] == ((1, 2, 3), SPLIT_FIRST) and SPLIT_FIRST < SPLIT_AFTER
    assert [a for a, _ in b.asked[1:]] == [(1,), (2,), (3,)]
    assert all(lim is None for _, lim in b.asked[1:])  # a single check: the full timeout
    assert clock.now == pytest.approx(SPLIT_FIRST + 0.3)


def test_a_slow_decided_joint_query_raises_the_limit_of_the_next():
    limit = SplitLimit()
    assert limit.seconds() == SPLIT_FIRST
    limit.record(1.5, Outcome("unsat"))
    assert limit.seconds() == pytest.approx(SPLIT_FACTOR * 1.5)
    limit.record(0.1, Outcome("unsat"))  # the slowest counts
    assert limit.seconds() == pytest.approx(SPLIT_FACTOR * 1.5)
    limit.record(100.0, Outcome("unsat"))
    assert limit.seconds() == SPLIT_AFTER


def test_a_timeout_does_not_raise_the_limit():
    limit = SplitLimit()
    limit.record(SPLIT_AFTER, Outcome("timeout"))
    limit.record(SPLIT_AFTER, Outcome("unknown"))
    assert limit.seconds() == SPLIT_FIRST


def test_the_limit_is_shared_by_the_queries_of_one_vc(clock):
    """Two groups on one ``SplitLimit``: the first group's 1.5 s joint query (over the
    first limit only on a slow machine) lets the second wait 4.5 s, so it is not split."""
    cost = {(1, 2): 1.5, (3, 4): 4.0}
    b = FakeBackend(clock, lambda cs: ("unsat", cost.get(tuple(cs), 0.1)))
    limit = SplitLimit()
    assert check_split(b, _all, [1, 2], limit).status == "unsat"
    assert check_split(b, _all, [3, 4], limit).status == "unsat"
    assert b.asked == [((1, 2), SPLIT_FIRST), ((3, 4), pytest.approx(SPLIT_FACTOR * 1.5))]


def test_after_a_model_joint_queries_get_the_full_limit(clock):
    """The search for further errors asks one joint query per error, each sat until the
    last: after a model (here found by a split), no more splits under the short limit
    (parboil splitSort: 43 s with 10 s, over 120 s splitting every one after 2 s)."""
    failing = {2, 3}
    b = FakeBackend(clock, lambda cs: ("sat" if failing & set(cs) else "unsat",
                                       5.0 if len(cs) > 1 else 0.1))
    limit = SplitLimit()
    assert check_split(b, _all, [1, 2, 3, 4], limit).status == "sat"
    assert b.asked == [((1, 2, 3, 4), SPLIT_FIRST), ((1,), None), ((2,), None)]
    assert limit.has_model and limit.seconds() == SPLIT_AFTER
    failing.discard(2)
    assert check_split(b, _all, [1, 3, 4], limit).status == "sat"
    assert b.asked[3:] == [((1, 3, 4), SPLIT_AFTER)]  # 5 s: decided, not split


def test_a_model_of_a_joint_query_sets_the_full_limit():
    limit = SplitLimit()
    limit.record(0.2, Outcome("sat"))
    assert limit.seconds() == SPLIT_AFTER


def test_a_fixed_limit_stays_fixed(clock):
    b = FakeBackend(clock, lambda cs: ("unsat", 5.0 if len(cs) > 1 else 0.1))
    assert check_split(b, _all, [1, 2], 7.0).status == "unsat"
    assert b.asked == [((1, 2), 7.0)]


def test_the_split_under_the_short_limit_stays_sound(clock):
    """Unsat only if every part is unsat: an undecided check after the short limit's
    split leaves the whole undecided, a sat one is the answer."""
    for bad in ("timeout", "unknown", "sat"):
        b = FakeBackend(clock, lambda cs: ("unsat", 60.0) if len(cs) > 1 else
                        (bad if cs == [2] else "unsat", 0.1))
        assert check_split(b, _all, [1, 2, 3]).status == bad
        assert [a for a, _ in b.asked[1:]] == [(1,), (2,)]


@pytest.fixture
def limits(monkeypatch) -> list:
    """The ``limit`` of every query the final check asks (z3 in-process back end)."""
    asked: list = []

    class Recording(Z3Backend):
        def check(self, assumptions, limit=None):
            asked.append(limit)
            return super().check(assumptions, limit)
    monkeypatch.setattr(checker, "make_backend", lambda vc, solver=None, timeout=None: Recording(vc))
    return asked


def _asserting(conditions: list[str], tail: str = "") -> str:
    """A kernel asserting each of ``conditions`` (thread 1), on lines 3, 4, ..."""
    return kernel("  $entry:\n" + "".join(
        f'    assert {{:sourceloc "k.cl", {i + 3}, 5}} {{:user_assert}} {{:thread 1}} {c};\n'
        for i, c in enumerate(conditions)) + tail + "    return;\n")


def test_the_final_check_asks_its_joint_query_with_the_short_limit(limits):
    """End to end (``verify_program``): the old checker gave every joint query 10 s."""
    text = _asserting(["BV32_ULT(local_id_x$1, 16bv32)", "BV32_ULT(group_id_x$1, 2bv32)"],
                      "    assert {:vacuity_check} false;\n")
    assert verify_program(parse_program(text)).status == "verified"
    assert limits[0] == SPLIT_FIRST  # the joint query; then the vacuity check, no limit


def test_after_the_first_error_every_query_is_bounded(limits):
    """Once an error is found, the search for further errors bounds even a single check's
    query (``checker.FURTHER_ERRORS_LIMIT``): the old checker asked it with no limit, so
    one hard check held the settled verdict for the full timeout."""
    # no model fails both: the joint query finds one error, the other check is asked alone
    text = _asserting(["BV32_ULT(local_id_x$1, 8bv32)", "!BV32_ULT(local_id_x$1, 4bv32)"])
    result = verify_program(parse_program(text))
    assert result.status == "errors" and len(result.errors) == 2
    assert limits == [SPLIT_FIRST, checker.FURTHER_ERRORS_LIMIT]


class CasesProver:
    """A ``split.PartProver`` that proves every part (as the cone prover proves a cased
    check case by case); ``parts``: the parts offered."""

    def __init__(self) -> None:
        self.parts: list[tuple] = []

    def prove(self, checks: Sequence[int], assumptions: list, limit: float | None = None) -> Outcome:
        self.parts.append(tuple(checks))
        return Outcome("unsat")

    def race(self, checks, backend, assumptions, limit=None) -> Outcome:
        return backend.check(assumptions, limit)


def test_a_cased_joint_query_is_not_stretched_by_slower_queries(clock):
    """A group holding a cased check gets ``first`` seconds even after the kernel's slower
    joint queries raised the limit, then its parts go to the prover; without a prover (no
    cases asked) or after a model the limit is as before."""
    limit = SplitLimit()
    limit.record(SPLIT_AFTER, Outcome("unsat"))
    assert limit.seconds() == SPLIT_AFTER > SPLIT_FIRST
    assert limit.seconds(cased=True) == SPLIT_FIRST
    b = FakeBackend(clock, lambda cs: ("unsat", 60.0 if len(cs) > 1 else 0.1))
    prover = CasesProver()
    assert check_split(b, _all, [1, 2], limit, prover=prover, cased=True).status == "unsat"
    assert b.asked == [((1, 2), SPLIT_FIRST)]
    assert prover.parts == [(1,), (2,)]
    b.asked.clear()
    check_split(b, _all, [3, 4], SplitLimit(slowest=SPLIT_AFTER), cased=True)  # no prover
    assert b.asked[0] == ((3, 4), SPLIT_AFTER)
    limit.record(0.1, Outcome("sat"))
    assert limit.seconds(cased=True) == SPLIT_AFTER
