"""A loop invariant over a chain of log updates too long to split in the formula is asked
of the cone prover case by case (``encode.LogCaseSplitter.case_paths``, ``VC.cases``,
``solvers.sliced.SliceProver.prove``): the cases partition the check's states, so every
case unsat is the check unsat, and a failing case is never a proof."""
from __future__ import annotations

from dataclasses import dataclass

import pytest
import z3

from vcgen import il
from vcgen.il.parser import parse_program
from vcgen.vc import encode as vcmod
from vcgen.vc import query
from vcgen.vc.solvers.backend import Backend, Outcome, Wrapper
from vcgen.vc.solvers.inprocess import Z3Backend
from vcgen.vc.solvers.process import find_program
from vcgen.vc.solvers.sliced import slice_prover
from vcgen.vc.solvers.split import SplitLimit, check_split
from vcgen.verify.checker import VerifyOptions, verify_program

from vcgen_progs import kernel

GID = "BV32_ADD(BV32_MUL(group_id_x$1, 16bv32), local_id_x$1)"

DECLS = """\
function {:bvbuiltin "bvurem"} BV32_UREM(bv32, bv32): bv32;
function {:bvbuiltin "bvurem"} BV64_UREM(bv64, bv64): bv64;
function {:bvbuiltin "zero_extend 32"} BV32_ZEXT64(bv32): bv64;
var _READ_HAS_OCCURRED_$$in: bool;
var _READ_OFFSET_$$in: bv64;
"""


def _reads_loop(deltas: list[int]) -> str:
    """``for (i = gid; i < 4000000; i += 32) { in[i + d] for d in deltas }``, every read
    logged or not (one choice each), with the user invariants ``i % 32 == gid`` and
    ``offset(in) % 32 == gid`` at the head: it holds iff every delta is a multiple of 32."""
    reads = "".join(f"""\
    havoc $log{k};
    _READ_HAS_OCCURRED_$$in, _READ_OFFSET_$$in := if $log{k} then true else _READ_HAS_OCCURRED_$$in, \
if $log{k} then BV32_ZEXT64(BV32_ADD($i, {d}bv32)) else _READ_OFFSET_$$in;
""" for k, d in enumerate(deltas))
    logs = "".join(f"  var $log{k}: bool;\n" for k in range(len(deltas)))
    return kernel(f"""\
  var $i: bv32;
{logs}  $entry:
    $i := {GID};
    _READ_HAS_OCCURRED_$$in := false;
    goto $head;
  $head:
    assert {{:sourceloc "r.cl", 5, 9}} {{:user_invariant}} {{:thread 1}} BV32_UREM($i, 32bv32) == {GID};
    assert {{:sourceloc "r.cl", 6, 9}} {{:user_invariant}} {{:thread 1}} _READ_HAS_OCCURRED_$$in ==> \
BV64_UREM(_READ_OFFSET_$$in, 32bv64) == BV32_ZEXT64({GID});
    goto $body, $exit;
  $body:
    assume {{:partition}} BV32_ULT($i, 4000000bv32);
{reads}    $i := BV32_ADD($i, 32bv32);
    goto $head;
  $exit:
    assume {{:partition}} !BV32_ULT($i, 4000000bv32);
    assert {{:vacuity_check}} false;
    return;
""", decls=DECLS)


GOOD = [0, 64, 32, 96, 128, 160, 192, 224]  # 8 reads: 9 cases, over INVARIANT_SPLIT_MAX_CASES
BAD = [0, 64, 32, 96, 128, 161, 192, 224]  # the sixth read breaks the invariant


def _offset_back_edge(vc: vcmod.VC) -> vcmod.Check:
    return next(c for c in vc.checks if c.site is not None and c.has("user_invariant")
                and "_READ_OFFSET_" in str(c.site.expr) and c.index in vc.cases)


def test_long_chain_gets_case_paths_not_a_split():
    vc = query.program_vc(parse_program(_reads_loop(GOOD)))
    back = _offset_back_edge(vc)
    assert len(vc.cases[back.index]) == len(GOOD) + 1  # one per read, and "none logged"
    # the formula keeps the check unsplit (no ``holds_k`` tree)
    assert not any(z3.is_eq(c) and str(c.arg(0)) == f"holds_{back.index}" for c in vc.constraints)


def test_case_paths_partition_every_state():
    """The disjunction of the paths is valid (the cases' goals together are the check's
    goal), and no longer valid without any one path; the paths are pairwise exclusive."""
    vc = query.program_vc(parse_program(_reads_loop(GOOD)))
    paths = [z3.And(*c.path) if c.path else z3.BoolVal(True, vc.ctx) for c in vc.cases[_offset_back_edge(vc).index]]
    s = z3.Solver(ctx=vc.ctx)
    s.add(z3.Not(z3.Or(paths)))
    assert s.check() == z3.unsat
    for k in range(len(paths)):
        s = z3.Solver(ctx=vc.ctx)
        s.add(z3.Not(z3.Or(paths[:k] + paths[k + 1:])))
        assert s.check() == z3.sat
    for a in range(len(paths)):
        for b in range(a + 1, len(paths)):
            s = z3.Solver(ctx=vc.ctx)
            s.add(paths[a], paths[b])
            assert s.check() == z3.unsat


