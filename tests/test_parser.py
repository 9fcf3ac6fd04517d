"""Parser tests: round trips, Boogie precedence, literal conventions, error positions."""
from __future__ import annotations

import logging
import random
from pathlib import Path

import pytest
from lark import Lark, logger as lark_logger

from vcgen import il
from vcgen.il.parser import ILParseError, _GRAMMAR, parse_expr, parse_file, parse_program
from vcgen.il.printer import expr_str, program_str

IL_DIR = Path(__file__).parent / "il"


def roundtrip(p: il.Program) -> il.Program:
    q = parse_program(program_str(p))
    assert q == p
    return q


# --------------------------------------------------------------------- fixed files


@pytest.mark.parametrize("path", sorted(IL_DIR.glob("*.*bpl")), ids=lambda p: p.name)
def test_sample_files_roundtrip(path):
    p = parse_file(str(path))
    assert p.decls
    roundtrip(p)


def test_all_constructs_shape():
    p = parse_file(str(IL_DIR / "all_constructs.bpl"))
    consts = p.consts()
    assert consts["a"] == il.ConstDecl("a", il.INT, True)
    assert consts["b"].unique
    ax = next(d for d in p.decls if isinstance(d, il.AxiomDecl))
    assert ax.attrs == (il.Attr("foo", ('s"q', il.IntLit(3))),)
    assert ax.expr == il.BinOp("==", il.Var("a"), il.IntLit(-5))
    k = p.kernel()
    assert k.outs == (("r", il.INT),)
    assert k.modifies == ("$$p",)
    assert [s.kind for s in k.specs] == ["requires", "ensures"]
    assert k.specs[1].free
    assert k.specs[0].attrs == (il.Attr("sourceloc", ("k.cl", il.IntLit(3), il.IntLit(1))),)
    assert [v.name for v in k.locals] == ["$i", "m", "m2"]
    assert [b.label for b in k.blocks] == ["$entry", "$a", "$b"]
    cmds = k.blocks[0].cmds
    assert cmds[1] == il.Assign((il.VarLhs("$i"),), (il.MapSelect(il.Var("$$p"), il.BvLit(0, 32)),))
    assert cmds[2] == il.Assign((il.MapLhs("$$p", il.Var("$i")),), (il.BvLit(1, 32),))
    assert cmds[6] == il.Call("$bugle_barrier", (il.BvLit(1, 1), il.BvLit(0, 1)), (),
                              (il.Attr("sourceloc", ("k.cl", il.IntLit(1), il.IntLit(1))),))
    assert cmds[7].outs == ("r",)
    assert k.blocks[0].transfer == il.Goto(("$a", "$b"))
    fun = p.functions()["BV32_ADD"]
    assert fun.params == (("", il.BV32), ("", il.BV32)) and fun.body is None
    assert p.functions()["f"].body is not None
    decl_only = next(d for d in p.procedures() if d.name == "decl_only")
    assert decl_only.blocks is None and decl_only.modifies == ("$$p", "$$q")
    assert decl_only.outs == (("b", il.INT), ("c", il.BOOL))
    types = [d for d in p.decls if isinstance(d, il.TypeDecl)]
    assert types[0] == il.TypeDecl("T", il.BV32) and types[1].synonym is None


def test_grammar_has_no_lalr_conflicts(caplog):
    records = []

    class Grab(logging.Handler):
        def emit(self, record):
            records.append(record.getMessage())

    h = Grab()
    old = lark_logger.level
    lark_logger.addHandler(h)
    lark_logger.setLevel(logging.DEBUG)
    try:
        Lark(_GRAMMAR.read_text(), parser="lalr", lexer="contextual", debug=True)
    finally:
        lark_logger.removeHandler(h)
        lark_logger.setLevel(old)
    assert not [r for r in records if "conflict" in r.lower()]


# ------------------------------------------------------------------------ precedence

V = il.Var


def B(op, l, r):
    return il.BinOp(op, l, r)


