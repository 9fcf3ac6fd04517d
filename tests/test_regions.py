"""Region queries (vcgen.vc.regions, vcgen.vc.solvers.regional): a check asked first over
the part of the VC after the cut point that owns it; region unsat is a proof, anything
else goes to the whole VC."""
from __future__ import annotations

import z3

from vcgen.il.parser import parse_program
from vcgen.vc import query, regions
from vcgen.vc.regions import Regions
from vcgen.vc.solvers.inprocess import Z3Backend
from vcgen.vc.solvers.regional import RegionalBackend, regional
from vcgen.vc.solvers.select import make_backend
from vcgen.verify.checker import verify_program

from test_slicing import _nest
from vcgen_progs import kernel


def _innermost(depth: int):
    """The VC of ``_nest(depth)`` and the region of its innermost loop's checks."""
    vc = query.program_vc(parse_program(_nest(depth)))
    regions = Regions(vc)
    inner = max(regions.owners(), key=lambda o: [b.label for b in vc.passive.blocks].index(o))
    checks = [i for i, o in regions.owner.items() if o == inner]
    return vc, regions.for_checks(checks), checks


def test_region_of_an_inner_loop_does_not_grow_with_the_nest():
    # the innermost loop's region: its body and its parent's path to it, plus the facts of
    # the outer blocks that share its variables (none of the outer counters): the same
    # size at depth 8 and 14, while the VC grows
    vc8, r8, _ = _innermost(8)
    vc14, r14, _ = _innermost(14)
    assert r8 is not None and r14 is not None
    assert len(vc14.constraints) > 1.5 * len(vc8.constraints)
    assert r8.size == r14.size


def test_region_unsat_answers_without_the_whole_vc():
    vc, region, checks = _innermost(10)
    backend = RegionalBackend(vc, Z3Backend(vc))
    assert backend.check(vc.assumptions(set(checks), None)).status == "unsat"
    assert backend.region_unsat == 1 and backend.last is not backend.inner


def test_whole_vc_decides_when_the_region_lacks_the_prefix(monkeypatch):
    # ``x`` is set on both branches of an ``if`` before the outer loop (join copies, which
    # no dominator of the loops holds); the inner loop's region starts at the outer cut
    # point and knows nothing of ``x``: its model is spurious, the whole VC proves the check
    def prog(other: str) -> str:
        return kernel(f"""\
  var $x: bv32;
  var $i: bv32;
  var $j: bv32;
  $entry:
    $i := 0bv32;
    goto $then, $else;
  $then:
    assume $a == 0bv32;
    $x := 1bv32;
    goto $h;
  $else:
    assume $a != 0bv32;
    $x := {other};
    goto $h;
  $h:
    assert {{:invariant}} BV32_ULE($i, 10bv32);
    goto $b, $done;
  $b:
    assume BV32_ULT($i, 10bv32);
    $j := 0bv32;
    goto $h2;
  $h2:
    assert {{:invariant}} BV32_ULE($j, 10bv32);
    goto $b2, $x2;
  $b2:
    assume BV32_ULT($j, 10bv32);
    assert $x != 0bv32;
    $j := BV32_ADD($j, 1bv32);
    goto $h2;
  $x2:
    assume !BV32_ULT($j, 10bv32);
    $i := BV32_ADD($i, 1bv32);
    goto $h;
  $done:
    assume !BV32_ULT($i, 10bv32);
    return;
""", params="$a: bv32")
    monkeypatch.setattr(regions, "REGION_MAX_SHARE", 1.0)  # a small nest: large regions
    vc = query.program_vc(parse_program(prog("2bv32")))
    backend = regional(vc, Z3Backend(vc))
    assert isinstance(backend, RegionalBackend)
    body = [c.index for c in vc.checks if c.site is not None and c.site.block == "$b2"]
    assert backend.check(vc.assumptions(set(body), None)).status == "unsat"
    assert backend.region_unsat == 0  # the region's model was spurious
    assert verify_program(parse_program(prog("2bv32"))).status == "verified"
    # and a real zero on one branch is still found, with its model from the whole VC
    res = verify_program(parse_program(prog("0bv32")))
    assert res.status == "errors"


def test_no_loop_no_regions():
    vc = query.program_vc(parse_program(kernel("  $entry:\n    assert $a != 0bv32;\n    return;\n",
                                               params="$a: bv32")))
    inner = Z3Backend(vc)
    assert regional(vc, inner) is inner


def test_deep_nest_verifies_and_finds_the_innermost_bug_through_regions():
    prog = parse_program(_nest(7))
    vc = query.program_vc(prog)
    assert isinstance(make_backend(vc), RegionalBackend)
    assert verify_program(prog).status == "verified"
    res = verify_program(parse_program(_nest(7, innermost_assert="$i{d} != 7bv32")))
    assert res.status == "errors" and len(res.errors) == 1



