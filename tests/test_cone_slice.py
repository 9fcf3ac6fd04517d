"""Split parts asked over their cone of influence (``slicing.cone_constraints``,
``solvers.sliced.SliceProver``, docs/design.md section 6): a part's query keeps the facts
and the definitions its checks read, transitively; only the cone's ``unsat`` is used, and
anything else goes to the back end."""
from __future__ import annotations

import shutil
import time

import pytest
import z3

from vcgen.il.parser import parse_program
from vcgen.vc.query import program_vc
from vcgen.vc.slicing import cone_constraints
from vcgen.vc.solvers import split
from vcgen.vc.solvers.backend import Outcome
from vcgen.vc.solvers.inprocess import Z3Backend
from vcgen.vc.solvers.sliced import SliceProver, slice_prover
from vcgen.vc.solvers.split import SplitStats, check_split
from vcgen.verify import checker
from vcgen.verify.checker import VerifyOptions, verify_program

from vcgen_progs import kernel

# thread 1 takes one of two branches; each branch has its own assertion, the join a third
DIAMOND = kernel("""\
  var $x: bv32;
  $entry:
    goto $left, $right;
  $left:
    assume {:partition} BV32_ULT(local_id_x$1, 8bv32);
    $x := BV32_ADD(local_id_x$1, 1bv32);
    assert {:sourceloc "k.cl", 3, 5} {:user_assert} {:thread 1} BV32_ULE($x, 8bv32);
    goto $join;
  $right:
    assume {:partition} !BV32_ULT(local_id_x$1, 8bv32);
    $x := BV32_SUB(local_id_x$1, 8bv32);
    assert {:sourceloc "k.cl", 4, 5} {:user_assert} {:thread 1} BV32_ULT($x, LIMIT);
    goto $join;
  $join:
    assert {:sourceloc "k.cl", 5, 5} {:user_assert} {:thread 1} BV32_ULT($x, 16bv32);
    assert {:vacuity_check} false;
    return;
""")


def _vc(limit: str = "8bv32"):
    return program_vc(parse_program(DIAMOND.replace("LIMIT", limit)))


def _real(vc) -> list[int]:
    return [c.index for c in vc.checks if not c.is_candidate and not c.is_vacuity]


def _defined(vc, cone: list[int]) -> set[str]:
    return {name for name, (i, _) in vc.definitions.items() if i in cone}


def test_the_cone_of_a_branch_check_leaves_out_the_other_branch_and_what_follows():
    vc = _vc()
    left, right, join = _real(vc)
    cone = cone_constraints(vc, [left])
    names = _defined(vc, cone)
    assert f"fail_{left}" in names
    assert f"fail_{right}" not in names and f"ok_{right}" not in names
    assert f"fail_{join}" not in names
    axioms = list(range(vc.blocks[0].first))
    assert set(axioms) <= set(cone)  # facts are always kept
    assert len(cone) < len(vc.constraints)


def test_the_cone_of_the_join_check_reads_both_branches_and_their_assumed_checks():
    vc = _vc()
    left, right, join = _real(vc)
    names = _defined(vc, cone_constraints(vc, [join]))
    assert {f"ok_{left}", f"ok_{right}", f"fail_{join}"} <= names
    assert f"fail_{left}" not in names  # a check's failure is read by nobody


@pytest.mark.parametrize("limit", ["8bv32", "4bv32"])
def test_the_cone_query_answers_as_the_whole_query(limit):
    """Exact, not only sound: every check's cone query is sat iff the whole query with that
    check alone enabled is (with ``LIMIT`` 4 the right branch's check fails)."""
    vc = _vc(limit)
    whole = Z3Backend(vc)
    answers = []
    for k in _real(vc):
        s = z3.Solver(ctx=vc.ctx)
        s.add(*[vc.constraints[i] for i in cone_constraints(vc, [k])], vc.checks[k].fail)
        answers.append(str(s.check()))
        assert answers[-1] == whole.check(vc.assumptions({k})).status
    assert answers == (["unsat"] * 3 if limit == "8bv32" else ["unsat", "sat", "unsat"])


class _Table:
    """A fake back end: queries over several checks time out; single checks are unsat."""

    def __init__(self):
        self.asked: list[tuple] = []

    def check(self, assumptions, limit=None):
        self.asked.append(tuple(assumptions))
        return Outcome("timeout") if len(assumptions) > 1 else Outcome("unsat")