@pytest.mark.parametrize("text, expected", [
    ("a + b * c", B("+", V("a"), B("*", V("b"), V("c")))),
    ("a - b - c", B("-", B("-", V("a"), V("b")), V("c"))),
    ("a div b mod c", B("mod", B("div", V("a"), V("b")), V("c"))),
    ("a ==> b ==> c", B("==>", V("a"), B("==>", V("b"), V("c")))),
    ("a <==> b <==> c", B("<==>", B("<==>", V("a"), V("b")), V("c"))),
    ("a <==> b ==> c", B("<==>", V("a"), B("==>", V("b"), V("c")))),
    ("a && b ==> c || d", B("==>", B("&&", V("a"), V("b")), B("||", V("c"), V("d")))),
    ("a && b && c", B("&&", B("&&", V("a"), V("b")), V("c"))),
    ("a == b && c < d", B("&&", B("==", V("a"), V("b")), B("<", V("c"), V("d")))),
    ("x ++ y == z", B("==", il.BvConcat(V("x"), V("y")), V("z"))),
    ("a + b ++ c", il.BvConcat(B("+", V("a"), V("b")), V("c"))),
    ("!a && b", B("&&", il.UnOp("!", V("a")), V("b"))),
    ("-a * b", B("*", il.UnOp("-", V("a")), V("b"))),
    ("!m[i]", il.UnOp("!", il.MapSelect(V("m"), V("i")))),
    ("x[8:0][4:2]", il.BvExtract(il.BvExtract(V("x"), 8, 0), 4, 2)),
    ("m[i := v][j]", il.MapSelect(il.MapStore(V("m"), V("i"), V("v")), V("j"))),
    ("x-5", B("-", V("x"), il.IntLit(5))),
    ("x - -5", B("-", V("x"), il.IntLit(-5))),
    ("-5", il.IntLit(-5)),
    ("-(5)", il.UnOp("-", il.IntLit(5))),
    ("- 5", il.UnOp("-", il.IntLit(5))),
    ("-5[8:0]", il.UnOp("-", il.BvExtract(il.IntLit(5), 8, 0))),
    ("-x", il.UnOp("-", V("x"))),
    ("5bv32", il.BvLit(5, 32)),
    ("f() == g(a, 1bv8)", B("==", il.FunApp("f"), il.FunApp("g", (V("a"), il.BvLit(1, 8))))),
    ("if a then b else c + 1", il.IfThenElse(V("a"), V("b"), B("+", V("c"), il.IntLit(1)))),
    ("old(x) + 1", B("+", il.Old(V("x")), il.IntLit(1))),
    ("$x.y#z'`~^\\?", V("$x.y#z'`~^\\?")),
    ("(forall i: int, b: bool :: {:t 1} i > 0)",
     il.Quantifier("forall", (("i", il.INT), ("b", il.BOOL)), B(">", V("i"), il.IntLit(0)),
                   (il.Attr("t", (il.IntLit(1),)),))),
])
def test_precedence(text, expected):
    assert parse_expr(text) == expected


def test_keywords_are_not_names():
    assert parse_expr("true") == il.TRUE
    assert parse_expr("trueish") == V("trueish")
    assert parse_expr("divisor div modulus") == B("div", V("divisor"), V("modulus"))


def test_bv_names_in_types():
    p = parse_program("type bvx; var a: bv8; var b: bvx; var c: [bv32][int]bool;")
    assert [d.type for d in p.decls[1:]] == [
        il.BV8, il.NamedType("bvx"), il.MapType(il.BV32, il.MapType(il.INT, il.BOOL))]


def test_comments_and_multi_name_decls():
    p = parse_program("// c\nvar /* inline */ a, b: int; /* multi\nline */ const x, y: bool;")
    assert p.decls == (il.VarDecl("a", il.INT), il.VarDecl("b", il.INT),
                       il.ConstDecl("x", il.BOOL), il.ConstDecl("y", il.BOOL))


# -------------------------------------------------------------------------- errors


@pytest.mark.parametrize("text, where, what", [
    ("var x: int;\naxiom x +;", "f.bpl:2:10:", "unexpected ';'"),
    ("axiom a && b || c;", "f.bpl:1:14:", "unexpected '||'"),
    ("axiom a < b < c;", "f.bpl:1:13:", "unexpected '<'"),
    ("var x: bv32", "f.bpl:1:12:", "unexpected end of input"),
    ("\n\n   axiom x @ y;", "f.bpl:3:12:", "unexpected character '@'"),
    ("axiom 256bv8 == x;", "f.bpl:1:7:", "does not fit"),
    ("procedure p() { L: x := 1; }", "f.bpl:1:28:", "unexpected '}'"),
    ('axiom "s";', "f.bpl:1:7:", "unexpected"),
    ("var x: bv0;", "f.bpl:1:8:", "width 0"),
])
def test_parse_errors(text, where, what):
    with pytest.raises(ILParseError) as ei:
        parse_program(text, "f.bpl")
    msg = str(ei.value)
    assert msg.startswith(where + " parse error: "), msg
    assert what in msg
    assert isinstance(ei.value, ValueError)


# ------------------------------------------------------------- random round trips

NAMES = ["x", "y", "$i", "$$A", "_b1", "local_id_x$1", "c.d", "p'", "BV32_ADD"]


