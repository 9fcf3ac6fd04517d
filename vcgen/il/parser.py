"""Parse IL text (the Boogie 2 subset of ``docs/IL.md``) into ``vcgen.il`` ASTs.

The grammar is ``vcgen/il/grammar.lark`` (LALR, contextual lexer, AST built by an inline
transformer so there is no intermediate parse tree).  ``parse_program(program_str(p)) == p``
holds for every AST ``p`` the printer can print unambiguously.

Literal conventions: ``5`` is ``IntLit(5)``, ``-5`` (a minus sign directly followed by
digits, where an operand may start) is ``IntLit(-5)``, ``-(5)`` is ``UnOp("-", IntLit(5))``,
``5bv32`` is ``BvLit(5, 32)``.  Attribute arguments are Python ``str`` for string
literals and IL expressions otherwise.  ``var a, b: T;`` / ``const a, b: T;`` declare
one ``VarDecl``/``ConstDecl`` per name.  ``modifies`` clauses are collected in
``ProcedureDecl.modifies`` whatever their position among the specs.

Errors: ``ILParseError`` (a ``ValueError``) with message ``FILE:LINE:COL: parse error: ...``.
"""
from __future__ import annotations

import re
from importlib import resources

import lark
from lark import Lark, Token, Transformer

from . import ast as il
from .errors import ExitCode, ToolError
from .files import read_text, user_cache_dir

_GRAMMAR = resources.files("vcgen.il").joinpath("grammar.lark")  # package data (pyproject.toml)
_BV_TYPE = re.compile(r"bv([0-9]+)\Z")


class ILParseError(ValueError):
    """Syntax error in IL text; the message is ``FILE:LINE:COL: parse error: ...``."""


class _SemanticError(Exception):
    """Raised inside transformer callbacks; carries the offending token for its position."""

    def __init__(self, token: Token, message: str):
        super().__init__(message)
        self.token = token


def _unescape(s: str) -> str:
    # the printer escapes only backslash and double quote
    return re.sub(r"\\(.)", r"\1", s[1:-1])


def _flatten(items) -> list:
    out = []
    for x in items:
        if isinstance(x, list):
            out.extend(x)
        else:
            out.append(x)
    return out


