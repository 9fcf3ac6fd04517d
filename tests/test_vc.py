"""VC generation: expression translation, loop cutting, passification, VC encoding, SMT-LIB."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import z3

from vcgen.analysis import cfg
from vcgen.analysis.loops import natural_loops
from vcgen.analysis.pinned import pinned_by_requires
from vcgen import il
from vcgen.vc import loopcut, passify, encode as vcmod
from vcgen.il.errors import ExitCode, ToolError
from vcgen.il.parser import parse_expr, parse_file, parse_program
from vcgen.verify.checker import VerifyOptions, verify_program
from vcgen.vc.query import smt_query

from vcgen_progs import BPL, kernel

FUNCS = """\
function {:bvbuiltin "bvsdiv"} SDIV(bv8, bv8): bv8;
function {:bvbuiltin "bvsrem"} SREM(bv8, bv8): bv8;
function {:bvbuiltin "bvsmod"} SMOD(bv8, bv8): bv8;
function {:bvbuiltin "bvudiv"} UDIV(bv8, bv8): bv8;
function {:bvbuiltin "bvashr"} ASHR(bv8, bv8): bv8;
function {:bvbuiltin "bvlshr"} LSHR(bv8, bv8): bv8;
function {:bvbuiltin "bvslt"} SLT(bv8, bv8): bool;
function {:bvbuiltin "bvult"} ULT(bv8, bv8): bool;
function {:bvbuiltin "zero_extend 24"} ZEXT(bv8): bv32;
function {:bvbuiltin "sign_extend 24"} SEXT(bv8): bv32;
function {:bvbuiltin "bvnot"} NOT(bv8): bv8;
function {:bvbuiltin "bvadd"} ADD(bv8, bv8): bv8;
function TWICE(x: bv8): bv8 { ADD(x, x) }
function F(bv8): bv8;
type T = bv8;
const c: T;
"""


def _eval(expr: str):
    prog = parse_program(FUNCS)
    tr = vcmod.Translator(prog, z3.Context())
    return z3.simplify(tr.term(parse_expr(expr)))


@pytest.mark.parametrize("expr, expected", [
    ("SDIV(249bv8, 2bv8)", 253),          # -7 / 2 = -3 (truncating)
    ("SREM(249bv8, 2bv8)", 255),          # -7 rem 2 = -1
    ("SMOD(249bv8, 2bv8)", 1),            # -7 mod 2 = 1 (sign of divisor)
    ("UDIV(249bv8, 2bv8)", 124),
    ("ASHR(128bv8, 7bv8)", 255),
    ("LSHR(128bv8, 7bv8)", 1),
    ("ZEXT(255bv8)", 255),
    ("SEXT(255bv8)", 2**32 - 1),
    ("NOT(0bv8)", 255),
    ("(255bv8 ++ 1bv8)[12:4]", 0xF0),
    ("TWICE(3bv8)", 6),
])
def test_bv_builtins(expr, expected):
    assert _eval(expr).as_long() == expected


def test_signed_vs_unsigned_compare():
    assert z3.is_true(_eval("SLT(255bv8, 0bv8)"))
    assert z3.is_false(_eval("ULT(255bv8, 0bv8)"))


def test_int_ops_and_quantifier():
    assert _eval("7 div 2").as_long() == 3 and _eval("(0 - 7) mod 2").as_long() == 1
    assert z3.is_true(_eval("(forall x: int :: x + 1 > x)"))


def test_ill_typed_expression_is_a_tool_error():
    prog = parse_program(FUNCS)
    tr = vcmod.Translator(prog, z3.Context())
    with pytest.raises(ToolError) as e:
        tr.term(parse_expr("c == 1bv32"))
    assert e.value.code == ExitCode.GPUVERIFYVCGEN_ERROR
    with pytest.raises(ToolError):
        tr.term(parse_expr("undeclared_thing"))


@pytest.mark.parametrize("expr", ["(c == c) && c", "c || true", "!c", "c ==> true", "true <==> c"])
def test_connectives_over_a_bit_vector_are_a_tool_error(expr):
    """The encoder's connectives made by z3's C API directly (``encode._and`` ...) still
    reject a non-Boolean operand."""
    tr = vcmod.Translator(parse_program(FUNCS), z3.Context())
    with pytest.raises(ToolError) as e:
        tr.term(parse_expr(expr))
    assert "ill-typed" in str(e.value)


def test_loop_cut_structure():
    prog = parse_file(str(BPL / "loop_inductive.bpl"))
    cut = loopcut.cut_loops(prog.kernel())
    labels = [b.label for b in cut.blocks]
    assert "$head$entry" in labels and "$head$back$$body" in labels
    assert natural_loops(cut) == []
    blocks = cfg.block_map(cut)
    pre = blocks["$head$entry"].cmds
    assert [type(c).__name__ for c in pre] == ["Assert", "Assert", "Havoc", "Assume", "Assume", "Assume"]
    assert pre[2].vars == ("$i",)
    assert pre[3] == loopcut.CUT_POINT  # the per-loop groups of the final check start here
    assert all(il.attr(c.attrs, "loop_check").args == ("entry",) for c in pre[:2])
    back = blocks["$head$back$$body"]
    assert back.cmds[-1] == il.Assume(il.FALSE) and isinstance(back.transfer, il.Return)
    assert not any(cfg.is_invariant_assert(c) for c in blocks["$head"].cmds)


def test_irreducible_cfg_is_a_clear_error():
    text = kernel("""\
  $entry:
    goto $a, $b;
  $a:
    goto $b;
  $b:
    goto $a;
