"""Type checker tests: the sample programs check; each kind of error is reported with its place."""
from __future__ import annotations

from pathlib import Path

import pytest

from vcgen import il
from vcgen.il.parser import parse_expr, parse_file, parse_program
from vcgen.il.typecheck import ILTypeError, expr_type, procedure_env, program_env, typecheck

IL_DIR = Path(__file__).parent / "il"

HEADER = """
type T = bv32;
type U = T;
type opaque;
function {:bvbuiltin "bvadd"} BV32_ADD(bv32, bv32): bv32;
function {:bvbuiltin "bvult"} BV32_ULT(bv32, bv32): bool;
function {:bvbuiltin "zero_extend 24"} BV8_ZEXT32(bv8): bv32;
const c: bv32;
const o: opaque;
var $$A: [bv32]bv8;
var g: int;
"""


def proc(body: str, locals_: str = "var x: bv32; var b: bool; var y: bv8; var n: int;") -> str:
    return HEADER + "procedure {:kernel} $k(p: T) returns (r: U)\n{\n" + locals_ + "\n" + body + "\n}\n"


@pytest.mark.parametrize("name", ["sum_loop.gbpl", "race_pair.bpl", "bv_ops.gbpl", "backtrack.gbpl"])
def test_samples_typecheck(name):
    typecheck(parse_file(str(IL_DIR / name)))


def test_well_typed_program():
    typecheck(parse_program(proc("""
  L0:
    x, r := BV32_ADD(p, c), p;
    y := $$A[x];
    $$A[x] := 1bv32[8:0];
    x := BV8_ZEXT32(y);
    x := (y ++ y) ++ (y ++ 0bv32[8:0]);
    goto L1;
  L1:
    assume BV32_ULT(x, r) && (forall i: bv32 :: BV32_ULT(i, 4bv32) ==> $$A[i] == 0bv8);
    assert {:sourceloc "k.cl", 1, 2} if b then g > 0 else g + 1 <= 2;
    havoc x, g;
    n := g div 2 - g mod 3 + -1;
    b := o == o;
    return;""")))


@pytest.mark.parametrize("body, fragment", [
    ("L: x := z; return;", "block L, command `x := z;`: undeclared name z"),
    ("L: x := y; return;", "value y for x has type bv8, expected bv32"),
    ("L: x := BV32_ADD(x, y); return;", "argument 2 of BV32_ADD (y) has type bv8, expected bv32"),
    ("L: x := BV32_ADD(x); return;", "BV32_ADD expects 2 arguments, got 1"),
    ("L: y := $$A[n]; return;", "index n has type int, expected bv32"),
    ("L: $$A[x] := x; return;", "has type bv32, expected bv8"),
    ("L: assume x; return;", "condition has type bv32, expected bool"),
    ("L: assert {:x} n + 1; return;", "command `assert {:x} n + 1;`: condition has type int"),
    ("L: b := if n then b else b; return;", "if-then-else condition n has type int"),
    ("L: goto M; ", "block L: goto to unknown label M"),
    ("L: goto L; L: return;", "duplicate label L"),
    ("L: c := x; return;", "c is a constant or an in-parameter"),
    ("L: p := x; return;", "p is a constant or an in-parameter"),
    ("L: x := y[9:0]; return;", "extraction [9:0] out of range for bv8"),
    ("L: x := f(x); return;", "undeclared function f"),
    ("L: b := x < x; return;", "left operand of < "),
    ("L: x, x := c, c; return;", "assigned twice"),
    ("L: x := c, c; return;", "1 targets but 2 values"),
    ("L: call nothing(); return;", "undeclared procedure nothing"),
    ("L: havoc c; return;", "cannot be assigned"),
    ("L: b := x ++ b == x; return;", "operand b of ++ has type bool"),
])
def test_type_errors(body, fragment):
    with pytest.raises(ILTypeError) as ei:
        typecheck(parse_program(proc(body)))
    msg = str(ei.value)
    assert msg.startswith("procedure $k"), msg
    assert fragment in msg, msg


@pytest.mark.parametrize("text, fragment", [
    ("axiom 1;", "axiom 1 (1): axiom has type int"),
    ("var v: bv8; axiom v == 1bv32;", "right operand of =="),
    ("type A = B; type B = A; var v: A;", "cyclic"),
    ("var v: nosuchtype;", "undeclared type nosuchtype"),
    ("var v: int; const v: int;", "declared twice"),
    ("function f(x: int): bool { x + 1 }", "function f: function body has type int"),
    ("procedure p(a: int); requires a;", "procedure p, requires a: requires has type int"),
    ("procedure p(); modifies q;", "modifies q, which is not a global variable"),
    ("procedure p(a: int) returns (a: bool);", "a declared twice"),
])
def test_declaration_errors(text, fragment):
    with pytest.raises(ILTypeError) as ei:
        typecheck(parse_program(text))
    assert fragment in str(ei.value)


def test_call_checks():
    base = HEADER + "procedure q(a: bv32) returns (z: bool);\n"
    ok = base + "procedure k() { var t: bool; L: call t := q(c); return; }"
    typecheck(parse_program(ok))
    for call, frag in [("call t := q(1);", "argument 1 of q"),
                       ("call q(c);", "returns 1 values, 0 targets"),
                       ("call g := q(c);", "result target g has type int")]:
        with pytest.raises(ILTypeError) as ei:
            typecheck(parse_program(base + "procedure k() { var t: bool; L: " + call + " return; }"))
        assert frag in str(ei.value)


def test_expr_type_api():
    p = parse_program(proc("L: return;"))
    k = p.kernel()
    env = procedure_env(program_env(p), k)
    assert expr_type(parse_expr("BV32_ADD(p, r)"), env) == il.BV32
    assert expr_type(parse_expr("$$A[p] ++ $$A[r]"), env) == il.BvType(16)
    assert expr_type(parse_expr("$$A"), env) == il.MapType(il.BV32, il.BV8)
    assert expr_type(parse_expr("$$A[p := 0bv8]"), env) == il.MapType(il.BV32, il.BV8)
    assert expr_type(parse_expr("p"), env) == il.BV32  # the synonym chain U -> T -> bv32
    assert expr_type(parse_expr("old(g) + 1"), env) == il.INT
    assert expr_type(parse_expr("(exists z: int :: z > g)"), env) == il.BOOL
    with pytest.raises(ILTypeError):
        expr_type(parse_expr("z"), env)


def test_long_conjunction_is_not_recursive():
    p = parse_program("var b: bool;")
    env = program_env(p)
    assert expr_type(il.and_all([il.Var("b")] * 20000), env) == il.BOOL


def test_a_well_typed_program_is_never_printed(monkeypatch):
    """The place of an error (``procedure P, block L, command `C```) is printed only when
    a check fails: printing every command was 40% of a large program's check."""
    from vcgen.il import typecheck as tc

    def no_printing(*args):
        raise AssertionError("printed a well-typed program")
    monkeypatch.setattr(tc, "cmd_str", no_printing)
    monkeypatch.setattr(tc, "expr_str", no_printing)
    typecheck(parse_file(str(IL_DIR / "backtrack.gbpl")))
    typecheck(parse_program(proc("L: assume b; x := p; return;")))
    with pytest.raises(AssertionError, match="printed"):  # an error is still placed
        typecheck(parse_program(proc("L: x := z; return;")))
