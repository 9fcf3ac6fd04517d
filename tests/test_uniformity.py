"""Uniformity analysis and loop structure on hand-written one-thread IL."""
import pytest

from vcgen import il
from vcgen.il.errors import ToolError
from vcgen.analysis.loops import LoopItem, linear_order, natural_loops
from vcgen.il.parser import parse_program
from vcgen.analysis.uniformity import analyse

DECLS = """
function {:bvbuiltin "bvadd"} BV32_ADD(bv32, bv32): bv32;
function {:bvbuiltin "bvult"} BV32_ULT(bv32, bv32): bool;
const {:local_id_x} local_id_x: bv32;
const {:group_id_x} group_id_x: bv32;
var {:global} $$A: [bv32]bv32;
"""


def kernel(body: str, params: str = "$n: bv32", locals_: str = "var $i: bv32; var $x: bv32;"):
    return parse_program(DECLS + f"procedure {{:kernel}} $k({params})\n{{\n{locals_}\n{body}\n}}\n").kernel()


LOOP = """
  $entry: $i := 0bv32; goto $head;
  $head: goto $body, $exit;
  $body: assume {:partition} BV32_ULT($i, BOUND); $x := $$A[$i]; $i := BV32_ADD($i, 1bv32); goto $head;
  $exit: assume {:partition} !BV32_ULT($i, BOUND); return;
"""


def test_uniform_loop_counter_stays_uniform():
    k = kernel(LOOP.replace("BOUND", "$n"))
    u = analyse(k, {"$$A"})
    assert "$i" not in u.nonuniform_vars
    assert "$x" in u.nonuniform_vars  # loaded from shared memory
    assert u.uniform_blocks == {"$entry", "$head", "$body", "$exit"}


def test_loop_bound_on_local_id_makes_loop_divergent():
    k = kernel(LOOP.replace("BOUND", "local_id_x"))
    u = analyse(k, {"$$A"})
    assert "$i" in u.nonuniform_vars
    assert "$head" not in u.uniform_blocks and "$body" not in u.uniform_blocks
    assert "$exit" in u.uniform_blocks  # reached by both threads once both have left the loop


def test_group_id_uniform_only_within_one_group():
    body = """
  $entry: goto $t, $e;
  $t: assume {:partition} group_id_x == 0bv32; $x := 1bv32; goto $end;
  $e: assume {:partition} group_id_x != 0bv32; goto $end;
  $end: return;
"""
    k = kernel(body)
    assert "$t" not in analyse(k, {"$$A"}).uniform_blocks
    assert "$t" in analyse(k, {"$$A"}, same_group=True).uniform_blocks


def test_irreducible_cfg_is_an_error():
    body = """
  $entry: goto $a, $b;
  $a: assume {:partition} $n == 0bv32; goto $c;
  $b: assume {:partition} $n != 0bv32; goto $d;
  $c: goto $d;
  $d: goto $c;
"""
    with pytest.raises(ToolError, match="irreducible"):
        natural_loops(kernel(body))


def test_linear_order_keeps_loops_contiguous_with_header_first():
    k = kernel(LOOP.replace("BOUND", "$n"))
    items = linear_order(k, natural_loops(k))
    assert items[0] == "$entry"
    assert isinstance(items[1], LoopItem) and items[1].items == ["$head", "$body"]
    assert items[2] == "$exit"