""")
    with pytest.raises(ToolError) as e:
        verify_program(parse_program(text))
    assert "irreducible" in str(e.value) and e.value.code == ExitCode.GPUVERIFYVCGEN_ERROR


def test_passive_form_is_single_assignment_with_join_copies():
    text = kernel("""\
  var $x: bv32;
  $entry:
    goto $l, $r;
  $l:
    $x := 1bv32;
    goto $join;
  $r:
    $x := 2bv32;
    goto $join;
  $join:
    assert {:sourceloc "j.cl", 1, 1} {:user_assert} BV32_ULE($x, 2bv32);
    return;
""")
    prog = parse_program(text)
    pp = passify.passify(prog, prog.kernel())
    defined = [c.expr.left.name for b in pp.blocks for c in b.cmds
               if isinstance(c, il.Assume) and isinstance(c.expr, il.BinOp) and c.expr.op == "=="
               and isinstance(c.expr.left, il.Var) and "@" in c.expr.left.name]
    # two assignments + one join incarnation, copied on both edges
    assert defined.count("$x@1") == 1 and defined.count("$x@2") == 1
    assert defined.count("$x@3") == 2
    assert any(b.label.endswith("$to$$join") for b in pp.blocks)
    assert pp.asserts[0].env["$x"] == "$x@3"
    assert verify_program(prog).status == "verified"


def test_sibling_branch_assumption_does_not_hide_failure():
    # Regression: a disabled assertion on one branch must not constrain the other
    # branch.  x = 0 violates both the user assertion (branch $a) and the candidate at the
    # loop entry (branch $b); neither may be "proved" by assuming the other.
    text = kernel("""\
  var $i: bv32;
  $entry:
    goto $a, $b;
  $a:
    assert {:sourceloc "s.cl", 3, 3} {:user_assert} BV32_ULT(0bv32, $x);
    return;
  $b:
    $i := 0bv32;
    goto $head;
  $head:
    assert {:candidate "r1"} _b0 ==> BV32_ULT(0bv32, $x);
    goto $body, $done;
  $body:
    $i := BV32_ADD($i, 1bv32);
    goto $head;
  $done:
    return;
""", params="$x: bv32", decls="const {:existential true} _b0: bool;\n")
    res = verify_program(parse_program(text))
    assert res.status == "errors" and res.houdini.proved == 0
    assert [e.kind for e in res.errors] == ["user_assert"]


def test_nested_loops_havoc_inner_variables():
    text = kernel("""\
  var $i: bv32;
  var $j: bv32;
  $entry:
    $i := 0bv32;
    goto $outer;
  $outer:
    assert {:invariant} BV32_ULE($i, 4bv32);
    goto $obody, $oexit;
  $obody:
    assume {:partition} BV32_ULT($i, 4bv32);
    $j := 0bv32;
    goto $inner;
  $inner:
    goto $ibody, $iexit;
  $ibody:
    $j := BV32_ADD($j, 1bv32);
    goto $inner;
  $iexit:
    assert {:sourceloc "n.cl", 7, 7} {:user_assert} $j == 0bv32;
    $i := BV32_ADD($i, 1bv32);
    goto $outer;
  $oexit:
    assume {:partition} !BV32_ULT($i, 4bv32);
    return;