class Gen:
    """Random, syntactically arbitrary (not type-correct) ASTs."""

    def __init__(self, seed: int):
        self.r = random.Random(seed)

    def name(self):
        return self.r.choice(NAMES)

    def type(self, depth=2):
        k = self.r.randrange(5 if depth > 0 else 4)
        if k == 0:
            return il.BvType(self.r.choice([1, 8, 32, 64]))
        if k == 1:
            return il.BOOL
        if k == 2:
            return il.INT
        if k == 3:
            return il.NamedType(self.r.choice(["T", "bvT", "ref"]))
        return il.MapType(self.type(depth - 1), self.type(depth - 1))

    def attrs(self, depth=1):
        out = []
        for _ in range(self.r.randrange(3)):
            args = tuple(self.r.choice(['k.cl', 'a"b\\c', ""]) if self.r.random() < 0.5
                         else self.expr(depth) for _ in range(self.r.randrange(3)))
            out.append(il.Attr(self.r.choice(["sourceloc", "race", "x"]), args))
        return tuple(out)

    def leaf(self):
        k = self.r.randrange(5)
        if k == 0:
            w = self.r.choice([1, 8, 32])
            return il.BvLit(self.r.randrange(1 << w), w)
        if k == 1:
            return il.BoolLit(self.r.random() < 0.5)
        if k == 2:
            return il.IntLit(self.r.randrange(-20, 20))
        return il.Var(self.name())

    def expr(self, depth=4):
        if depth <= 0 or self.r.random() < 0.25:
            return self.leaf()
        d = depth - 1
        k = self.r.randrange(12)
        if k == 0:
            return il.FunApp(self.name(), tuple(self.expr(d) for _ in range(self.r.randrange(3))))
        if k == 1:
            return il.MapSelect(self.expr(d), self.expr(d))
        if k == 2:
            return il.MapStore(self.expr(d), self.expr(d), self.expr(d))
        if k in (3, 4):
            return il.BinOp(self.r.choice(il.BINOPS), self.expr(d), self.expr(d))
        if k == 5:
            op = self.r.choice("!-")
            x = self.expr(d)
            if op == "-" and isinstance(x, il.IntLit) and x.value >= 0:
                x = il.Var("n")  # `-5` is IntLit(-5): see test_negated_literal_roundtrip
            return il.UnOp(op, x)
        if k == 6:
            return il.IfThenElse(self.expr(d), self.expr(d), self.expr(d))
        if k == 7:
            return il.BvConcat(self.expr(d), self.expr(d))
        if k == 8:
            lo = self.r.randrange(8)
            return il.BvExtract(self.expr(d), lo + self.r.randrange(1, 8), lo)
        if k == 9:
            vs = tuple((self.name(), self.type(1)) for _ in range(self.r.randrange(1, 3)))
            return il.Quantifier(self.r.choice(["forall", "exists"]), vs, self.expr(d),
                                 self.attrs(1))
        if k == 10:
            return il.Old(self.expr(d))
        return self.leaf()

    def cmd(self):
        k = self.r.randrange(5)
        if k == 0:
            n = self.r.randrange(1, 3)
            lhss = tuple(il.MapLhs(self.name(), self.expr(2)) if self.r.random() < 0.3
                         else il.VarLhs(self.name()) for _ in range(n))
            return il.Assign(lhss, tuple(self.expr() for _ in range(n)))
        if k == 1:
            return il.Assume(self.expr(), self.attrs())
        if k == 2:
            return il.Assert(self.expr(), self.attrs())
        if k == 3:
            return il.Havoc(tuple(self.name() for _ in range(self.r.randrange(1, 3))))
        return il.Call(self.name(), tuple(self.expr(2) for _ in range(self.r.randrange(3))),
                       tuple(self.name() for _ in range(self.r.randrange(3))), self.attrs())

    def params(self, anon=False):
        return tuple(("" if anon and self.r.random() < 0.5 else self.name(), self.type())
                     for _ in range(self.r.randrange(3)))

    def decl(self):
        k = self.r.randrange(6)
        if k == 0:
            return il.TypeDecl("T", self.type() if self.r.random() < 0.5 else None, self.attrs())
        if k == 1:
            return il.ConstDecl(self.name(), self.type(), self.r.random() < 0.5, self.attrs())
        if k == 2:
            return il.AxiomDecl(self.expr(), self.attrs())
        if k == 3:
            return il.VarDecl(self.name(), self.type(), self.attrs())
        if k == 4:
            return il.FunctionDecl(self.name(), self.params(anon=True), self.type(), self.attrs(),
                                   self.expr() if self.r.random() < 0.5 else None)
        specs = tuple(il.Spec(self.r.choice(["requires", "ensures"]), self.expr(),
                              self.r.random() < 0.3, self.attrs()) for _ in range(self.r.randrange(3)))
        mods = tuple(self.name() for _ in range(self.r.randrange(3)))
        blocks = None
        locals_ = ()
        if self.r.random() < 0.7:
            locals_ = tuple(il.VarDecl(self.name(), self.type(), self.attrs())
                            for _ in range(self.r.randrange(3)))
            blocks = tuple(
                il.Block(f"L{i}", tuple(self.cmd() for _ in range(self.r.randrange(4))),
                         il.Return() if self.r.random() < 0.3
                         else il.Goto(tuple(f"L{j}" for j in range(self.r.randrange(1, 3)))))
                for i in range(self.r.randrange(1, 4)))
        return il.ProcedureDecl(self.name(), self.params(), self.params(), specs, mods,
                                self.attrs(), locals_, blocks)


