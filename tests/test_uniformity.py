"""Uniformity analysis and loop structure on hand-written one-thread IL."""
import pytest

from vcgen import il
from vcgen.il.errors import ToolError
from vcgen.analysis.loops import LoopItem, linear_order, natural_loops
from vcgen.il.parser import parse_program
from vcgen.analysis.uniformity import analyse
from vcgen.il.printer import program_str
from vcgen.stages import lockstep_options
from vcgen.twothread.transform import lockstep

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


# A loop whose exit depends on the local id (its blocks are not uniformly executed) and
# whose latch recomputes a stride from a parameter and a launch size, as clang does for
# a CUDA grid-stride loop (i += blockDim.x * gridDim.x).
STRIDE_DECLS = 'function {:bvbuiltin "bvmul"} BV32_MUL(bv32, bv32): bv32;\nconst {:group_size_x} group_size_x: bv32;\n'
STRIDE_LOOP = """
  $entry: $i := local_id_x; goto $head;
  $head: goto $body, $exit;
  $body: assume {:partition} BV32_ULT($i, $n); $x := $$A[$i]; LATCH goto $head;
  $exit: assume {:partition} !BV32_ULT($i, $n); return;
"""
STRIDE_LOCALS = "var $i: bv32; var $x: bv32; var $g: bv32; var $s: bv32;"
CONSTS = frozenset({"group_size_x", "local_id_x", "group_id_x"})


def stride_kernel(latch: str, entry: str = ""):
    body = STRIDE_LOOP.replace("LATCH", latch).replace("$entry: ", "$entry: " + entry)
    return parse_program(STRIDE_DECLS + DECLS + f"procedure {{:kernel}} $k($n: bv32)\n{{\n{STRIDE_LOCALS}\n{body}\n}}\n"
                         ).kernel()


def test_run_time_constant_in_divergent_loop_is_uniform():
    k = stride_kernel("$g := group_size_x; $s := BV32_MUL($g, $n); $i := BV32_ADD($i, $s);")
    u = analyse(k, {"$$A"}, consts=CONSTS)
    assert "$body" not in u.uniform_blocks
    assert u.constant_vars == {"$g", "$s"}
    assert not {"$g", "$s"} & u.nonuniform_vars and "$i" in u.nonuniform_vars
    # without the program's constants nothing is known to be the same in both threads
    assert analyse(k, {"$$A"}).constant_vars == set()


@pytest.mark.parametrize("latch, entry, why", [
    ("$s := BV32_MUL(group_size_x, local_id_x); $i := BV32_ADD($i, $s);", "", "reads a thread id"),
    ("$s := BV32_MUL(group_size_x, $x); $i := BV32_ADD($i, $s);", "", "reads a loaded value"),
    ("$s := $$A[0bv32]; $i := BV32_ADD($i, $s);", "", "reads memory"),
    ("$i := BV32_ADD($i, $s); $s := group_size_x;", "", "read before its assignment (loop-carried)"),
    ("$s := group_size_x; $i := BV32_ADD($i, $s);", "$s := 1bv32; ", "assigned twice"),
    ("$s := BV32_MUL(group_size_x, $g); $i := BV32_ADD($i, $s);", "$g := 2bv32; havoc $g; ", "an operand is havocked"),
])
def test_not_a_run_time_constant(latch, entry, why):
    u = analyse(stride_kernel(latch, entry), {"$$A"}, consts=CONSTS)
    assert "$s" not in u.constant_vars, why
    assert "$s" in u.nonuniform_vars, why


def test_run_time_constant_is_assigned_unpredicated_once():
    """vcgen lockstep: one shared copy, assigned whether or not a thread is enabled."""
    k = stride_kernel("$g := group_size_x; $s := BV32_MUL($g, $n); $i := BV32_ADD($i, $s);")
    prog = parse_program(STRIDE_DECLS + DECLS)
    text = program_str(lockstep(il.Program(prog.decls + (k,)), lockstep_options({"local_size": "8", "num_groups": "2"})))
    assert "    $s := BV32_MUL($g, $n);" in text and "$s$1" not in text
    assert "BV32_ADD($i$1, $s)" in text


ONCE = """
  $entry: $i := local_id_x; goto $then, $join;
  $then: assume {:partition} BV32_ULT($i, $n); $x := BV32_ADD($i, 4bv32); $$A[$x] := $i; goto $join;
  $join: assume {:partition} !BV32_ULT($i, $n); goto $head;
  $head: goto $body, $exit;
  $body: assume {:partition} BV32_ULT($i, $n); $y := BV32_ADD($i, 1bv32); $$A[$y] := $i; $i := $y; goto $head;
  $exit: assume {:partition} !BV32_ULT($i, $n); return;
"""


def test_once_vars():
    """``once_vars``: a single pure assignment outside loops that dominates its reads (``$x``
    under a divergent branch, ``$i``'s first value is not: assigned twice); one in a loop
    (``$y``) is not -- a thread that left the loop would see the other's later values."""
    from vcgen.analysis.uniformity import once_vars
    k = kernel(ONCE, locals_="var $i: bv32; var $x: bv32; var $y: bv32;")
    loops = natural_loops(k)
    assert once_vars(k, set().union(*(lp.blocks for lp in loops))) == {"$x"}
    # the two-thread program assigns it per thread, unpredicated; $y stays predicated
    prog = parse_program(DECLS + "procedure {:kernel} $k($n: bv32)\n{\nvar $i: bv32; var $x: bv32; var $y: bv32;\n"
                         + ONCE + "\n}\n")
    text = program_str(lockstep(prog, lockstep_options({"local_size": "8", "num_groups": "2"})))
    assert "$x$1, $x$2 := BV32_ADD($i$1, 4bv32), BV32_ADD($i$2, 4bv32);" in text, text
    assert "$y$1 := if " in text or "then BV32_ADD($i$1, 1bv32) else $y$1" in text, text