""")
    res = verify_program(parse_program(text))
    # j is havocked by the inner loop cut (no invariant on j): the assertion can fail
    assert res.status == "errors" and res.errors[0].kind == "user_assert"


def _z3_binary() -> str:
    exe = Path(sys.executable).with_name("z3")
    if not exe.exists():
        pytest.skip("no z3 binary next to the Python interpreter")
    return str(exe)


@pytest.mark.parametrize("name, expected", [("race.bpl", "sat"), ("loop_inductive.bpl", "sat")])
def test_smt_script_accepted_by_z3_binary(name, expected, tmp_path):
    prog = parse_file(str(BPL / name))
    text = smt_query(prog)
    assert "(check-sat)" in text and "; assertions:" in text and "fail_0" in text
    out = tmp_path / "q.smt2"
    out.write_text(text)
    r = subprocess.run([_z3_binary(), str(out)], capture_output=True, text=True, timeout=60)
    # loop_inductive with all candidates checked: r2 (i == 0) is not inductive -> sat
    assert r.stdout.strip() == expected


def test_smt_script_unsat_for_verified_program(tmp_path):
    from vcgen.inference.houdini import run_houdini
    prog, _, _ = run_houdini(parse_file(str(BPL / "loop_inductive.bpl")))
    out = tmp_path / "q.smt2"
    out.write_text(smt_query(prog))
    r = subprocess.run([_z3_binary(), str(out)], capture_output=True, text=True, timeout=60)
    assert r.stdout.strip() == "unsat"
    assert verify_program(prog).status == "verified"


def test_external_solver_process_gives_same_verdicts():
    opts = VerifyOptions(solver="z3")
    _z3_binary()
    race = verify_program(parse_file(str(BPL / "race.bpl")), opts)
    assert race.status == "errors" and race.errors[0].element.startswith("p[")
    assert verify_program(parse_file(str(BPL / "loop_inductive.bpl")), opts).status == "verified"


def _inlining_program(chain: int) -> str:
    """Assignments inside both branches, joined; then a chain of ``chain`` increments."""
    steps = "".join(f"    $y := BV32_ADD($y, 1bv32);\n" for _ in range(chain))
    return kernel(f"""\
  var $x: bv32;
  var $y: bv32;
  $entry:
    $x := BV32_ADD($a, 1bv32);
    goto $l, $r;
  $l:
    $y := BV32_MUL($x, 2bv32);
    goto $join;
  $r:
    $y := 7bv32;
    goto $join;
  $join:
{steps}    assert {{:sourceloc "j.cl", 1, 1}} {{:user_assert}} $y != 9bv32;
    return;
""", params="$a: bv32")


def _uninterpreted(t: z3.ExprRef) -> bool:
    return z3.is_const(t) and t.decl().kind() == z3.Z3_OP_UNINTERPRETED


def test_definitions_are_inlined_but_join_copies_and_long_chains_are_not():
    prog = parse_program(_inlining_program(chain=60))
    pp = passify.passify(prog, prog.kernel())
    vc = vcmod.build_vc(prog, pp)
    consts = vc.translator.consts
    # $x@1 := $a + 1 and $y@1 := $x@1 * 2 are terms over the parameter, not variables
    assert not _uninterpreted(consts["$x@1"]) and not _uninterpreted(consts["$y@1"])
    assert "$x@1" in str(consts["$y@1"]) or "$a" in str(consts["$y@1"])
    # the join incarnation has one copy per edge: it must stay a constrained variable
    assert any(isinstance(c, il.Assume) and not il.has_attr(c.attrs, "definition") for b in pp.blocks
               for c in b.cmds if b.label.endswith("$to$$join"))
    assert _uninterpreted(vc.translator.const("$y@3"))
    # a long chain is cut into pieces within the size bound: some links stay variables
    links = [vc.translator.const(n) for n in pp.types if n.startswith("$y@") and int(n.split("@")[1]) > 3]
    assert len(links) == 60 and any(map(_uninterpreted, links)) and not all(map(_uninterpreted, links))


@pytest.mark.parametrize("chain, status", [(1, "errors"), (2, "errors"), (4, "verified"), (60, "verified")])
def test_inlined_definitions_keep_verdicts(chain, status):
    # y = 2 * (a + 1) on the left branch, 7 on the right, then y += chain; y == 9 is
    # reachable on the left for chain 1 (a = 3), on the right for chain 2, never for 4 or 60
    res = verify_program(parse_program(_inlining_program(chain)))
    assert res.status == status
    if status == "errors":
        assert [e.kind for e in res.errors] == ["user_assert"]


def _pinned_program(requires: str, check: str) -> str:
    # x / n and x % n over a 64-bit parameter n that the precondition may pin
    return kernel(f"""\
  $entry:
    assert {{:sourceloc "p.cl", 3, 3}} {{:user_assert}} {{:thread 1}} {check};
    assert {{:vacuity_check}} false;
    return;