def _chained(depth: int) -> str:
    """``_nest(depth)`` with a variable ``$x`` every loop assigns and whose invariant
    relates it to its value at the loop's entry (``$e_d := $x`` before loop ``d``): each
    loop's invariant shares a variable with its parent's, a chain through the whole nest
    (as the program counters and access logs of a loop nest with barriers)."""
    body = _nest(depth)
    body = body.replace("  var $i0: bv32;\n", "  var $i0: bv32;\n  var $x: bv32;\n" +
                        "".join(f"  var $e{d}: bv32;\n" for d in range(depth)), 1)
    for d in range(depth):
        body = body.replace(f"    goto $h{d};\n", f"    $e{d} := $x;\n    goto $h{d};\n", 1)  # the entry
        body = body.replace(f"  $h{d}:\n    assert {{:invariant}} BV32_ULE($i{d}, 10bv32);\n",
                            f"  $h{d}:\n    assert {{:invariant}} BV32_ULE($i{d}, 10bv32);\n"
                            f"    assert {{:invariant}} $x == $e{d};\n", 1)
        body = body.replace(f"  $b{d}:\n    assume BV32_ULT($i{d}, 10bv32);\n",
                            f"  $b{d}:\n    assume BV32_ULT($i{d}, 10bv32);\n    $x := $x;\n", 1)
    return body


def test_region_facts_do_not_follow_a_chain_through_the_nest(monkeypatch):
    # the innermost region takes the facts of its enclosing loops that share a variable
    # with it (the enclosing invariant over ``$x`` and its entry value), but not the facts
    # those pull in in turn (FACT_HOPS): its size does not grow with the depth, and its
    # checks are still proved by the region
    monkeypatch.setattr(regions, "REGION_MAX_SHARE", 1.0)  # small nests: large regions

    def innermost(depth):
        vc = query.program_vc(parse_program(_chained(depth)))
        regions = Regions(vc)
        order = [b.label for b in vc.passive.blocks]
        inner = max(regions.owners(), key=order.index)
        checks = [i for i, o in regions.owner.items() if o == inner]
        return vc, regions.for_checks(checks), checks

    (vc6, r6, _), (vc12, r12, checks) = innermost(6), innermost(12)
    assert r6 is not None and r12 is not None and r6.size == r12.size
    backend = RegionalBackend(vc12, Z3Backend(vc12))
    assert backend.check(vc12.assumptions(set(checks), None)).status == "unsat"
    assert backend.region_unsat == 1
    assert verify_program(parse_program(_chained(6))).status == "verified"


def test_region_query_assumes_only_the_guards_its_region_reads(monkeypatch):
    # three loops one after the other, each with a candidate: the first loop's region
    # reads its own guard and the second's (the second loop's entry check is owned by the
    # first cut point), not the third's, whose literal is left out of the region query
    # (Houdini passes every guard of the VC in every query)
    loops = "".join(f"""\
  $h{d}:
    assert {{:candidate "c"}} _b{d} ==> BV32_ULE($i{d}, 10bv32);
    goto $b{d}, $x{d};
  $b{d}:
    assume BV32_ULT($i{d}, 10bv32);
    assert BV32_ULE($i{d}, 10bv32);
    $i{d} := BV32_ADD($i{d}, 1bv32);
    goto $h{d};
  $x{d}:
    assume !BV32_ULT($i{d}, 10bv32);
    {f"$i{d + 1} := 0bv32; goto $h{d + 1};" if d < 2 else "return;"}
""" for d in range(3))
    prog = parse_program(kernel("".join(f"  var $i{d}: bv32;\n" for d in range(3)) +
                                "  $entry:\n    $i0 := 0bv32;\n    goto $h0;\n" + loops,
                                decls="".join(f"const {{:existential true}} _b{d}: bool;\n"
                                              for d in range(3))))
    monkeypatch.setattr(regions, "REGION_MAX_SHARE", 1.0)  # a small VC: large regions
    vc = query.program_vc(prog)
    backend = regional(vc, Z3Backend(vc))
    assert isinstance(backend, RegionalBackend)
    first = [c.index for c in vc.checks if c.site is not None and c.site.block == "$b0"]
    region = backend.regions.for_checks(first)
    assert region is not None and region.guards == frozenset({"_b0", "_b1"})
    asked: list = []
    check = z3.Z3_solver_check_assumptions
    monkeypatch.setattr(z3, "Z3_solver_check_assumptions",
                        lambda ctx, s, n, lits: asked.append(n) or check(ctx, s, n, lits))
    lits = vc.assumptions(set(first), None)
    assert backend.check(lits).status == "unsat" and backend.region_unsat == 1
    assert asked == [len(region.checks) + 2]  # a literal per check of the region, two guards
