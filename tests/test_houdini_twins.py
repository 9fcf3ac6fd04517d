"""Thread twins in Houdini (``vcgen.inference.twins``): a model read with the threads'
roles swapped drops a candidate's ``$1``/``$2`` twin without a query of its own, and only
when z3 finds a real model of the twin's Houdini query."""
from __future__ import annotations

import z3

from vcgen import il
from vcgen.il.parser import parse_program
from vcgen.inference import houdini, twins
from vcgen.inference.houdini import HoudiniStats, houdini_fixpoint
from vcgen.vc.query import program_vc
from vcgen.vc.solvers.inprocess import Z3Backend
from vcgen.verify.checker import verify_program

from vcgen_progs import header_1d, kernel


def _strides(extra_axiom: str = "") -> str:
    """Each thread adds its local id to its own ``$v`` four times: ``$v$1 < 64`` and its
    twin ``$v$2 < 64`` hold at the loop head only for a thread whose id is small."""
    return kernel("""\
  var $k: bv32;
  var $v$1: bv32;
  var $v$2: bv32;
  $entry:
    $k, $v$1, $v$2 := 0bv32, 0bv32, 0bv32;
    goto $head;
  $head:
    assert {:candidate "r1"} _b0 ==> BV32_ULT($v$1, 64bv32);
    assert {:candidate "r1"} _b1 ==> BV32_ULT($v$2, 64bv32);
    assert {:candidate "r2"} _b2 ==> BV32_ULE($k, 4bv32);
    goto $body, $exit;
  $body:
    assume {:partition} BV32_ULT($k, 4bv32);
    $k, $v$1, $v$2 := BV32_ADD($k, 1bv32), BV32_ADD($v$1, local_id_x$1), BV32_ADD($v$2, local_id_x$2);
    goto $head;
  $exit:
    assume {:partition} !BV32_ULT($k, 4bv32);
    assert {:vacuity_check} false;
    return;
""", header=header_1d(group_size=32) + extra_axiom,
        decls="".join(f"const {{:existential true}} _b{k}: bool;\n" for k in range(3)))


def test_swapped_name_and_twin_guards():
    assert twins.swapped_name("$v$1") == "$v$2"
    assert twins.swapped_name("$v$2@3") == "$v$1@3"
    assert twins.swapped_name("$x.fca$1$2") == "$x.fca$1$1"  # the last $1/$2 is the thread
    assert twins.swapped_name("group_size_x") is None
    assert twins.swapped_name("_READ_HAS_OCCURRED_$$a@2") is None
    vc = program_vc(parse_program(_strides()), independent_candidates=True)
    assert twins.twin_guards(vc.checks) == {"_b0": "_b1", "_b1": "_b0"}


def _model_failing_only(vc, backend: Z3Backend, guard: str, spared: str, alive: set) -> None:
    """Make ``backend`` hold a model of the Houdini query over ``guard``'s checks in which
    every check of ``spared`` holds (as a solver may well answer)."""
    by_guard = {c.guard: [] for c in vc.checks if c.is_candidate}
    for c in vc.checks:
        if c.is_candidate:
            by_guard[c.guard].append(c)
    hold = [z3.Not(c.fail) for c in by_guard[spared]]
    out = backend.check(vc.assumptions({c.index for c in by_guard[guard]}, alive) + hold)
    assert out.status == "sat"
    assert houdini._falsified(vc, backend, alive, by_guard) == {guard}


def test_swapped_model_drops_the_twin():
    """A model failing ``$v$1 < 64`` only (thread 1's id large, thread 2's 0): the pinned
    query with the threads' values swapped is sat, and its model fails the twin."""
    vc = program_vc(parse_program(_strides()), independent_candidates=True)
    backend = Z3Backend(vc)
    alive = {"_b0", "_b1", "_b2"}
    _model_failing_only(vc, backend, "_b0", "_b1", alive)
    by_guard: dict = {}
    for c in vc.checks:
        if c.is_candidate:
            by_guard.setdefault(c.guard, []).append(c)
    swap = twins.ThreadSwap(vc)
    model = swap.refute(backend, vc.assumptions({c.index for c in by_guard["_b1"]}, alive - {"_b0"}), None)
    assert model is not None and swap.queries == 1
    assert "_b1" in houdini._falsified(vc, model, alive - {"_b0"}, by_guard)


def test_twin_run_drops_nothing_when_the_swap_is_no_model():
    """Thread 1's id is 0 (an asymmetric axiom): ``$v$1 < 64`` is inductive, its twin is
    not.  The model that fails the twin, swapped, breaks the axiom: the pinned query is
    unsat and Houdini keeps ``$v$1 < 64`` (a guess from the twin would drop it)."""
    prog = parse_program(_strides("axiom local_id_x$1 == 0bv32;\n"))
    vc = program_vc(prog, independent_candidates=True)
    stats = HoudiniStats()
    alive = houdini_fixpoint(vc, Z3Backend(vc), stats)
    assert alive == {"_b0", "_b2"}
    assert stats.twin_queries >= 1 and stats.twins == 0
    assert verify_program(houdini.apply_invariants(prog, alive)).status == "verified"


class _SparingTwins:
    """z3 in-process answering each Houdini query with a model in which the twin (per
    ``of``) of the first enabled candidate holds, when there is one: the one model per
    query a solver may give."""

    def __init__(self, vc, of: dict):
        self.inner, self.vc, self.of = Z3Backend(vc), vc, of

    def check(self, assumptions, limit=None):
        on = {str(a) for a in assumptions}
        guards = sorted({c.guard for c in self.vc.checks if c.is_candidate and str(c.enable) in on})
        spare = self.of.get(guards[0]) if guards else None
        if spare is not None and str(self.vc.guards[spare]) in on and spare not in guards[:1]:
            hold = [z3.Not(c.fail) for c in self.vc.checks if c.guard == spare]
            out = self.inner.check(list(assumptions) + hold, limit)
            if out.status == "sat":
                return out
        return self.inner.check(assumptions, limit)

    def values(self, terms):
        return self.inner.values(terms)


def test_houdini_asks_one_query_less_per_twin(monkeypatch):
    """Same fixpoint with and without twins; with them the twin of the dropped candidate
    goes with the same answer (one pinned query instead of one Houdini query)."""
    prog = parse_program(_strides())
    vc = program_vc(prog, independent_candidates=True)
    of = twins.twin_guards(vc.checks)
    runs = {}
    for on in (True, False):
        if not on:
            monkeypatch.setattr(houdini, "twin_guards", lambda checks: {})
        stats = HoudiniStats()
        alive = houdini_fixpoint(vc, _SparingTwins(vc, of), stats)
        runs[on] = (alive, stats.queries, stats.twins)
    assert runs[True][0] == runs[False][0] == {"_b2"}
    assert runs[True][2] == 1 and runs[False][2] == 0
    assert runs[True][1] == runs[False][1] - 1
    out = houdini.apply_invariants(prog, runs[True][0])
    assert [il.attr(c.attrs, "inferred").args for b in out.kernel().blocks for c in b.cmds
            if isinstance(c, il.Assert) and il.has_attr(c.attrs, "inferred")] == [("r2",)]