@pytest.mark.parametrize("deltas", [GOOD, BAD], ids=["holds", "fails"])
def test_case_leaf_is_the_invariant_on_its_path(deltas):
    """On each case's path the invariant's term equals the case's leaf under the body's
    log update equations (so the prover may add the leaf's negation to the case's goal),
    and not without them: z3 proves ``eqs && path ==> term == leaf`` for every case and
    finds a counterexample to ``path ==> term == leaf`` alone for every case (the leaf
    reads the logged value, or the log at the loop head, the term the log after the
    body)."""
    prog = parse_program(_reads_loop(deltas))
    passive = query.cut_passive(prog)
    vc = query.program_vc(prog)
    back = _offset_back_edge(vc)
    term = vc.translator.term(back.site.expr)
    eqs = [vc.translator.term(c.expr) for b in passive.blocks for c in b.cmds
           if isinstance(c, il.Assume) and il.has_attr(c.attrs, "definition")
           and isinstance(c.expr.right, il.IfThenElse)]
    assert len(eqs) == 2 * len(deltas)  # HAS_OCCURRED and OFFSET per read
    free = 0
    for case in vc.cases[back.index]:
        s = z3.Solver(ctx=vc.ctx)
        s.add(*case.path, term != case.leaf)
        free += s.check() == z3.sat
        s.add(*eqs)
        assert s.check() == z3.unsat
    assert free == len(deltas) + 1


def test_case_budget(monkeypatch):
    """Chains the formula splits (at most ``INVARIANT_SPLIT_MAX_CASES`` cases) and chains
    over ``CASE_PATHS_MAX`` cases get no case paths."""
    vc = query.program_vc(parse_program(_reads_loop(GOOD[:3])))
    assert not vc.cases
    monkeypatch.setattr(vcmod, "CASE_PATHS_MAX", len(GOOD))
    vc = query.program_vc(parse_program(_reads_loop(GOOD)))
    assert not vc.cases


needs_yices = pytest.mark.skipif(find_program("yices-smt2") is None, reason="yices-smt2 not installed")


@needs_yices
@pytest.mark.parametrize("deltas, status", [(GOOD, "unsat"), (BAD, "sat")], ids=["holds", "fails"])
def test_prover_asks_case_by_case(deltas, status):
    """Every case unsat proves the check; with one read off the stride, the prover's
    answer is the failing case's model (sat), which proves nothing."""
    vc = query.program_vc(parse_program(_reads_loop(deltas)))
    prover = slice_prover(vc, 60)
    assert prover is not None
    back = _offset_back_edge(vc)
    out = prover.prove([back.index], vc.assumptions({back.index}, None), 30)
    assert out.status == status
    if status == "unsat":
        assert prover.queries == len(vc.cases[back.index])


@needs_yices
@pytest.mark.parametrize("deltas, status", [(GOOD, "verified"), (BAD, "errors")], ids=["holds", "fails"])
def test_verdicts_with_case_paths(deltas, status):
    res = verify_program(parse_program(_reads_loop(deltas)), VerifyOptions(timeout=120, solver="auto"))
    assert res.status == status, res.reason
    if status == "errors":
        assert "invariant_maintained" in {e.kind for e in res.errors}


@dataclass
class JointTimeout(Wrapper):
    """A back end whose joint queries (those ``check_split`` gives a limit) time out, as
    heat-3d's final-check group over its unsplit chain of log updates does; a single
    check's query (no limit) goes to ``inner``.  ``asked``: the queries ``inner`` got."""
    inner: Backend
    asked: int = 0

    def check(self, assumptions: list, limit: float | None = None) -> Outcome:
        if limit is not None:
            return Outcome("timeout", "joint query")
        self.asked += 1
        return self.inner.check(assumptions, limit)


def _split_over(deltas: list[int], joint_times_out: bool) -> tuple[Outcome, int, int, int]:
    """``check_split`` over every real check of ``_reads_loop(deltas)`` with the cone
    prover: ``(outcome, cone queries, cases of the cased check, single-check queries of
    the back end)`` (-1: the joint query was not left to time out)."""
    vc = query.program_vc(parse_program(_reads_loop(deltas)))
    prover = slice_prover(vc, 60)
    assert prover is not None
    inner = Z3Backend(vc, 60)
    backend: Backend = JointTimeout(inner) if joint_times_out else inner
    real = [c.index for c in vc.checks if not c.is_candidate and not c.is_vacuity]
    try:
        out = check_split(backend, lambda part: vc.assumptions(set(part), None), real,
                          SplitLimit(), prover=prover)
    finally:
        inner.close()
    asked = backend.asked if isinstance(backend, JointTimeout) else -1
    return out, prover.queries, len(vc.cases[_offset_back_edge(vc).index]), asked


@needs_yices
def test_cases_asked_right_after_a_joint_timeout():
    """The final check asks a cased check case by case only once its group's joint query
    timed out: the split's part holding it goes to the cone prover, which proves it case
    by case, so the back end is never asked the check over the whole VC (heat-3d)."""
    out, cones, cases, asked = _split_over(GOOD, True)
    assert out.status == "unsat"
    assert cones >= cases  # every case, and the other checks' cones
    assert asked == 0


@needs_yices
def test_no_cone_query_when_the_joint_query_is_decided():
    """A joint query the back end decides is the answer: no case is asked (bench-scaling's
    sync-loop, a cased invariant at each loop, whose joint queries are easy)."""
    out, cones, _, _ = _split_over(GOOD, False)
    assert out.status == "unsat"
    assert cones == 0


@needs_yices
def test_failing_case_after_a_joint_timeout_is_no_proof():
    """A case with a model ends the cone proof of its check: the back end, asked that check
    alone, finds the model (sat), never an unsat."""
    out, _, _, asked = _split_over(BAD, True)
    assert out.status == "sat"
    assert asked >= 1
