"""The intermediate language: an abstract syntax tree for a subset of Boogie 2.

Every stage reads and writes programs in this IL (``.gbpl`` one-thread programs from
``bugle translate``, ``.bpl`` two-thread programs from ``vcgen lockstep``).  The exact
subset, and every attribute the project gives a meaning to, is documented in
``docs/IL.md``.

All nodes are frozen dataclasses whose sequence fields are tuples, so programs compare
structurally: ``parse(print(p)) == p`` is a test over every corpus file.

Shapes:
  * types: ``BvType(w)`` (``bvW``), ``BoolType()``, ``IntType()``, ``MapType(dom, rng)``
    (``[bv32]bv8``), ``NamedType(name)`` (a ``type`` synonym or opaque type);
  * expressions: literals, ``Var``, ``FunApp`` (bit-vector operations are functions
    with ``{:bvbuiltin}``), ``MapSelect``/``MapStore``, ``BinOp`` on bool/int,
    ``UnOp``, ``IfThenElse``, ``BvConcat`` (``++``), ``BvExtract`` (``e[hi:lo]``),
    ``Quantifier``, ``Old``;
  * commands: ``Assign`` (parallel, lhs may be ``A[i]``), ``Assume``, ``Assert``,
    ``Havoc``, ``Call``;
  * blocks end in ``Goto`` or ``Return``.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Iterator, Union

__all__ = ["BvType", "BoolType", "IntType", "MapType", "NamedType", "Type", "BOOL", "INT", "BV1",
           "BV8", "BV32", "BV64", "Attr", "Attrs", "attr", "attr_args", "has_attr", "BvLit", "BoolLit",
           "IntLit", "Var", "FunApp", "MapSelect", "MapStore", "BINOPS", "BinOp", "UnOp",
           "IfThenElse", "BvConcat", "BvExtract", "Quantifier", "Old", "Expr", "TRUE", "FALSE",
           "and_all", "conjuncts", "or_all", "not_", "implies", "ite", "VarLhs", "MapLhs", "Lhs", "Assign",
           "Assume", "Assert", "Havoc", "Call", "Cmd", "assign", "Goto", "Return", "Transfer",
           "Block", "TypeDecl", "ConstDecl", "AxiomDecl", "VarDecl", "FunctionDecl", "Spec",
           "ProcedureDecl", "Decl", "Program", "subexprs", "children", "tree_size", "free_vars",
           "substitute", "rewrite", "cmd_exprs", "cmd_writes"]

# --------------------------------------------------------------------------- types


@dataclass(frozen=True)
class BvType:
    width: int


@dataclass(frozen=True)
class BoolType:
    pass


@dataclass(frozen=True)
class IntType:
    pass


@dataclass(frozen=True)
class MapType:
    domain: "Type"
    range: "Type"


@dataclass(frozen=True)
class NamedType:
    name: str


Type = Union[BvType, BoolType, IntType, MapType, NamedType]

BOOL = BoolType()
INT = IntType()
BV1 = BvType(1)
BV8 = BvType(8)
BV32 = BvType(32)
BV64 = BvType(64)

# ---------------------------------------------------------------------- attributes


@dataclass(frozen=True)
class Attr:
    """``{:name arg, ...}``; args are expressions or Python ``str`` (Boogie string literals)."""
    name: str
    args: tuple = ()


Attrs = tuple  # tuple[Attr, ...]


def attr(attrs: Attrs, name: str) -> Attr | None:
    """The first attribute called ``name`` in ``attrs``, or None."""
    for a in attrs:
        if a.name == name:
            return a
    return None


def has_attr(attrs: Attrs, name: str) -> bool:
    return attr(attrs, name) is not None


def attr_args(attrs: Attrs, name: str) -> tuple[Any, ...]:
    """The arguments of the first attribute called ``name``, ``()`` when there is none."""
    a = attr(attrs, name)
    return a.args if a is not None else ()


# --------------------------------------------------------------------- expressions


@dataclass(frozen=True)
class BvLit:
    value: int  # unsigned, 0 <= value < 2**width
    width: int


@dataclass(frozen=True)
class BoolLit:
    value: bool


@dataclass(frozen=True)
class IntLit:
    value: int


@dataclass(frozen=True)
class Var:
    name: str


@dataclass(frozen=True)
class FunApp:
    name: str
    args: tuple = ()


@dataclass(frozen=True)
class MapSelect:
    map: "Expr"
    index: "Expr"


@dataclass(frozen=True)
class MapStore:
    map: "Expr"
    index: "Expr"
    value: "Expr"


# Boolean / integer operators, Boogie spelling.  Precedence is the printer's business.
BINOPS = ("<==>", "==>", "||", "&&", "==", "!=", "<", "<=", ">", ">=", "+", "-", "*", "div", "mod")


@dataclass(frozen=True)
class BinOp:
    op: str
    left: "Expr"
    right: "Expr"


@dataclass(frozen=True)
class UnOp:
    op: str  # "!" or "-"
    operand: "Expr"


@dataclass(frozen=True)
class IfThenElse:
    cond: "Expr"
    then: "Expr"
    els: "Expr"


@dataclass(frozen=True)
class BvConcat:
    left: "Expr"
    right: "Expr"


@dataclass(frozen=True)
class BvExtract:
    operand: "Expr"
    hi: int  # exclusive, Boogie convention: e[hi:lo] has width hi - lo
    lo: int


@dataclass(frozen=True)
class Quantifier:
    kind: str  # "forall" | "exists"
    vars: tuple  # tuple[tuple[str, Type], ...]
    body: "Expr"
    attrs: Attrs = ()
    # Boogie trigger patterns ``{ f(x), g(x) }``: a tuple of multi-patterns (tuples of
    # expressions over the bound names), passed to the solver for E-matching
    triggers: tuple = ()


@dataclass(frozen=True)
class Old:
    operand: "Expr"


Expr = Union[BvLit, BoolLit, IntLit, Var, FunApp, MapSelect, MapStore, BinOp, UnOp,
             IfThenElse, BvConcat, BvExtract, Quantifier, Old]

TRUE = BoolLit(True)
FALSE = BoolLit(False)


def and_all(es) -> Expr:
    """Conjunction of an iterable of expressions (``true`` when empty)."""
    out: Expr | None = None
    for e in es:
        out = e if out is None else BinOp("&&", out, e)
    return TRUE if out is None else out


def conjuncts(e: Expr) -> list[Expr]:
    """The operands of a nest of ``&&`` (left to right): the inverse of ``and_all``."""
    out: list[Expr] = []
    stack = [e]
    while stack:
        x = stack.pop()
        if isinstance(x, BinOp) and x.op == "&&":
            stack += [x.right, x.left]
        else:
            out.append(x)
    return out


def or_all(es) -> Expr:
    """Disjunction of an iterable of expressions (``false`` when empty)."""
    out: Expr | None = None
    for e in es:
        out = e if out is None else BinOp("||", out, e)
    return FALSE if out is None else out


def not_(e: Expr) -> Expr:
    if isinstance(e, BoolLit):
        return BoolLit(not e.value)
    if isinstance(e, UnOp) and e.op == "!":
        return e.operand
    return UnOp("!", e)


def implies(a: Expr, b: Expr) -> Expr:
    if a == TRUE:
        return b
    return BinOp("==>", a, b)


def ite(c: Expr, t: Expr, e: Expr) -> Expr:
    if c == TRUE:
        return t
    if c == FALSE or t == e:
        return e
    return IfThenElse(c, t, e)


# ------------------------------------------------------------------------- commands


@dataclass(frozen=True)
class VarLhs:
    name: str


@dataclass(frozen=True)
class MapLhs:
    """``name[index] := ...`` (one map level)."""
    name: str
    index: Expr


Lhs = Union[VarLhs, MapLhs]


@dataclass(frozen=True)
class Assign:
    lhss: tuple  # tuple[Lhs, ...]
    rhss: tuple  # tuple[Expr, ...]


@dataclass(frozen=True)
class Assume:
    expr: Expr
    attrs: Attrs = ()


@dataclass(frozen=True)
class Assert:
    expr: Expr
    attrs: Attrs = ()


@dataclass(frozen=True)
class Havoc:
    vars: tuple  # tuple[str, ...]


@dataclass(frozen=True)
class Call:
    proc: str
    args: tuple = ()
    outs: tuple = ()  # tuple[str, ...]
    attrs: Attrs = ()


Cmd = Union[Assign, Assume, Assert, Havoc, Call]


def assign(name: str, value: Expr) -> Assign:
    return Assign((VarLhs(name),), (value,))


@dataclass(frozen=True)
class Goto:
    targets: tuple  # tuple[str, ...]


@dataclass(frozen=True)
class Return:
    pass


Transfer = Union[Goto, Return]


@dataclass(frozen=True)
class Block:
    label: str
    cmds: tuple  # tuple[Cmd, ...]
    transfer: Transfer


# ----------------------------------------------------------------------- declarations


@dataclass(frozen=True)
class TypeDecl:
    name: str
    synonym: Type | None = None
    attrs: Attrs = ()


@dataclass(frozen=True)
class ConstDecl:
    name: str
    type: Type
    unique: bool = False
    attrs: Attrs = ()


@dataclass(frozen=True)
class AxiomDecl:
    expr: Expr
    attrs: Attrs = ()


@dataclass(frozen=True)
class VarDecl:
    """Global ``var`` at top level, or a procedure local (inside ``ProcedureDecl.locals``)."""
    name: str
    type: Type
    attrs: Attrs = ()


@dataclass(frozen=True)
class FunctionDecl:
    name: str
    params: tuple  # tuple[tuple[str, Type], ...]; names may be "" for anonymous params
    ret: Type
    attrs: Attrs = ()
    body: Expr | None = None


@dataclass(frozen=True)
class Spec:
    """``requires``/``ensures`` clause."""
    kind: str  # "requires" | "ensures"
    expr: Expr
    free: bool = False
    attrs: Attrs = ()


@dataclass(frozen=True)
class ProcedureDecl:
    """A procedure; ``blocks`` is None for a body-less declaration (e.g. the barrier)."""
    name: str
    params: tuple  # tuple[tuple[str, Type], ...]
    outs: tuple = ()
    specs: tuple = ()  # tuple[Spec, ...]
    modifies: tuple = ()  # tuple[str, ...]
    attrs: Attrs = ()
    locals: tuple = ()  # tuple[VarDecl, ...]
    blocks: tuple | None = None  # tuple[Block, ...]; first block is the entry

    def body(self) -> tuple[Block, ...]:
        """The blocks (entry first).  ValueError for a declaration without a body."""
        if self.blocks is None:
            raise ValueError(f"procedure {self.name} has no body")
        return self.blocks


Decl = Union[TypeDecl, ConstDecl, AxiomDecl, VarDecl, FunctionDecl, ProcedureDecl]


@dataclass(frozen=True)
class Program:
    decls: tuple  # tuple[Decl, ...]

    def procedures(self) -> Iterator[ProcedureDecl]:
        return (d for d in self.decls if isinstance(d, ProcedureDecl))

    def kernel(self) -> ProcedureDecl:
        """The procedure marked ``{:kernel}``.  Raises ValueError if there is not exactly one."""
        ks = [p for p in self.procedures() if has_attr(p.attrs, "kernel")]
        if len(ks) != 1:
            raise ValueError(f"expected exactly one {{:kernel}} procedure, found {len(ks)}")
        return ks[0]

    def globals(self) -> Iterator[VarDecl]:
        return (d for d in self.decls if isinstance(d, VarDecl))

    def functions(self) -> dict[str, FunctionDecl]:
        return {d.name: d for d in self.decls if isinstance(d, FunctionDecl)}

    def consts(self) -> dict[str, ConstDecl]:
        return {d.name: d for d in self.decls if isinstance(d, ConstDecl)}

    def replace_decl(self, old: Decl, new: Decl) -> "Program":
        return Program(tuple(new if d is old else d for d in self.decls))


# ------------------------------------------------------------------- generic walkers


def subexprs(e: Expr) -> Iterator[Expr]:
    """Pre-order walk over an expression and all its sub-expressions."""
    stack = [e]
    while stack:
        x = stack.pop()
        yield x
        if isinstance(x, FunApp):
            stack.extend(x.args)
        elif isinstance(x, MapSelect):
            stack += [x.map, x.index]
        elif isinstance(x, MapStore):
            stack += [x.map, x.index, x.value]
        elif isinstance(x, BinOp):
            stack += [x.left, x.right]
        elif isinstance(x, (UnOp, Old)):
            stack.append(x.operand)
        elif isinstance(x, BvExtract):
            stack.append(x.operand)
        elif isinstance(x, IfThenElse):
            stack += [x.cond, x.then, x.els]
        elif isinstance(x, BvConcat):
            stack += [x.left, x.right]
        elif isinstance(x, Quantifier):
            stack.append(x.body)


def children(e: Expr) -> tuple[Expr, ...]:
    """The direct sub-expressions of ``e`` (empty for variables and literals)."""
    if isinstance(e, FunApp):
        return e.args
    if isinstance(e, MapSelect):
        return (e.map, e.index)
    if isinstance(e, MapStore):
        return (e.map, e.index, e.value)
    if isinstance(e, (BinOp, BvConcat)):
        return (e.left, e.right)
    if isinstance(e, (UnOp, Old, BvExtract)):
        return (e.operand,)
    if isinstance(e, IfThenElse):
        return (e.cond, e.then, e.els)
    if isinstance(e, Quantifier):
        return (e.body,)
    return ()


def tree_size(e: Expr, memo: dict[int, int] | None = None) -> int:
    """Number of nodes of ``e`` written out as a tree (what ``subexprs`` visits, and what
    printing, hashing and comparing it cost).  An expression built by substitution shares
    sub-expressions, so its tree may be exponentially larger than the objects it is made
    of; this counts it in time linear in the objects, memoised by object identity in
    ``memo`` (pass one dict across calls on expressions that share parts; the objects
    must stay alive while it is used)."""
    memo = {} if memo is None else memo
    todo = [e]
    while todo:
        x = todo[-1]
        if id(x) in memo:
            todo.pop()
            continue
        kids = [k for k in children(x) if id(k) not in memo]
        if kids:
            todo += kids
            continue
        todo.pop()
        memo[id(x)] = 1 + sum(memo[id(k)] for k in children(x))
    return memo[id(e)]


def free_vars(e: Expr) -> set[str]:
    """Names of variables/constants occurring in ``e`` (quantifier-bound names excluded).
    One walk (a hot path: the VC's regions and splits ask it of every command)."""
    bound: set = set()
    names: set = set()
    for x in subexprs(e):
        if isinstance(x, Var):
            names.add(x.name)
        elif isinstance(x, Quantifier):
            bound |= {n for n, _ in x.vars}
    return names - bound


def substitute(e: Expr, m: dict) -> Expr:
    """Replace ``Var(name)`` by ``m[name]`` (an Expr) throughout ``e``.  Quantified names shadow."""
    def go(x: Expr, shadow: frozenset) -> Expr:
        if isinstance(x, Var):
            return m.get(x.name, x) if x.name not in shadow else x
        if isinstance(x, (BvLit, BoolLit, IntLit)):
            return x
        if isinstance(x, FunApp):
            return FunApp(x.name, tuple(go(a, shadow) for a in x.args))
        if isinstance(x, MapSelect):
            return MapSelect(go(x.map, shadow), go(x.index, shadow))
        if isinstance(x, MapStore):
            return MapStore(go(x.map, shadow), go(x.index, shadow), go(x.value, shadow))
        if isinstance(x, BinOp):
            return BinOp(x.op, go(x.left, shadow), go(x.right, shadow))
        if isinstance(x, UnOp):
            return UnOp(x.op, go(x.operand, shadow))
        if isinstance(x, Old):
            return Old(go(x.operand, shadow))
        if isinstance(x, IfThenElse):
            return IfThenElse(go(x.cond, shadow), go(x.then, shadow), go(x.els, shadow))
        if isinstance(x, BvConcat):
            return BvConcat(go(x.left, shadow), go(x.right, shadow))
        if isinstance(x, BvExtract):
            return BvExtract(go(x.operand, shadow), x.hi, x.lo)
        if isinstance(x, Quantifier):
            inner = shadow | {n for n, _ in x.vars}
            return replace(x, body=go(x.body, inner),
                           triggers=tuple(tuple(go(t, inner) for t in p) for p in x.triggers))
        raise TypeError(f"not an expression: {x!r}")
    return go(e, frozenset())


def rewrite(e: Expr, fn) -> Expr:
    """Top-down rewrite: at each node ``fn(x)`` returns a replacement (not rewritten
    further) or None to rebuild ``x`` from its rewritten children."""
    def go(x: Expr) -> Expr:
        r = fn(x)
        if r is not None:
            return r
        if isinstance(x, (Var, BvLit, BoolLit, IntLit)):
            return x
        if isinstance(x, FunApp):
            return FunApp(x.name, tuple(go(a) for a in x.args))
        if isinstance(x, MapSelect):
            return MapSelect(go(x.map), go(x.index))
        if isinstance(x, MapStore):
            return MapStore(go(x.map), go(x.index), go(x.value))
        if isinstance(x, BinOp):
            return BinOp(x.op, go(x.left), go(x.right))
        if isinstance(x, UnOp):
            return UnOp(x.op, go(x.operand))
        if isinstance(x, Old):
            return Old(go(x.operand))
        if isinstance(x, IfThenElse):
            return IfThenElse(go(x.cond), go(x.then), go(x.els))
        if isinstance(x, BvConcat):
            return BvConcat(go(x.left), go(x.right))
        if isinstance(x, BvExtract):
            return BvExtract(go(x.operand), x.hi, x.lo)
        if isinstance(x, Quantifier):
            return replace(x, body=go(x.body), triggers=tuple(tuple(go(t) for t in p) for p in x.triggers))
        raise TypeError(f"not an expression: {x!r}")
    return go(e)


def cmd_exprs(c: Cmd) -> Iterator[Expr]:
    """Expressions read by a command (map-assignment indices included)."""
    if isinstance(c, Assign):
        for l in c.lhss:
            if isinstance(l, MapLhs):
                yield l.index
        yield from c.rhss
    elif isinstance(c, (Assume, Assert)):
        yield c.expr
    elif isinstance(c, Call):
        yield from c.args


def cmd_writes(c: Cmd) -> set[str]:
    """Names of variables a command may modify (for calls: outs only; callers add ``modifies``)."""
    if isinstance(c, Assign):
        return {l.name for l in c.lhss}
    if isinstance(c, Havoc):
        return set(c.vars)
    if isinstance(c, Call):
        return set(c.outs)
    return set()