class _ToAst(Transformer):
    """Inline LALR callbacks: each returns the ``il`` node of its rule."""

    # ------------------------------------------------------------ declarations
    def start(self, items):
        return il.Program(tuple(_flatten(items)))

    def type_decl(self, c):
        return il.TypeDecl(str(c[1]), c[2] if len(c) > 2 else None, c[0])

    def const_decl(self, c):
        attrs, unique, names, typ = c
        return [il.ConstDecl(n, typ, unique, attrs) for n in names]

    def unique(self, c):
        return bool(c)

    def axiom_decl(self, c):
        return il.AxiomDecl(c[1], c[0])

    def var_decl(self, c):
        attrs, names, typ = c
        return [il.VarDecl(n, typ, attrs) for n in names]

    def function_decl(self, c):
        attrs, name, params, ret = c[:4]
        return il.FunctionDecl(str(name), params, ret, attrs, c[4] if len(c) > 4 else None)

    def procedure_decl(self, c):
        attrs, name, params, outs = c[:4]
        specs: list = []
        modifies: list = []
        body = None
        for x in c[4:]:
            if isinstance(x, il.Spec):
                specs.append(x)
            elif isinstance(x, _Modifies):
                modifies.extend(x.names)
            else:
                body = x
        locals_, blocks = body if body is not None else ((), None)
        return il.ProcedureDecl(str(name), params, outs, tuple(specs), tuple(modifies),
                                attrs, locals_, blocks)

    def returns(self, c):
        return c[0] if c else ()

    def names(self, c):
        return tuple(str(t) for t in c)

    def params(self, c):
        return tuple(c)

    fparams = params

    def param(self, c):
        return (str(c[0]), c[1])

    def anon_param(self, c):
        return ("", c[0])

    def spec(self, c):
        free = c[0].type == "FREE"
        kind, attrs, expr = c[-3:]
        return il.Spec(str(kind), expr, free, attrs)

    def modifies(self, c):
        return _Modifies(c[0])

    def body(self, c):
        blocks = tuple(x for x in c if isinstance(x, il.Block))
        locals_ = tuple(_flatten(x for x in c if isinstance(x, list)))
        return (locals_, blocks)

    def block(self, c):
        return il.Block(str(c[0]), tuple(c[1:-1]), c[-1])

    # ---------------------------------------------------------------- commands
    def assign(self, c):
        lhss = tuple(x for x in c if isinstance(x, (il.VarLhs, il.MapLhs)))
        return il.Assign(lhss, tuple(c[len(lhss):]))

    def var_lhs(self, c):
        return il.VarLhs(str(c[0]))

    def map_lhs(self, c):
        return il.MapLhs(str(c[0]), c[1])

    def assume(self, c):
        return il.Assume(c[1], c[0])

    def assert_(self, c):
        return il.Assert(c[1], c[0])

    def havoc(self, c):
        return il.Havoc(c[0])

    def call(self, c):
        attrs, name, args = c
        return il.Call(str(name), args, (), attrs)

    def call_outs(self, c):
        attrs, outs, name, args = c
        return il.Call(str(name), args, outs, attrs)

    def goto(self, c):
        return il.Goto(c[0])

    def return_(self, c):
        return il.Return()

    # ------------------------------------------------------------------- types
    def bool_type(self, c):
        return il.BOOL

    def int_type(self, c):
        return il.INT

    def named_type(self, c):
        m = _BV_TYPE.match(c[0])
        if m:
            if int(m.group(1)) == 0:
                raise _SemanticError(c[0], "bit-vector type of width 0")
            return il.BvType(int(m.group(1)))
        return il.NamedType(str(c[0]))

    def map_type(self, c):
        return il.MapType(c[0], c[1])

    # -------------------------------------------------------------- attributes
    def attrs(self, c):
        return tuple(c)

    def attribute(self, c):
        return il.Attr(str(c[0]), tuple(c[1:]))

    def string(self, c):
        return _unescape(c[0])

    # ------------------------------------------------------------- expressions
    def ite(self, c):
        return il.IfThenElse(*c)

    def equiv_op(self, c):
        return il.BinOp("<==>", c[0], c[1])

    def implies_op(self, c):
        return il.BinOp("==>", c[0], c[1])

    def and_chain(self, c):
        return il.BinOp("&&", c[0], c[1])

    def or_chain(self, c):
        return il.BinOp("||", c[0], c[1])

    def binop(self, c):
        return il.BinOp(str(c[1]), c[0], c[2])

    def bvconcat(self, c):
        return il.BvConcat(c[0], c[1])

    def not_op(self, c):
        return il.UnOp("!", c[0])

    def neg_op(self, c):
        return il.UnOp("-", c[1])

    def select(self, c):
        return il.MapSelect(c[0], c[1])

    def store(self, c):
        return il.MapStore(c[0], c[1], c[2])

    def extract(self, c):
        return il.BvExtract(c[0], int(c[1]), int(c[2]))

    def int_lit(self, c):
        return il.IntLit(int(c[0]))

    def bv_lit(self, c):
        value, width = (int(x) for x in c[0].split("bv"))
        if width == 0 or value >= 1 << width:
            raise _SemanticError(c[0], f"bit-vector literal {c[0]} does not fit its width")
        return il.BvLit(value, width)

    def true_lit(self, c):
        return il.TRUE

    def false_lit(self, c):
        return il.FALSE

    def var(self, c):
        return il.Var(str(c[0]))

    def funapp(self, c):
        return il.FunApp(str(c[0]), c[1])

    def old(self, c):
        return il.Old(c[0])

    def quant(self, c):
        kind, qvars, attrs, triggers, body = c
        return il.Quantifier(str(kind), qvars, body, attrs, triggers)

    def triggers(self, c):
        return tuple(c)

    def trigger(self, c):
        return tuple(c)

    def args(self, c):
        return tuple(c)

    def qvars(self, c):
        return tuple(v for group in c for v in group)

    def qvar(self, c):
        *names, ty = c
        return tuple(self.param([n, ty]) for n in names)


class _Modifies:
    __slots__ = ("names",)

    def __init__(self, names: tuple):
        self.names = names


_parser: Lark | None = None


