"""The bit-blasting companion of a cone query past its limit (``sliced.SliceProver._companion``):
the same cone, ``Int`` rewritten as bit-vectors, to yices with ``--delegate``; it races
with the cone query that timed out, and only its unsat counts."""
from __future__ import annotations

import shutil
import time

import pytest
import z3

from vcgen.il.parser import parse_program
from vcgen.vc.query import program_vc
from vcgen.vc.slicing import cone_constraints
from vcgen.vc.solvers import sliced
from vcgen.vc.solvers.sliced import DELEGATE, SliceProver, slice_prover

from test_cone_race import _Back, _Cone
from test_cone_slice import _real, _vc
from vcgen_progs import kernel

needs_yices = pytest.mark.skipif(shutil.which("yices-smt2") is None and sliced.find_program("yices-smt2") is None,
                                 reason="yices-smt2 not installed")

# a program counter of sort int (as the two-thread program's ``cur$t``), compared and
# chosen, never added: thread 1's branch decides which assertion applies
COUNTER = kernel("""\
  var $x: bv32;
  var $pc: int;
  $entry:
    $x := BV32_ADD(local_id_x$1, 1bv32);
    goto $left, $right;
  $left:
    assume {:partition} BV32_ULT(local_id_x$1, 8bv32);
    $pc := 5;
    goto $join;
  $right:
    assume {:partition} !BV32_ULT(local_id_x$1, 8bv32);
    $pc := 7;
    goto $join;
  $join:
    assert {:sourceloc "k.cl", 3, 5} {:user_assert} {:thread 1} $pc == 5 ==> BV32_ULE($x, 8bv32);
    assert {:sourceloc "k.cl", 4, 5} {:user_assert} {:thread 1} $pc == 7 ==> BV32_ULE($x, LIMIT);
    assert {:vacuity_check} false;
    return;
""")


def _companion_answer(vc, k: int) -> str:
    prover = slice_prover(vc)
    assert prover is not None and prover.delegate == DELEGATE
    check = vc.checks[k]
    solver = prover._companion(cone_constraints(vc, [k]), z3.And(check.enable, check.fail),
                               vc.assumptions({k}), frozenset())
    assert solver is not None and f"--delegate={DELEGATE}" in solver.command
    try:
        return solver.resume(30).status
    finally:
        solver.close()


@needs_yices
def test_the_companion_decides_a_cone_with_integers_as_bit_vectors():
    """Its script (``Int`` as bit-vectors, QF_BV) gets the integer formula's answers: the
    first check holds, the second fails for a thread of id 8 or more when the limit is
    small (the second assertion: ``$x <= 8`` with ``$x`` up to 2^32-1)."""
    vc = program_vc(parse_program(COUNTER.replace("LIMIT", "4294967295bv32")))
    assert {"BV", "LIA"} <= vc.translator.features
    first, second = _real(vc)[:2]
    assert _companion_answer(vc, first) == "unsat"
    assert _companion_answer(vc, second) == "unsat"
    vc = program_vc(parse_program(COUNTER.replace("LIMIT", "8bv32")))
    assert _companion_answer(vc, _real(vc)[1]) == "sat"


def test_no_companion_without_bit_vectors_only(monkeypatch):
    """Arrays, mathematical integers (``--math-int``: integer arithmetic) or no delegate:
    no companion; the cone query alone races the back end, as before."""
    monkeypatch.setattr(sliced, "find_program", lambda name: "/bin/yices-smt2")
    diamond = _vc()
    assert slice_prover(diamond)._bv_ok
    assert not SliceProver(diamond, ["yices-smt2"])._bv_ok  # no delegate given
    ints = program_vc(parse_program(COUNTER.replace("LIMIT", "8bv32")), math_int=True)
    prover = slice_prover(ints)
    k = _real(ints)[0]
    check = ints.checks[k]
    assert prover._companion(cone_constraints(ints, [k]), z3.And(check.enable, check.fail),
                             ints.assumptions({k}), frozenset()) is None
    arrays = program_vc(parse_program(kernel("""\
  var $m: [bv32]bv32;
  $entry:
    $m[local_id_x$1] := 1bv32;
    assert {:sourceloc "k.cl", 3, 5} {:user_assert} {:thread 1} $m[local_id_x$1] == 1bv32;
    return;
""")))
    assert "A" in arrays.translator.features and not slice_prover(arrays)._bv_ok


def _past_its_limit(monkeypatch, cone: _Cone, companion: _Cone):
    """A prover (with a delegate) whose cone query of a check ``k`` of ``_vc()`` just ran
    past its limit (``cone``), with ``companion`` started for it: ``(prover, vc, k)``."""
    monkeypatch.setattr(sliced, "OneShotBackend", lambda *a, **k: cone)
    vc = _vc()
    prover = SliceProver(vc, ["yices-smt2"], delegate=DELEGATE)
    monkeypatch.setattr(prover, "_companion", lambda *a: companion)
    k = _real(vc)[0]
    assert prover.prove([k], vc.assumptions({k})).status == "timeout"
    return prover, vc, k


def test_the_companions_unsat_wins_the_race_the_cone_query_does_not(monkeypatch):
    """The cone query past its limit stays stuck and the back end times out; the companion,
    started at the cone query's timeout, answers unsat first: the part is proved, every
    process closed (without a companion the answer is the back end's timeout)."""
    cone, companion = _Cone("unsat", 30), _Cone("unsat", 0.05)
    prover, vc, k = _past_its_limit(monkeypatch, cone, companion)
    assumptions = vc.assumptions({k})
    back = _Back("timeout", 2)
    start = time.monotonic()
    assert prover.race([k], back, assumptions).status == "unsat"
    assert time.monotonic() - start < 1.5
    assert back.cancelled.is_set() and cone.cancelled.is_set()
    assert cone.closed and companion.closed
    assert prover.races_won == 1


def test_a_companion_no_race_takes_is_closed(monkeypatch):
    """The next query (``prove``) or a race for another part ends the companion of the
    cone query left searching, as it ends that query."""
    for end in ("prove", "race"):
        cone, companion = _Cone("unsat", 30), _Cone("unsat", 30)
        prover, vc, k = _past_its_limit(monkeypatch, cone, companion)
        if end == "prove":
            prover.prove([k], vc.assumptions({k}))
        else:
            prover.race([k + 1], _Back("timeout", 0.01), vc.assumptions({k + 1}))
        assert companion.closed