""", params="$n: bv64, $x: bv64", specs=f"  requires {requires};\n", decls="""\
function {:bvbuiltin "bvsrem"} BV64_SREM(bv64, bv64): bv64;
function {:bvbuiltin "bvslt"} BV64_SLT(bv64, bv64): bool;
""")


def test_requires_pins_parameters_to_literals_in_the_vc():
    prog = parse_program(_pinned_program("$n == 1024bv64 && BV64_SLT(0bv64, $x)", "true"))
    assert pinned_by_requires(prog.kernel()) == {"$n": il.BvLit(1024, 64)}
    vc = vcmod.build_vc(prog, passify.passify(prog, prog.kernel()))
    assert z3.is_bv_value(vc.translator.const("$n"))  # a literal, not a variable
    assert _uninterpreted(vc.translator.const("$x"))
    # a disjunction pins nothing
    prog = parse_program(_pinned_program("$n == 1024bv64 || $n == 512bv64", "true"))
    assert pinned_by_requires(prog.kernel()) == {}


@pytest.mark.parametrize("requires, check, status", [
    ("$n == 1024bv64", "BV64_SLT(BV64_SREM($x, $n), 1024bv64)", "verified"),
    ("$n == 1024bv64", "BV64_SLT(BV64_SREM($x, $n), 1023bv64)", "errors"),
    ("$n == 1024bv64 || $n == 2048bv64", "BV64_SLT(BV64_SREM($x, $n), 1024bv64)", "errors"),
])
def test_pinned_parameters_keep_verdicts(requires, check, status):
    res = verify_program(parse_program(_pinned_program(requires, check)))
    assert res.status == status
    if status == "errors":
        # the counterexample reads the pinned parameter as its literal
        assert [e.kind for e in res.errors] == ["user_assert"]


def test_passify_joins_do_not_walk_every_variable(monkeypatch):
    """Issue 12 (``make bench-scaling``, loop families): a join compared the incarnations
    of every declared variable, so passification was quadratic on loop nests (more
    variables, more joins).  The variables whose incarnations differ are now found from
    the predecessors' environments, and the join incarnations are still numbered in
    declaration order."""
    decls = "".join(f"  var $v{i}: bv32;\n" for i in range(40))
    arms = "".join(f"""  $a{k}:
    $v{k}, $v{k + 1} := 1bv32, 1bv32;
    goto $j{k};
  $b{k}:
    goto $j{k};
  $j{k}:
    goto {f'$a{k + 1}, $b{k + 1}' if k < 9 else '$end'};
""" for k in range(10))
    prog = parse_program(kernel(decls + "  $entry:\n    goto $a0, $b0;\n" + arms +
                                "  $end:\n    assert {:sourceloc \"j.cl\", 1, 1} {:user_assert} true;\n    return;\n"))
    walks = [0]

    class Counting(dict):
        def __iter__(self):
            walks[0] += 1
            return super().__iter__()
    original = passify._Passifier.__init__

    def init(self, *a, **k):
        original(self, *a, **k)
        self.var_types = Counting(self.var_types)
    monkeypatch.setattr(passify._Passifier, "__init__", init)
    pp = passify.passify(prog, prog.kernel())
    assert walks[0] <= 1, walks  # the entry's environment; none per join
    copies = [c.expr.left.name for b in pp.blocks if b.label.startswith("$a3$to$")
              for c in b.cmds]
    assert copies == ["$v3@4", "$v4@2"]  # only the two variables the arm changed, in order