def _table_cache() -> str | bool:
    """Where lark keeps the analysed LALR tables between runs (``files.user_cache_dir``;
    False: no cache).  Building the tables is 0.08 s of every run; loading them 0.007 s.
    lark stores the grammar's hash in the file and rebuilds it when the grammar, the
    options or lark's version changed, or when the file cannot be read or written."""
    cache = user_cache_dir()
    return False if cache is None else str(cache / "il-grammar.lalr")


def _get_parser() -> Lark:
    global _parser
    if _parser is None:
        _parser = Lark(_GRAMMAR.read_text(encoding="utf-8"), parser="lalr", lexer="contextual",
                       transformer=_ToAst(), maybe_placeholders=False, cache=_table_cache())
    return _parser


# Readable names for the regular-expression terminals lark reports as expected.
_TERMINAL_TEXT = {
    "NAME": "identifier", "INT": "integer", "NEGINT": "integer", "BVLIT": "bit-vector literal",
    "STRING": "string", "$END": "end of input",
}


def _terminal_text(name: str) -> str:
    if name in _TERMINAL_TEXT:
        return _TERMINAL_TEXT[name]
    for t in _get_parser().terminals:
        if t.name == name and t.pattern.type == "str":
            return repr(t.pattern.value)
    return name


def _describe_expected(expected) -> str:
    names = sorted(set(_terminal_text(t) for t in expected))
    if len(names) > 8:
        names = names[:8] + ["..."]
    return ", ".join(names)


def _end_position(text: str) -> tuple:
    """(line, column) just after the last non-blank character, 1-based."""
    body = text.rstrip()
    return body.count("\n") + 1, len(body) - (body.rfind("\n") + 1) + 1


def parse_program(text: str, filename: str = "<input>") -> il.Program:
    """Parse IL text into an ``il.Program``.

    Raises ILParseError (``FILE:LINE:COL: parse error: ...``) on any syntax error.
    """
    try:
        prog = _get_parser().parse(text)
        assert isinstance(prog, il.Program)  # the transformer builds the AST while parsing
        return prog
    except _SemanticError as e:
        raise ILParseError(f"{filename}:{e.token.line}:{e.token.column}: parse error: {e}") from None
    except lark.exceptions.UnexpectedToken as e:
        if e.token.type == "$END":
            line, col, what = *_end_position(text), "end of input"
        else:
            line, col, what = e.line, e.column, repr(str(e.token))
        raise ILParseError(f"{filename}:{line}:{col}: parse error: unexpected {what}"
                           f" (expected {_describe_expected(e.expected)})") from None
    except lark.exceptions.UnexpectedCharacters as e:
        pos = e.pos_in_stream or 0
        ch = text[pos] if pos < len(text) else "?"
        raise ILParseError(f"{filename}:{e.line}:{e.column}: parse error: "
                           f"unexpected character {ch!r}") from None
    except lark.exceptions.UnexpectedEOF:
        line, col = _end_position(text)
        raise ILParseError(f"{filename}:{line}:{col}: parse error: unexpected end of input") from None
    except lark.exceptions.LarkError as e:  # anything else lark may raise
        raise ILParseError(f"{filename}:1:1: parse error: {e}") from None


def parse_file(path: str) -> il.Program:
    """Parse the IL file at ``path`` (``-`` = stdin).

    Raises ILParseError on syntax errors and ToolError(COMMAND_LINE_ERROR) if unreadable.
    """
    return parse_program(read_text(path), path)


def parse_expr(text: str) -> il.Expr:
    """Parse a single IL expression (convenience for tests and tools).  Raises ILParseError."""
    prog = parse_program(f"axiom {text};", "<expr>")
    if len(prog.decls) != 1:
        raise ILParseError(f"<expr>:1:1: parse error: not a single expression: {text!r}")
    return prog.decls[0].expr


def load_program(path: str) -> il.Program:
    """The IL program in file ``path`` (``-`` = stdin), for a stage command.

    Raises ToolError: GPUVERIFYVCGEN_ERROR (5) with ``FILE:LINE:COL`` on a parse error,
    COMMAND_LINE_ERROR (1) if the file cannot be read."""
    text = read_text(path)
    try:
        return parse_program(text, path if path != "-" else "<stdin>")
    except ILParseError as e:
        raise ToolError(str(e), ExitCode.GPUVERIFYVCGEN_ERROR) from None
