"""Offsets-first proof (vcgen.vc.slicing): benign write-write checks strengthened to the
offsets, dead definitions sliced away, and the fallback to the full program."""
from __future__ import annotations

from vcgen import il
from vcgen.il.parser import parse_program
from vcgen.vc import passify, query, slicing
from vcgen.vc.query import cut_passive
from vcgen.verify.checker import verify_program

from vcgen_progs import kernel

FLOAT = "function FMUL32(bv32, bv32): bv32;\nvar _WRITE_VALUE: bv32;\nvar _WRITE_OFFSET: bv32;\n"


GID1 = "BV32_ADD(BV32_MUL(group_id_x$1, 16bv32), local_id_x$1)"
GID2 = "BV32_ADD(BV32_MUL(group_id_x$2, 16bv32), local_id_x$2)"


def _write_pair(offset2: str, value2: str, offset1: str = GID1) -> str:
    """Thread 1 logs a write of ``$a * $a`` (uninterpreted) at ``offset1``; thread 2 writes
    ``value2`` at ``offset2``, checked as a benign-tolerant write-write race."""
    return kernel(f"""\
  var $v1: bv32;
  var $v2: bv32;
  var $dead: bv32;
  $entry:
    $v1 := FMUL32($a, $a);
    $v2 := {value2};
    $dead := FMUL32($v1, $v2);
    _WRITE_OFFSET, _WRITE_VALUE := {offset1}, $v1;
    assert {{:race "write-write", "$$A"}} {{:sourceloc "k.cl", 3, 1}} {{:check_offset {offset2}}} {{:benign_value}} !((_WRITE_OFFSET == {offset2}) && (_WRITE_VALUE != $v2));
    return;
""", params="$a: bv32", decls=FLOAT)


def _defined(pp) -> set[str]:
    return {c.expr.left.name for b in pp.blocks for c in b.cmds
            if isinstance(c, il.Assume) and il.has_attr(c.attrs, "definition")}


def test_dead_definitions_are_sliced_live_ones_kept():
    prog = parse_program(_write_pair(GID2, "FMUL32($a, $a)"))
    pp = passify.passify(prog, prog.kernel())
    sliced, dropped = slicing.slice_dead_definitions(pp)
    # $dead is read by nothing; everything else feeds the assertion
    assert dropped == 1 and "$dead@1" in _defined(pp) and "$dead@1" not in _defined(sliced)
    assert {"$v1@1", "$v2@1", "_WRITE_VALUE@1", "_WRITE_OFFSET@1"} <= _defined(sliced)


def test_offsets_first_drops_the_values_and_their_computations():
    prog = parse_program(_write_pair(GID2, "FMUL32($a, $a)"))
    strong = slicing.offsets_first(passify.passify(prog, prog.kernel()))
    assert strong is not None
    assert [str(il.free_vars(a.expr)) for a in strong.asserts if "_WRITE_VALUE" in il.free_vars(a.expr)] == []
    defined = _defined(strong)
    assert "_WRITE_OFFSET@1" in defined
    assert not {"$v1@1", "$v2@1", "$dead@1", "_WRITE_VALUE@1"} & defined


def test_no_benign_check_nothing_to_strengthen():
    text = _write_pair(GID2, "$a").replace(" {:benign_value}", "")
    assert slicing.offsets_first(cut_passive(parse_program(text))) is None


def test_distinct_offsets_verify():
    res = verify_program(parse_program(_write_pair(GID2, "$a")))
    assert res.status == "verified"


def test_same_offset_same_value_falls_back_and_verifies():
    # both threads may write the same cell (offset check fails), but always the same value:
    # the offsets-first proof fails and the full program proves the write benign
    prog = parse_program(_write_pair("0bv32", "FMUL32($a, $a)", "0bv32"))
    assert verify_program(prog).status == "verified"


def test_same_offset_other_value_is_still_a_race():
    res = verify_program(parse_program(_write_pair("0bv32", "$a", "0bv32")))
    assert res.status == "errors" and [e.kind for e in res.errors] == ["race"]


def _nest(depth: int, innermost_assert: str = "BV32_ULE($i{d}, 10bv32)") -> str:
    """``depth`` nested counting loops ``for (i_d = 0; i_d < 10; i_d++)``, each body asserting
    ``i_d <= 10`` before entering the next loop; the innermost asserts ``innermost_assert``."""
    decls = "".join(f"  var $i{d}: bv32;\n" for d in range(depth))
    blocks = ["  $entry:\n    $i0 := 0bv32;\n    goto $h0;\n"]
    for d in range(depth):
        check = innermost_assert.format(d=d) if d == depth - 1 else f"BV32_ULE($i{d}, 10bv32)"
        nxt = (f"    $i{d + 1} := 0bv32;\n    goto $h{d + 1};\n" if d < depth - 1
               else f"    $i{d} := BV32_ADD($i{d}, 1bv32);\n    goto $h{d};\n")
        after = f"    $i{d - 1} := BV32_ADD($i{d - 1}, 1bv32);\n    goto $h{d - 1};\n" if d else "    return;\n"
        blocks.append(f"  $h{d}:\n    assert {{:invariant}} BV32_ULE($i{d}, 10bv32);\n    goto $b{d}, $x{d};\n"
                      f"  $b{d}:\n    assume BV32_ULT($i{d}, 10bv32);\n    assert {check};\n{nxt}"
                      f"  $x{d}:\n    assume !BV32_ULT($i{d}, 10bv32);\n{after}")
    return kernel(decls + "".join(blocks))


def _group_sizes(text: str) -> list[int]:
    prog = parse_program(text)
    return sorted(len(g) for g in slicing.loop_check_groups(query.cut_passive(prog)))


def test_loop_nest_checks_are_grouped_per_loop():
    # one group for the kernel entry and one per loop, each of a size independent of the
    # depth: the final check's queries grow linearly with the nest
    for depth in (2, 5, 9):
        sizes = _group_sizes(_nest(depth))
        assert len(sizes) == depth + 1
        assert max(sizes) == max(_group_sizes(_nest(2)))
    # every assertion is in exactly one group
    prog = parse_program(_nest(4))
    passive = query.cut_passive(prog)
    groups = slicing.loop_check_groups(passive)
    assert sorted(i for g in groups for i in g) == [a.index for a in passive.asserts]


def test_loop_nest_by_groups_verifies_and_still_finds_the_innermost_bug():
    assert verify_program(parse_program(_nest(6))).status == "verified"
    res = verify_program(parse_program(_nest(6, innermost_assert="$i{d} != 7bv32")))
    assert res.status == "errors"