class _Prover:
    def __init__(self, answers: dict):
        self.answers, self.asked = answers, []

    def prove(self, checks, assumptions, limit=None):
        self.asked.append((tuple(checks), limit))
        return Outcome(self.answers.get(tuple(checks), "unknown"))

    def race(self, checks, backend, assumptions, limit=None):
        return backend.check(assumptions, limit)


def test_a_part_the_prover_proves_is_not_asked_of_the_back_end():
    b, p, stats = _Table(), _Prover({(1,): "unsat", (3,): "unsat"}), SplitStats()
    assert check_split(b, tuple, [1, 2, 3], limit=1.0, stats=stats, prover=p).status == "unsat"
    assert b.asked == [(1, 2, 3), (2,)]
    assert [c for c, _ in p.asked] == [(1,), (2,), (3,)]
    assert all(lim == split.SPLIT_AFTER for _, lim in p.asked)  # bounded, never endless
    assert stats.queries == 4


def test_every_part_proved_by_the_prover_is_unsat_not_the_joint_timeout():
    b, p = _Table(), _Prover({(1,): "unsat", (2,): "unsat"})
    assert check_split(b, tuple, [1, 2], limit=1.0, prover=p).status == "unsat"
    assert b.asked == [(1, 2)]


def test_the_provers_sat_decides_nothing():
    """A model comes from the back end only (the caller reads it with ``values``)."""
    class Sat(_Table):
        def check(self, assumptions, limit=None):
            self.asked.append(tuple(assumptions))
            return Outcome("timeout") if len(assumptions) > 1 else Outcome(
                "sat" if tuple(assumptions) == (2,) else "unsat")
    for prover_says in ("sat", "unknown", "timeout"):
        b = Sat()
        out = check_split(b, tuple, [1, 2], limit=1.0, prover=_Prover({(2,): prover_says, (1,): "unsat"}))
        assert out.status == "sat" and b.asked[-1] == (2,)
        b = _Table()  # the back end proves what the prover did not
        assert check_split(b, tuple, [1, 2], limit=1.0,
                           prover=_Prover({(2,): prover_says})).status == "unsat"


needs_yices = pytest.mark.skipif(slice_prover(_vc()) is None and shutil.which("yices-smt2") is None,
                                 reason="yices-smt2 not installed")


@needs_yices
def test_slice_prover_with_yices_proves_holding_checks_only():
    vc = _vc("4bv32")
    prover = slice_prover(vc)
    assert isinstance(prover, SliceProver)
    left, right, join = _real(vc)
    statuses = [prover.prove([k], vc.assumptions({k})).status for k in (left, right, join)]
    assert statuses == ["unsat", "sat", "unsat"]
    assert prover.queries == 3 and prover.proved == 2


class _Stuck:
    """z3 over the VC, but every query over more than one check times out."""

    def __init__(self, vc):
        self.z3, self.queries = Z3Backend(vc), 0
        self.real = {c.enable.get_id() for c in vc.checks if not c.is_candidate and not c.is_vacuity}
        self.singles = 0

    def check(self, assumptions, limit=None):
        on = [a for a in assumptions if a.get_id() in self.real]
        if len(on) > 1:
            return Outcome("timeout", "stuck")
        self.singles += len(on) == 1
        return self.z3.check(assumptions)

    def values(self, terms):
        return self.z3.values(terms)

    def close(self):
        pass


def _verify(monkeypatch, text: str, solver: str | None = "auto"):
    """``verify_program`` with the back end ``_Stuck`` under ``--solver=solver``."""
    made: list[_Stuck] = []

    def make(vc, solver=None, timeout=None):
        made.append(_Stuck(vc))
        return made[-1]
    monkeypatch.setattr(checker, "make_backend", make)
    return verify_program(parse_program(text), VerifyOptions(solver=solver)), made[-1]


@needs_yices
def test_the_final_check_proves_split_parts_on_their_cones(monkeypatch):
    res, b = _verify(monkeypatch, DIAMOND.replace("LIMIT", "8bv32"))
    assert res.status == "verified"
    assert b.singles == 0  # every part proved over its cone


@needs_yices
def test_a_solver_the_user_chose_is_the_only_one_asked(monkeypatch):
    """``--solver=z3`` (None) or a command line: no yices over the cones, every part goes
    to the chosen back end."""
    res, b = _verify(monkeypatch, DIAMOND.replace("LIMIT", "8bv32"), solver=None)
    assert res.status == "verified" and b.singles > 0