def test_random_roundtrip():
    for seed in range(150):
        g = Gen(seed)
        p = il.Program(tuple(g.decl() for _ in range(g.r.randrange(1, 6))))
        text = program_str(p)
        assert parse_program(text, f"seed{seed}") == p, text


def test_random_expr_roundtrip():
    g = Gen(12345)
    for _ in range(500):
        e = g.expr(5)
        assert parse_expr(expr_str(e)) == e, expr_str(e)


def test_negated_literal_roundtrip():
    e = il.UnOp("-", il.IntLit(5))
    assert parse_expr(expr_str(e)) == e


def test_negative_literal_roundtrip():
    for e in [il.IntLit(-5), il.BinOp("-", il.IntLit(-1), il.IntLit(-2)),
              il.UnOp("-", il.IntLit(-5)), il.MapSelect(il.IntLit(-3), il.IntLit(-4))]:
        assert parse_expr(expr_str(e)) == e


def test_parse_large_block():
    lines = ["procedure {:kernel} k() {", "  var $i: bv32;", "  L0:"]
    for i in range(2000):
        lines.append(f'    assume {{:sourceloc "k.cl", {i}, 1}} true;')
        lines.append(f"    $i := BV32_ADD($$p[$i], {i}bv32);")
    lines += ["    return;", "}"]
    text = "\n".join(lines)
    p = parse_program(text)  # speed is measured by make bench, not asserted here
    assert len(p.kernel().blocks[0].cmds) == 4000


# --------------------------------------------------------------------- LALR table cache

_CACHE_PROBE = """\
import sys
from vcgen.il import parser
from vcgen.il.printer import program_str
p = parser.parse_file(sys.argv[1])
print(parser._table_cache())
print(program_str(p))
try:
    parser.parse_program("var x: bv32")
except parser.ILParseError as e:
    print(e)
"""


def test_lalr_tables_are_cached_in_the_users_cache_directory(tmp_path):
    """The first run writes the tables under $XDG_CACHE_HOME; the next loads them and parses
    (and reports errors) exactly as a parser built from the grammar; a cache directory that
    cannot be created means no cache, not an error."""
    import subprocess
    import sys
    sample = str(sorted(IL_DIR.glob("*.bpl"))[0])
    root = Path(__file__).resolve().parent.parent

    def run(cache_home: str) -> list[str]:
        env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "XDG_CACHE_HOME": cache_home}
        r = subprocess.run([sys.executable, "-c", _CACHE_PROBE, sample], capture_output=True,
                           text=True, env=env, cwd=root, timeout=120)
        assert r.returncode == 0 and not r.stderr, r.stderr
        return r.stdout.splitlines()

    cold = run(str(tmp_path / "cache"))
    table = tmp_path / "cache" / "gpuverify-py" / "il-grammar.lalr"
    assert cold[0] == str(table) and table.stat().st_size > 0
    stamp = table.stat().st_mtime_ns
    warm = run(str(tmp_path / "cache"))
    assert warm == cold and table.stat().st_mtime_ns == stamp  # loaded, not rebuilt
    assert "parse error" in cold[-1]
    blocked = tmp_path / "file"
    blocked.write_text("")
    assert run(str(blocked)) == ["False"] + cold[1:]


@pytest.mark.parametrize("text, names", [
    ("x + y", {"x", "y"}),
    ("(forall i: int :: i > n) && i == m", {"n", "m"}),  # bound anywhere: excluded (as before)
    ("if b then a[k] else (exists j: int :: j == k)", {"b", "a", "k"}),
])
def test_free_vars(text, names):
    """``free_vars``: the variables read, quantifier-bound names excluded."""
    assert il.free_vars(parse_expr(text)) == names
