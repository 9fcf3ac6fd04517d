"""Small two-thread IL programs for the VC/Houdini/report tests (helpers, not tests)."""
from __future__ import annotations

from pathlib import Path

BPL = Path(__file__).parent / "bpl"

def header_1d(group_size: int = 16, num_groups: int = 2, distinct_attr: str = "") -> str:
    """The declarations of a 1-D two-thread launch: bit-vector builtins, ids and sizes
    with their axioms; ``distinct_attr`` (e.g. ``"{:distinct_threads} "``) tags the axiom
    that the two threads differ."""
    return f"""\
function {{:bvbuiltin "bvadd"}} BV32_ADD(bv32, bv32): bv32;
function {{:bvbuiltin "bvsub"}} BV32_SUB(bv32, bv32): bv32;
function {{:bvbuiltin "bvmul"}} BV32_MUL(bv32, bv32): bv32;
function {{:bvbuiltin "bvult"}} BV32_ULT(bv32, bv32): bool;
function {{:bvbuiltin "bvule"}} BV32_ULE(bv32, bv32): bool;
const local_id_x$1: bv32;
const local_id_x$2: bv32;
const group_id_x$1: bv32;
const group_id_x$2: bv32;
const group_size_x: bv32;
const num_groups_x: bv32;
axiom group_size_x == {group_size}bv32;
axiom num_groups_x == {num_groups}bv32;
axiom BV32_ULT(group_id_x$1, num_groups_x) && BV32_ULT(group_id_x$2, num_groups_x);
axiom BV32_ULT(local_id_x$1, group_size_x) && BV32_ULT(local_id_x$2, group_size_x);
axiom {distinct_attr}group_id_x$1 == group_id_x$2 ==> local_id_x$1 != local_id_x$2;
"""


HEADER_1D = header_1d()


def kernel(body: str, params: str = "", specs: str = "", decls: str = "",
           language: str = "opencl", header: str = HEADER_1D) -> str:
    """A program text: the 1-D ``header``, extra ``decls`` and a kernel with ``body``."""
    return (header + decls +
            f'procedure {{:kernel}} {{:source_name "k"}} {{:language "{language}"}} $k({params})\n'
            f"{specs}{{\n{body}}}\n")


def twin_counters(candidates: dict[str, str], bound: int = 100, after: str = "", guards: int = 4) -> str:
    """``for (x = 0, y = 0; x < bound; x++, y++)`` with candidate invariants at the head:
    ``candidates`` maps ``"_bK"`` to ``"rule: expression"``; ``after`` are commands after
    the loop; ``guards`` existential constants ``_b0`` ... are declared."""
    heads = "".join(f'    assert {{:candidate "{rc.split(":", 1)[0].strip()}"}} {g} ==> {rc.split(":", 1)[1].strip()};\n'
                    for g, rc in candidates.items())
    return kernel(f"""\
  var $x: bv32;
  var $y: bv32;
  $entry:
    $x, $y := 0bv32, 0bv32;
    goto $head;
  $head:
{heads}    goto $body, $exit;
  $body:
    assume {{:partition}} BV32_ULT($x, {bound}bv32);
    $x, $y := BV32_ADD($x, 1bv32), BV32_ADD($y, 1bv32);
    goto $head;
  $exit:
    assume {{:partition}} !BV32_ULT($x, {bound}bv32);
{after}    assert {{:vacuity_check}} false;
    return;
""", decls="".join(f"const {{:existential true}} _b{k}: bool;\n" for k in range(guards)))


def candidate_loop(entry: str, heads: str, bound: str, locals_: str = "  var $x: bv32;\n") -> str:
    """The body of ``x = ...; while (x < bound) x++;`` with ``heads`` (assert commands, each
    line indented and ending in a newline) at the loop head: ``locals_`` and any blocks
    before ``$entry``, then ``entry`` (commands that set ``$x``, ending in a newline)."""
    return f"""\
{locals_}  $entry:
{entry}    goto $head;
  $head:
{heads}    goto $body, $exit;
  $body:
    assume {{:partition}} BV32_ULT($x, {bound});
    $x := BV32_ADD($x, 1bv32);
    goto $head;
  $exit:
    assume {{:partition}} !BV32_ULT($x, {bound});
    return;
"""


def counting_loop(assert_in_body: str, bound: str = "10bv32") -> str:
    """``for (i = 0; i < bound; i++) { assert_in_body }`` with the assert a user assertion."""
    return kernel(f"""\
  var $i: bv32;
  $entry:
    $i := 0bv32;
    goto $head;
  $head:
    goto $body, $exit;
  $body:
    assume {{:partition}} BV32_ULT($i, {bound});
    assert {{:sourceloc "loop.cl", 4, 5}} {{:user_assert}} {{:thread 1}} {assert_in_body};
    $i := BV32_ADD($i, 1bv32);
    goto $head;
  $exit:
    assume {{:partition}} !BV32_ULT($i, {bound});
    assert {{:vacuity_check}} false;
    return;
""")