@needs_yices
def test_a_failing_split_part_is_still_reported_from_the_back_ends_model(monkeypatch):
    res, b = _verify(monkeypatch, DIAMOND.replace("LIMIT", "4bv32"))
    assert res.status == "errors" and [e.location.line for e in res.errors] == [4]
    assert b.singles == 1  # the failing part only


def test_cone_queries_get_a_short_limit_that_grows_with_the_slowest_proof(monkeypatch):
    """A cone query yices does not decide soon goes to the back end's portfolio after
    ``CONE_FIRST`` seconds, not after the caller's limit (CUDA shfl_vertical_shfl: three
    cone queries ran out of 10 s each, then z3 or yices decided the whole query)."""
    from vcgen.vc.solvers import sliced
    asked: list = []
    clock = [0.0]

    class Fake:
        name = "fake"

        def __init__(self, vc, command, timeout=None, prelude=""):
            pass

        def check(self, assumptions, limit=None):
            asked.append(limit)
            clock[0] += 0.9
            return Outcome("unsat")

        def close(self):
            pass
    monkeypatch.setattr(sliced, "OneShotBackend", Fake)
    monkeypatch.setattr(sliced.time, "perf_counter", lambda: clock[0])
    vc = _vc()
    prover = SliceProver(vc, ["yices-smt2"])
    k = _real(vc)[0]
    prover.prove([k], vc.assumptions({k}), split.SPLIT_AFTER)
    prover.prove([k], vc.assumptions({k}), split.SPLIT_AFTER)
    assert asked == [sliced.CONE_FIRST, pytest.approx(sliced.CONE_FACTOR * 0.9)]
    prover.prove([k], vc.assumptions({k}), 1.0)  # never beyond the caller's limit
    assert asked[-1] == 1.0


def test_after_a_split_proved_by_the_prover_the_next_query_starts_with_the_parts():
    """The second group's joint query is skipped: the first one's timed out and the
    prover proved every part; a part it does not prove ends that (joint query again)."""
    b, limit = _Table(), split.SplitLimit()
    p = _Prover({(k,): "unsat" for k in (1, 2, 3, 4)})
    assert check_split(b, tuple, [1, 2], limit=limit, prover=p).status == "unsat"
    assert limit.cones_first
    assert check_split(b, tuple, [3, 4], limit=limit, prover=p).status == "unsat"
    assert b.asked == [(1, 2)]  # no joint (3, 4)
    assert check_split(b, tuple, [5, 6], limit=limit, prover=p).status == "unsat"
    assert b.asked == [(1, 2), (5,), (6,)] and not limit.cones_first
    assert check_split(b, tuple, [3, 4], limit=limit, prover=p).status == "unsat"
    assert b.asked[-1] == (3, 4)  # joint first again


def test_a_split_slower_than_the_joint_limit_keeps_the_joint_query_first():
    class Slow(_Prover):
        def prove(self, checks, assumptions, limit=None):
            time.sleep(0.03)
            return super().prove(checks, assumptions, limit)
    b, limit = _Table(), split.SplitLimit(first=0.05)
    assert check_split(b, tuple, [1, 2, 3], limit=limit, prover=Slow({(k,): "unsat" for k in (1, 2, 3)})
                       ).status == "unsat"
    assert not limit.cones_first


def test_a_part_proved_in_the_provers_race_counts_as_the_provers():
    """A part whose cone query ran past its limit and then won its race with the back end
    (``split.PROVER_WON``) is the prover's proof, its time not counted against the joint
    limit: the next query starts with the parts.  An unsat of the back end in the race
    still ends cones first."""
    class Racing(_Prover):
        def race(self, checks, backend, assumptions, limit=None):
            time.sleep(0.1)  # longer than the joint limit: its cone's hard search
            return Outcome("unsat", split.PROVER_WON)
    b, limit = _Table(), split.SplitLimit(first=0.05)
    p = Racing({(1,): "unsat", (3,): "unsat", (4,): "unsat"})  # (2,) not proved within its limit
    assert check_split(b, tuple, [1, 2, 3], limit=limit, prover=p).status == "unsat"
    assert limit.cones_first and b.asked == [(1, 2, 3)]
    assert check_split(b, tuple, [3, 4], limit=limit, prover=p).status == "unsat"
    assert b.asked == [(1, 2, 3)]  # no joint (3, 4)
    limit.cones_first = False
    b2 = _Table()
    assert check_split(b2, tuple, [1, 2], limit=limit, prover=_Prover({(1,): "unsat"})).status == "unsat"
    assert not limit.cones_first  # (2,): the back end's unsat in ``race``
