"""IL expressions -> z3 terms, and the verification condition of a passive program.

Encoding (forward, linear size, docs/design.md section 6): for each passive block ``B`` a Boolean
``reach_B`` = "some path from the entry reaches the start of ``B`` with all assumptions
so far true" (the disjunction of the predecessors' end conditions, edge copies being
separate edge blocks); inside a block the path condition grows with each ``assume``; an
assertion ``a`` gets a Boolean ``fail_a`` = path condition && !e, and is *assumed*
afterwards (assert-then-assume).  The query is the single formula ``(en_1 && fail_1) || ...
|| (en_n && fail_n)``; an assertion is switched off (only assumed, as the path condition
after it already does) by the assumption literal ``!en_a``, so one solver instance answers
every Houdini round and the final check (``check(assumptions)``).  (Assuming ``!fail_a``
instead would be unsound: it constrains variables shared with sibling paths.)  A model names the failing assertions: those whose ``fail_a``
is true.

Sorts: ``bool`` -> Bool, ``int`` -> Int, ``bvN`` -> BitVec(N), ``[D]R`` -> Array(D, R),
``type T = S`` -> S, opaque ``type T`` -> an uninterpreted sort.  Functions with
``{:bvbuiltin "op"}`` map to the SMT-LIB bit-vector operation, functions with a body are
inlined, other functions are uninterpreted.

``math_int`` (``--math-int``, GPUVerify's option of the same name): every ``bvN`` becomes
``Int`` and bit-vector operations become integer arithmetic (``MathIntOps``).  Values are
read as *signed* mathematical integers (a literal ``4294967295bv32`` is -1), arithmetic
never wraps: faster, but unsound for kernels that rely on overflow or wrap-around.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import NamedTuple

import z3

from .. import il
from ..analysis.pinned import pin_literal, pinned_by_requires
from ..il.errors import ExitCode, ToolError
from ..il.printer import expr_str
from .global_ids import GlobalIdAbstraction
from .passify import PassiveAssert, PassiveProgram, subst_current


MATH_INT_WARNING = ("warning: --math-int: arithmetic is unbounded; overflow is not modelled "
                    "(unsound for kernels that rely on wrap-around)")


def _err(msg: str) -> ToolError:
    return ToolError(msg, ExitCode.GPUVERIFYVCGEN_ERROR)


def _bv_binary(ctx):
    one = lambda a: z3.BitVecVal(1, 1, ctx)
    zero = lambda a: z3.BitVecVal(0, 1, ctx)
    return {
        "bvadd": lambda a, b: a + b, "bvsub": lambda a, b: a - b, "bvmul": lambda a, b: a * b,
        "bvudiv": z3.UDiv, "bvsdiv": lambda a, b: a / b, "bvurem": z3.URem, "bvsrem": z3.SRem,
        "bvsmod": lambda a, b: a % b, "bvand": lambda a, b: a & b, "bvor": lambda a, b: a | b,
        "bvxor": lambda a, b: a ^ b, "bvnand": lambda a, b: ~(a & b),
        "bvnor": lambda a, b: ~(a | b), "bvxnor": lambda a, b: ~(a ^ b),
        "bvshl": lambda a, b: a << b, "bvlshr": z3.LShR, "bvashr": lambda a, b: a >> b,
        "bvult": z3.ULT, "bvule": z3.ULE, "bvugt": z3.UGT, "bvuge": z3.UGE,
        "bvslt": lambda a, b: a < b, "bvsle": lambda a, b: a <= b,
        "bvsgt": lambda a, b: a > b, "bvsge": lambda a, b: a >= b,
        "bvcomp": lambda a, b: z3.If(a == b, one(a), zero(a)), "concat": z3.Concat,
    }


_BV_UNARY = {"bvnot": lambda a: ~a, "bvneg": lambda a: -a}
_BV_INDEXED = {
    "zero_extend": lambda k, a: z3.ZeroExt(k[0], a), "sign_extend": lambda k, a: z3.SignExt(k[0], a),
    "extract": lambda k, a: z3.Extract(k[0], k[1], a), "rotate_left": lambda k, a: z3.RotateLeft(a, k[0]),
    "rotate_right": lambda k, a: z3.RotateRight(a, k[0]), "repeat": lambda k, a: z3.RepeatBitVec(k[0], a),
}


def _signed(v: int, w: int) -> int:
    return v - (1 << w) if w > 0 and v >= 1 << (w - 1) else v


class MathIntOps:
    """Bit-vector builtins over mathematical integers (``--math-int``).

    A ``bvN`` value ``x`` is represented by the integer of its two's-complement signed
    reading.  Exact whenever no result leaves the N-bit range: add/sub/mul/neg/not
    (``~x = -x - 1``), signed comparisons, unsigned comparisons (negative integers are the
    large unsigned values: ``ult(a, b) = a >= 0 ? (b < 0 || a < b) : (b < 0 && a < b)``),
    ``zero_extend`` (``x < 0 ? x + 2^N : x``), ``sign_extend`` (identity), shifts by
    constants (``* 2^k``, ``div 2^k``).  Approximations: division and remainder are SMT-LIB
    ``div``/``mod`` (equal to the bit-vector ones on non-negative operands), truncation
    (``extract`` from bit 0) is the identity.  Operations with no integer meaning (and, or,
    xor, other extracts, concat, rotations, shifts by variables) are uninterpreted
    functions of their integer arguments, named ``int$OP$W``.
    """

    def __init__(self, ctx: z3.Context):
        self.ctx = ctx
        self.ufs: dict = {}

    def uf(self, name: str, args: list):
        f = self.ufs.get(name)
        if f is None:
            f = z3.Function(name, *([z3.IntSort(self.ctx)] * (len(args) + 1)))
            self.ufs[name] = f
        return f(*args)

    def ult(self, a, b):
        return z3.If(a >= 0, z3.Or(b < 0, a < b), z3.And(b < 0, a < b))

    def _const(self, t) -> int | None:
        return t.as_long() if z3.is_int_value(t) else None

    def _shift(self, op: str, a, b, w: int):
        k = self._const(b)
        if k is None or not 0 <= k < max(w, 1):
            return self.uf(f"int${op}${w}", [a, b])
        p = z3.IntVal(1 << k, self.ctx)
        return a * p if op == "bvshl" else a / p

    def binary(self, op: str, a, b, w: int):
        """``op`` applied to integers standing for ``bvW`` values; None if unknown."""
        simple = {
            "bvadd": lambda: a + b, "bvsub": lambda: a - b, "bvmul": lambda: a * b,
            "bvudiv": lambda: a / b, "bvsdiv": lambda: a / b, "bvurem": lambda: a % b,
            "bvsrem": lambda: a % b, "bvsmod": lambda: a % b,
            "bvslt": lambda: a < b, "bvsle": lambda: a <= b, "bvsgt": lambda: a > b,
            "bvsge": lambda: a >= b, "bvult": lambda: self.ult(a, b),
            "bvule": lambda: z3.Not(self.ult(b, a)), "bvugt": lambda: self.ult(b, a),
            "bvuge": lambda: z3.Not(self.ult(a, b)),
            "bvcomp": lambda: z3.If(a == b, z3.IntVal(1, self.ctx), z3.IntVal(0, self.ctx)),
        }
        if op in simple:
            return simple[op]()
        if op in ("bvshl", "bvlshr", "bvashr"):
            return self._shift(op, a, b, w)
        if op in ("bvand", "bvor", "bvxor", "bvnand", "bvnor", "bvxnor", "concat"):
            return self.uf(f"int${op}${w}", [a, b])
        return None

    def unary(self, op: str, words: list, a, w: int):
        """Unary or indexed builtin ``op`` (indices ``words``) on a ``bvW`` integer."""
        if op == "bvneg":
            return -a
        if op == "bvnot":
            return -a - 1
        if op == "sign_extend":
            return a
        if op == "zero_extend":
            return z3.If(a < 0, a + (1 << w), a) if w > 0 else a
        if op == "extract" and len(words) == 2 and words[1] == 0:
            return a
        if op in ("extract", "rotate_left", "rotate_right", "repeat"):
            return self.uf(f"int${op}{''.join('_' + str(k) for k in words)}${w}", [a])
        return None


class Translator:
    """Translate IL types and expressions of ``program`` into z3 terms of context ``ctx``.

    Variables are looked up in ``self.types`` (consts of the program plus whatever
    ``declare`` adds, e.g. incarnations); z3 constants are created once and cached.
    Raises ToolError(GPUVERIFYVCGEN_ERROR) on unknown names, sort mismatches and unknown
    builtins.  ``math_int``: bit-vectors as mathematical integers (``MathIntOps``).
    """

    def __init__(self, program: il.Program, ctx: z3.Context, math_int: bool = False):
        self.ctx = ctx
        self.math = MathIntOps(ctx) if math_int else None
        self.program = program
        self.synonyms = {d.name: d.synonym for d in program.decls if isinstance(d, il.TypeDecl) and d.synonym is not None}
        self.sorts: dict = {}
        self._sort_of: dict = {}  # il.Type -> z3 sort (``sort``)
        self._bool_sort: z3.BoolSortRef | None = None
        self.functions = program.functions()
        self.types: dict = {n: d.type for n, d in program.consts().items()}
        self.consts: dict = {}
        self.ufs: dict = {}
        self.bv2 = _bv_binary(ctx)
        self.features: set = set()  # SMT-LIB logic features used: Q A UF BV LIA NIA

    def _math_ops(self) -> MathIntOps:
        assert self.math is not None  # called only under --math-int
        return self.math

    # ---------------------------------------------------------------- sorts
    def resolve(self, t: il.Type, seen: frozenset = frozenset()) -> il.Type:
        if isinstance(t, il.NamedType) and t.name in self.synonyms:
            if t.name in seen:
                raise _err(f"cyclic type synonym {t.name}")
            return self.resolve(self.synonyms[t.name], seen | {t.name})
        if isinstance(t, il.MapType):
            return il.MapType(self.resolve(t.domain, seen), self.resolve(t.range, seen))
        return t

    def sort(self, t: il.Type) -> z3.SortRef:
        """The z3 sort of ``t`` (cached per type: every incarnation of a VC asks for one)."""
        hit = self._sort_of.get(t)
        if hit is None:
            hit = self._sort_of[t] = self._sort(t)
        return hit

    def _sort(self, t: il.Type) -> z3.SortRef:
        t = self.resolve(t)
        feature = {il.IntType: "LIA", il.BvType: "LIA" if self.math else "BV", il.MapType: "A",
                   il.NamedType: "UF"}.get(type(t))
        if feature:
            self.features.add(feature)
        if isinstance(t, il.BoolType):
            return z3.BoolSort(self.ctx)
        if isinstance(t, il.IntType) or (isinstance(t, il.BvType) and self.math):
            return z3.IntSort(self.ctx)
        if isinstance(t, il.BvType):
            return z3.BitVecSort(t.width, self.ctx)
        if isinstance(t, il.MapType):
            return z3.ArraySort(self.sort(t.domain), self.sort(t.range))
        if isinstance(t, il.NamedType):
            if t.name not in self.sorts:
                self.sorts[t.name] = z3.DeclareSort(t.name, self.ctx)
            return self.sorts[t.name]
        raise _err(f"unsupported type {t!r}")

    # ------------------------------------------------------------ constants
    def bool_const(self, name: str) -> z3.BoolRef:
        """The Boolean constant ``name`` (``z3.Bool`` through z3's C API: a VC names a few
        per block and per check, and the wrapper builds a sort object each time)."""
        ref = self.ctx.ref()
        if self._bool_sort is None:
            self._bool_sort = z3.BoolSort(self.ctx)
        return z3.BoolRef(z3.Z3_mk_const(ref, z3.Z3_mk_string_symbol(ref, name), self._bool_sort.ast),
                          self.ctx)

    def declare(self, name: str, t: il.Type) -> None:
        self.types[name] = t

    def const(self, name: str) -> z3.ExprRef:
        c = self.consts.get(name)
        if c is None:
            if name not in self.types:
                raise _err(f"unknown variable or constant {name}")
            c = z3.Const(name, self.sort(self.types[name]))
            self.consts[name] = c
        return c

    # ---------------------------------------------------------- expressions
    def term(self, e: il.Expr, bound: dict | None = None) -> z3.ExprRef:
        """z3 term of ``e``; ``bound`` maps quantifier/function-parameter names to terms."""
        try:
            return self._term(e, bound or {})
        except z3.Z3Exception as ex:
            raise _err(f"ill-typed expression {expr_str(e)}: {ex}") from None

    def _term(self, e: il.Expr, bound: dict) -> z3.ExprRef:
        ctx = self.ctx
        if isinstance(e, il.Var):
            return bound[e.name] if e.name in bound else self.const(e.name)
        if isinstance(e, il.BoolLit):
            return z3.BoolVal(e.value, ctx)
        if isinstance(e, il.BvLit):
            if self.math:
                return z3.IntVal(_signed(e.value, e.width), ctx)
            return z3.BitVecVal(e.value, e.width, ctx)
        if isinstance(e, il.IntLit):
            return z3.IntVal(e.value, ctx)
        if isinstance(e, il.BinOp):
            return self._binop(e.op, self._term(e.left, bound), self._term(e.right, bound), e)
        if isinstance(e, il.UnOp):
            x = self._term(e.operand, bound)
            if e.op == "!":
                return _not(x)
            if e.op == "-":
                return -x
            raise _err(f"unknown unary operator {e.op}")
        if isinstance(e, il.FunApp):
            return self._funapp(e, [self._term(a, bound) for a in e.args])
        if isinstance(e, il.MapSelect):
            return z3.Select(self._term(e.map, bound), self._term(e.index, bound))
        if isinstance(e, il.MapStore):
            return z3.Store(self._term(e.map, bound), self._term(e.index, bound),
                            self._term(e.value, bound))
        if isinstance(e, il.IfThenElse):
            return z3.If(self._term(e.cond, bound), self._term(e.then, bound),
                         self._term(e.els, bound), ctx)
        if isinstance(e, il.BvConcat):
            l, r = self._term(e.left, bound), self._term(e.right, bound)
            return self._math_uf("concat", [l, r]) if self.math else z3.Concat(l, r)
        if isinstance(e, il.BvExtract):
            x = self._term(e.operand, bound)
            if self.math:
                return x if e.lo == 0 else self._math_uf(f"extract_{e.hi - 1}_{e.lo}", [x])
            return z3.Extract(e.hi - 1, e.lo, x)
        if isinstance(e, il.Old):
            return self._term(e.operand, bound)
        if isinstance(e, il.Quantifier):
            qs = [z3.Const(f"{n}!bound", self.sort(t)) for n, t in e.vars]
            inner = dict(bound)
            inner.update({n: q for (n, _), q in zip(e.vars, qs)})
            self.features.add("Q")
            body = self._term(e.body, inner)
            pats = [z3.MultiPattern(*[self._term(t, inner) for t in p]) if len(p) > 1
                    else self._term(p[0], inner) for p in e.triggers if p]
            return (z3.ForAll if e.kind == "forall" else z3.Exists)(qs, body, patterns=pats)
        raise _err(f"unsupported expression {e!r}")

    def _math_uf(self, op: str, args: list):
        self.features.add("UF")
        return self._math_ops().uf(f"int${op}", args)

    def _binop(self, op: str, a, b, e: il.BinOp):
        if op in ("<==>", "=="):
            return _eq(a, b)
        if op == "!=":
            return a != b
        if op == "==>":
            return _implies(a, b)
        if op == "&&":
            return _and(a, b)
        if op == "||":
            return _or(a, b)
        if (z3.is_bv(a) or z3.is_bv(b)) and not self.math:
            raise _err(f"integer operator {op} applied to bit-vectors in {expr_str(e)}")
        if op in ("*", "div", "mod") and not (z3.is_int_value(a) or z3.is_int_value(b)):
            self.features.add("NIA")
        ops = {"<": lambda: a < b, "<=": lambda: a <= b, ">": lambda: a > b, ">=": lambda: a >= b,
               "+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b,
               "div": lambda: a / b, "mod": lambda: a % b}
        if op not in ops:
            raise _err(f"unknown operator {op}")
        return ops[op]()

    def _funapp(self, e: il.FunApp, args: list):
        f = self.functions.get(e.name)
        if f is None:
            raise _err(f"call of undeclared function {e.name}")
        if len(args) != len(f.params):
            raise _err(f"function {e.name} takes {len(f.params)} arguments, given {len(args)}")
        builtin = il.attr(f.attrs, "bvbuiltin")
        if builtin is not None:
            spec = str(builtin.args[0]) if builtin.args else ""
            if self.math:
                return self._math_builtin(spec, args, e.name, f)
            return self._builtin(spec, args, e.name)
        if f.body is not None:
            names = [n for n, _ in f.params]
            return self._term(f.body, dict(zip(names, args)))
        uf = self.ufs.get(e.name)
        if uf is None:
            self.features.add("UF")
            uf = z3.Function(e.name, *[self.sort(t) for _, t in f.params], self.sort(f.ret))
            self.ufs[e.name] = uf
        return uf(*args)

    def _builtin(self, spec: str, args: list, fname: str):
        words = spec.split()
        op = words[0] if words else ""
        if op in self.bv2 and len(args) == 2:
            return self.bv2[op](*args)
        if op in _BV_UNARY and len(args) == 1:
            return _BV_UNARY[op](args[0])
        if op in _BV_INDEXED and len(args) == 1:
            try:
                return _BV_INDEXED[op]([int(w) for w in words[1:]], args[0])
            except (ValueError, IndexError):
                pass
        raise _err(f"function {fname}: unsupported {{:bvbuiltin \"{spec}\"}} with {len(args)} arguments")


    def _math_builtin(self, spec: str, args: list, fname: str, f: il.FunctionDecl):
        words = spec.split()
        op = words[0] if words else ""
        p = self.resolve(f.params[0][1]) if f.params else None
        w = p.width if isinstance(p, il.BvType) else 0
        try:
            idx = [int(x) for x in words[1:]]
        except ValueError:
            idx = None
        r = None
        if len(args) == 2 and not idx:
            a, b = args
            r = self._math_ops().binary(op, a, b, w)
        elif len(args) == 1 and idx is not None:
            r = self._math_ops().unary(op, idx, args[0], w)
        if r is None:
            raise _err(f"function {fname}: unsupported {{:bvbuiltin \"{spec}\"}} with {len(args)} arguments")
        if z3.is_app(r) and r.decl().name().startswith("int$"):
            self.features.add("UF")
        if op in ("bvmul", "bvudiv", "bvsdiv", "bvurem", "bvsrem", "bvsmod") and \
                not any(z3.is_int_value(a) for a in args[1 if op != "bvmul" else 0:]):
            self.features.add("NIA")
        return r


# ------------------------------------------------------------------------- the VC


@dataclass
class Check:
    """One labelled assertion of the VC.  ``fail`` is the Boolean constant that is true in
    a model iff this assertion is the one violated on the model's path."""
    index: int
    label: str
    fail: z3.BoolRef
    enable: z3.BoolRef
    site: PassiveAssert | None  # None for the synthetic end-reachability check
    guard: str | None = None  # Houdini candidate: the existential constant's name
    rule: str | None = None  # candidate rule name ("r3")

    def has(self, name: str) -> bool:
        return self.site is not None and il.has_attr(self.site.attrs, name)

    def attr(self, name: str):
        return None if self.site is None else il.attr(self.site.attrs, name)

    @property
    def is_candidate(self) -> bool:
        return self.guard is not None

    @property
    def is_vacuity(self) -> bool:
        return self.site is None or self.has("vacuity_check")


class Fact(NamedTuple):
    """A term that holds at the end of its block on every path through it, and the IL
    expression (over incarnations) it encodes."""
    term: z3.BoolRef
    expr: il.Expr


class BlockEncoding(NamedTuple):
    """Where a passive block is in the VC (``build_vc``): its ``constraints[first:end]``
    (the first defines ``reach``, its reachability Boolean), and ``facts``, the terms of
    its assumptions and of its assertions assumed once checked (``Fact``): each holds at the block's
    end on every path through it (``vcgen.vc.regions`` asserts those of a region's
    dominators)."""
    label: str
    reach: z3.BoolRef
    first: int
    end: int
    facts: list


@dataclass
class VC:
    """A program's VC in one z3 context: ``constraints`` (axioms and block definitions,
    always asserted), ``goal`` (some check fails), ``checks`` and the Houdini guard
    constants ``guards`` (name -> z3 Bool); ``blocks``: each passive block's part of the
    constraints (``BlockEncoding``), in the passive program's order."""
    ctx: z3.Context
    translator: Translator
    passive: PassiveProgram
    constraints: list
    goal: z3.BoolRef
    checks: list
    guards: dict = field(default_factory=dict)
    math_int: bool = False  # bit-vectors encoded as mathematical integers (unsound on overflow)
    blocks: list = field(default_factory=list)
    # seconds ``build_vc`` took: about what printing the VC as SMT-LIB text costs
    # (``solvers.escalating``: 1.6 s to build, 1.2 s to print bench-scaling's sync-loop 50)
    seconds: float = 0.0
    # the named Booleans ``build_vc`` defines (``reach_i``, ``end_i``, ``ok_k``, ``fail_k``,
    # ``holds_k``): name -> (index of its defining constraint, the named Booleans its
    # definition reads); every other constraint (axioms, ``reach_0``) is a fact
    # (``slicing.cone_constraints``)
    definitions: dict = field(default_factory=dict)
    _negated: tuple | None = field(default=None, repr=False, compare=False)  # ``assumptions``' cache
    # the SMT-LIB text of the constraints and goal (``solvers.smtlib.smt_body``), printed
    # once for every solver process and the cone prover of this VC
    printed: str | None = field(default=None, repr=False, compare=False)
    # the kernel has symbolic launch sizes (``{:symbolic_launch}``): its launch axioms and
    # global ids multiply symbolic bit-vectors in every query (``solvers.escalating``)
    symbolic_launch: bool = False
    # check index -> the cases of its log choices (``LogCaseSplitter.case_paths``,
    # ``LogCase``): a partition of its states, which the cone prover asks case by case
    cases: dict = field(default_factory=dict)

    def assumptions(self, enabled, alive_guards=None) -> list[z3.BoolRef]:
        """Assumption literals: checks in ``enabled`` (a set of indices) are checked, all
        others assumed; guards in ``alive_guards`` true, other guards false (all true if None).

        The negated literals are built once per VC: Houdini asks for one list per query, and
        building ``Not`` terms through the z3 API per query made the literal lists a
        quadratic cost on loop nests (``make bench-scaling``, loop family)."""
        off_checks, off_guards = self.negated_literals()
        lits = [c.enable if c.index in enabled else off for c, off in zip(self.checks, off_checks)]
        for name, g in self.guards.items():
            lits.append(g if alive_guards is None or name in alive_guards else off_guards[name])
        return lits

    def part_goal(self, checks) -> z3.BoolRef:
        """The goal of a query over the checks ``checks`` (VC check indices) alone: some
        enabled one of them fails (the VC's ``goal`` restricted to them; a cone query's
        goal, ``sliced``, ``conesession``)."""
        return z3.Or([z3.And(self.checks[k].enable, self.checks[k].fail) for k in checks])

    def negated_literals(self) -> tuple[list, dict]:
        """``(not en_k per check, guard name -> not guard)``: the literals ``assumptions``
        uses to switch a check or guard off, the same objects in every list."""
        if self._negated is None:
            self._negated = ([z3.Not(c.enable) for c in self.checks],
                             {name: z3.Not(g) for name, g in self.guards.items()})
        return self._negated

    def term_at(self, e: il.Expr, site: PassiveAssert | None = None) -> z3.ExprRef:
        """z3 term of an IL expression over source variable names, evaluated at ``site``
        (None = the initial state)."""
        return self.translator.term(subst_current(e, site.env) if site else e)


def existential_consts(program: il.Program) -> dict[str, il.ConstDecl]:
    """Name -> ConstDecl of the ``{:existential true}`` constants (Houdini guards)."""
    return {n: d for n, d in program.consts().items() if il.has_attr(d.attrs, "existential")}


class GuardedCandidate(NamedTuple):
    """A candidate assertion ``guard ==> expr``: the guard's name and the candidate."""
    guard: str
    expr: il.Expr


def candidate_guard(a: il.Expr, guards: dict[str, il.ConstDecl]) -> GuardedCandidate | None:
    """``(guard name, guarded expression)`` if ``a`` is ``_bK ==> e`` with ``_bK`` a guard."""
    if isinstance(a, il.BinOp) and a.op == "==>" and isinstance(a.left, il.Var) \
            and a.left.name in guards:
        return GuardedCandidate(a.left.name, a.right)
    return None


def _any(xs: list, ctx: z3.Context) -> z3.BoolRef:
    """Disjunction; never a unary ``or`` (not SMT-LIB, and bitwuzla rejects it)."""
    return xs[0] if len(xs) == 1 else _or(*xs) if xs else z3.BoolVal(False, ctx)


# Boolean connectives (and equality) over z3 terms of one context, made by z3's C API directly:
# ``z3.And`` and friends check and coerce every argument's sort in Python first, ten
# times the cost of the call itself (``z3.And`` of two terms about 50 us, ``Z3_mk_and``
# 5 us), and the encoder makes one or more per assertion and per IL connective.  Any
# other argument (a Python bool, a non-Boolean term: an ill-typed program; a term of
# another context, which the C API would not check) goes through z3's functions, whose
# errors ``Translator.term`` reports.
def _raw(xs: tuple) -> bool:
    ctx = xs[0].ctx if xs and isinstance(xs[0], z3.ExprRef) else None
    return ctx is not None and all(type(x) is z3.BoolRef and x.ctx is ctx for x in xs)


def _and(*xs) -> z3.BoolRef:
    if not xs or not _raw(xs):
        return z3.And(*xs)
    ctx = xs[0].ctx
    return z3.BoolRef(z3.Z3_mk_and(ctx.ref(), len(xs), (z3.Ast * len(xs))(*[x.as_ast() for x in xs])), ctx)


def _or(*xs) -> z3.BoolRef:
    if not xs or not _raw(xs):
        return z3.Or(*xs)
    ctx = xs[0].ctx
    return z3.BoolRef(z3.Z3_mk_or(ctx.ref(), len(xs), (z3.Ast * len(xs))(*[x.as_ast() for x in xs])), ctx)


def _implies(a, b) -> z3.BoolRef:
    if not _raw((a, b)):
        return z3.Implies(a, b)
    return z3.BoolRef(z3.Z3_mk_implies(a.ctx.ref(), a.as_ast(), b.as_ast()), a.ctx)


def _eq(a, b) -> z3.BoolRef:
    """``a == b`` for two terms of one type (z3 reports a sort mismatch as ``==`` does)."""
    if not isinstance(a, z3.ExprRef) or type(a) is not type(b) or a.ctx is not b.ctx:
        return a == b
    return z3.BoolRef(z3.Z3_mk_eq(a.ctx.ref(), a.as_ast(), b.as_ast()), a.ctx)


def _not(a) -> z3.BoolRef:
    if type(a) is not z3.BoolRef:
        return z3.Not(a)
    return z3.BoolRef(z3.Z3_mk_not(a.ctx.ref(), a.as_ast()), a.ctx)


def fixed_constants(program: il.Program) -> dict[str, il.Expr]:
    """Constants an axiom ``c == literal`` (or ``literal == c``) fixes, e.g. the launch's
    ``group_size_x == 64bv32``: name -> literal.

    ``build_vc`` encodes them as their literal, so ``group_size_x * num_groups_x`` is a
    constant and ``group_id_x * group_size_x`` a product by a constant: incremental solving
    (check with assumptions) skips the preprocessing that would otherwise propagate the
    equalities, and the solvers bit-blast full multipliers instead (``make
    bench-scaling``, access family: most of the final check).  The axioms stay, so the
    formula is equivalent."""
    consts = program.consts()
    out: dict[str, il.Expr] = {}
    for d in program.decls:
        if isinstance(d, il.AxiomDecl):
            pin_literal(d.expr, consts, out)
    return out


INLINE_MAX_NODES = 48  # IL nodes of an inlined value, its inlined operands included


class DefinitionInliner:
    """Encodes a passive definition ``assume x@k == e`` (``passify.DEFINITION``: ``x@k`` is
    a fresh incarnation assigned once) by making ``x@k`` *stand for* the term of ``e``
    instead of a path-condition equation.

    Why: in incremental mode (checks under assumption literals) z3 does not run its
    equation-solving preprocessing, so every intermediate value (``$add.i$1@1``,
    ``$call4.i$2@1``, ...) stays a 32-bit variable tied by an equation that the search
    bit-blasts, decides and re-derives; straight-line kernels with hundreds of accesses
    (SHOC s3d qssa: 450 race checks, 62 s in the final check; 28 s inlined).  As a term, the same
    value computed twice (each inlined ``get_global_id(0)``) is one shared z3 node.

    Sound and equivalent: ``x@k`` is referenced only on paths through its definition
    (joins get their own incarnations with edge copies, which are not definitions), so
    the formula with ``x@k`` replaced by ``e`` is equisatisfiable, and a model is read
    through the same substitution (``Translator.consts``), so counterexamples evaluate
    ``x@k`` to ``e``'s value.

    Not inlined (kept as equations): values whose term would exceed ``INLINE_MAX_NODES``
    IL nodes (long arithmetic chains would be printed again in every constraint that uses
    them by ``vcgen smt`` and the SMT-LIB solver processes), and the if-then-else and
    map-store values of access logs and memory: they stay named, so the solver branches on
    one variable per update rather than on a nested term."""

    def __init__(self, tr: Translator):
        self.tr = tr
        self.sizes: dict[str, int] = {}  # inlined incarnation -> IL nodes of its value

    def _size(self, e: il.Expr) -> int:
        return sum(self.sizes.get(x.name, 1) if isinstance(x, il.Var) else 1 for x in il.subexprs(e))

    def inline(self, c: il.Assume) -> bool:
        """Inline ``c`` if it is an inlinable definition; False if it must stay an assumption."""
        if not il.has_attr(c.attrs, "definition"):
            return False
        e = c.expr
        assert isinstance(e, il.BinOp) and isinstance(e.left, il.Var)
        if isinstance(e.right, (il.IfThenElse, il.MapStore)):
            return False
        size = self._size(e.right)
        if size > INLINE_MAX_NODES:
            return False
        self.tr.consts[e.left.name] = self.tr.term(e.right)
        self.sizes[e.left.name] = size
        return True


# Most cases one assertion's split may produce (leaves of its decision tree); beyond it the
# remaining log incarnations stay named (still constrained by their update equations).
SPLIT_MAX_CASES = 1024
# Most cases the refuter may leave undecided for the split to be kept: undecided
# comparisons over program variables (predicated offsets) cost the solver more case by
# case than through the chain (SHOC s3d rdsmh: 19 s with the chain, 83 s split).  A split
# whose cases the refuter decides none of is only the chain restructured, and is not kept
# either (gpgpu-sim LPS: 50 such splits of 1-3 cases made the final check 18 s -> 69 s).
SPLIT_MAX_LIVE = 8
# Most cases of a loop invariant's split (``LogCaseSplitter.split_invariant``): the split
# pays when its last case restates the invariant assumed at the loop head; a long chain
# of updates in the body would multiply the copies of the invariant's arithmetic.  Five:
# two logged accesses in a body that a skip path joins (1 + 3 + 1 cases, docs/design.md 6).
INVARIANT_SPLIT_MAX_CASES = 5
# Most cases of a loop invariant's case paths (``LogCaseSplitter.case_paths``): the
# partition of its paths by the log choices of a chain too long to split in the formula,
# which the cone prover asks case by case (``solvers.sliced.SliceProver``).
CASE_PATHS_MAX = 32


class LogCase(NamedTuple):
    """A case of a loop invariant over a chain of log updates (``LogCaseSplitter.case_paths``):
    ``path``, the log choices of the case (a conjunction), and ``leaf``, the invariant's term
    over the values those choices log."""
    path: tuple
    leaf: z3.BoolRef


class _IteUpdate(NamedTuple):
    """A definition ``x@k == if cond then new else old`` (an access-log update): the z3
    terms of its parts and the IL variable names each value reads."""
    cond_key: il.Expr
    cond: z3.BoolRef
    new: z3.ExprRef
    old: z3.ExprRef
    new_vars: frozenset
    old_vars: frozenset


def _substitute(term: z3.ExprRef, src: list, dst: list) -> z3.ExprRef:
    """``term`` with the constants ``src`` replaced by the terms ``dst`` (z3's C API
    directly: the Python wrapper's sort checks cost more than the substitution itself)."""
    n = len(src)
    a, b = (z3.Ast * n)(), (z3.Ast * n)()
    for i in range(n):
        a[i], b[i] = src[i].as_ast(), dst[i].as_ast()
    return z3.BoolRef(z3.Z3_substitute(term.ctx.ref(), term.as_ast(), n, a, b), term.ctx)


# Queries ``CaseRefuter`` may ask per VC, each one's limit in milliseconds, and the
# seconds all of them may take together (atoms are decided in about a millisecond each).
# The limit: every refutation measured took at most 14 ms on the loaded two-core machine
# (SHOC s3d qssa, qssab, ratx, ratt9: 561 refuted atoms, median 0.3 ms; 45 corpus kernels
# with concrete or symbolic sizes: 89, median 3 ms), while with symbolic sizes 18 of 70
# satisfiable atoms took 50-200 ms (nonlinear offsets) and 2 ran into a 200 ms limit, an
# undecided atom costing its whole limit in every VC: at 200 ms, 2.9 s over the 45.
REFUTE_MAX_QUERIES = 4096
REFUTE_TIMEOUT_MS = 50
REFUTE_BUDGET_SECONDS = 10.0
# Verdicts of ``CaseRefuter`` by (axioms, atom, its constants' sorts) as SMT-LIB text, for
# the other VCs of the same kernel in this process: Houdini's, the offsets-first one and
# the final check's ask the same atoms under the same axioms, each in its own z3 context.
# With symbolic launch sizes most atoms are nonlinear and run into REFUTE_TIMEOUT_MS
# undecided (corpus memfence_bug_nosync: 9 atoms, 5 timeouts, 1 s of its 2 s, asked
# once per VC).  Bounded: cleared when it reaches REFUTE_CACHE_MAX entries.
REFUTE_CACHE_MAX = 100_000
_REFUTED: dict[tuple, bool] = {}


def _decl_kind(ref, a) -> int:
    """The declaration kind of application ``a`` (a raw AST), or -1 for other ASTs."""
    if z3.Z3_get_ast_kind(ref, a) != z3.Z3_APP_AST:
        return -1
    return z3.Z3_get_decl_kind(ref, z3.Z3_get_app_decl(ref, a))


def uninterpreted_constants(*terms: z3.ExprRef) -> set[z3.ExprRef]:
    """The uninterpreted constants (z3 terms) of ``terms``, each subterm they share
    visited once (a model's thousands of Houdini checks share most of their DAG)."""
    out, seen, todo = set(), set(), list(terms)
    while todo:
        t = todo.pop()
        if t.get_id() in seen:
            continue
        seen.add(t.get_id())
        if z3.is_const(t) and t.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            out.add(t)
        todo.extend(t.children())
    return out


class CaseRefuter:
    """Decides the offset comparisons of split log cases that read launch constants only
    (``gid1 + 13824 == gid2 + 27648``: thread and group ids, sizes) once, under the axioms,
    in a small solver of its own; a comparison no launch satisfies becomes ``false``.

    Why: the cases of straight-line code compare every logged offset with every checked
    one; in the VC each comparison is refuted by bit-level reasoning inside the whole
    formula, each conflict paid over all of it (SHOC s3d ``ratx2``: 40 000 conflicts,
    17 s).  Alone, a comparison takes milliseconds, and equal comparisons (the rewriter
    normalises ``gid1 + a == gid2 + b`` to one atom per difference) are decided once.

    Sound and equivalent: the axioms hold in every execution (they are always asserted
    in the VC), so an atom unsatisfiable with them is false in every model.  An atom not
    refuted within the limits is kept as it is."""

    def __init__(self, ctx: z3.Context, axioms: list, consts: set):
        self.ctx = ctx
        self.consts = consts
        # with symbolic sizes, atoms are also asked with their global ids abstracted
        # (``global_ids``): the rewriter distributes ``5 * gid`` out of the lemmas' reach
        self.abstraction = GlobalIdAbstraction(ctx, axioms)
        self.views = [_RefuterView(axioms)]
        if self.abstraction.pairs:
            self.views.append(_RefuterView(self.abstraction.axioms))
        # AST id -> (atom, refuted): holding the atom keeps its id from being reused, and
        # z3's hash-consing gives an equal atom the same id while it lives
        self.cache: dict[int, tuple[z3.ExprRef, bool]] = {}
        self.queries = 0
        self.seconds = 0.0

    def simplify(self, case: z3.BoolRef) -> z3.BoolRef:
        """``case`` rewritten, ``false`` if one of its conjuncts is a refuted atom, as
        written or with its global ids abstracted.  (Through z3's C API: tens of thousands
        of cases per VC, the Python wrappers would dominate.)"""
        t = self._rewrite(case)
        if self._refutes(t, self.views[0]):
            return z3.BoolVal(False, self.ctx)
        if len(self.views) == 1:
            return t
        abstract = self._rewrite(self.abstraction(case))
        if self._refutes(abstract, self.views[1]):
            return z3.BoolVal(False, self.ctx)
        implied = self._implied_coordinates(abstract)
        return z3.And(t, *implied) if implied else t

    def rewrite(self, case: z3.BoolRef) -> z3.BoolRef:
        """``case`` rewritten by z3's simplifier (an equivalent term; no query)."""
        return self._rewrite(case)

    def _implied_coordinates(self, t: z3.BoolRef) -> list[z3.BoolRef]:
        """Equal coordinates (``GlobalIdAbstraction.same_coordinates``) that a bit-vector
        equation conjunct of the abstracted case ``t`` implies under the abstracted axioms:
        ``5 * G1 == 5 * G2`` holds only when the two threads' group and local ids in that
        dimension are equal (``launch.global_id_lemmas``).  The case is equivalent to itself
        conjoined with them, and with them the solver sees at once that two distinct
        threads' offsets differ, where the distributed products hid it."""
        out = []
        for x in (z3.BoolRef(a, self.ctx) for a in self._equations(t)):
            consts = uninterpreted_constants(x)
            if not self._launch_only(consts):
                continue
            for d in self.abstraction.dimensions_of_both({c.decl().name() for c in consts}):
                same = self.abstraction.same_coordinates(d)
                key = z3.And(x, z3.Not(same))
                if self._refuted(key.as_ast(), self.views[1]):
                    out.append(same)
        return out

    def _rewrite(self, case: z3.BoolRef) -> z3.BoolRef:
        return z3.BoolRef(z3.Z3_simplify(self.ctx.ref(), case.as_ast()), self.ctx)  # owns the result

    def _refutes(self, t: z3.BoolRef, view: _RefuterView) -> bool:
        """Whether a conjunct of ``t`` is a bit-vector equation refuted under ``view``."""
        return any(self._refuted(x, view) for x in self._equations(t))

    def _equations(self, t: z3.BoolRef) -> list:
        """The conjuncts of ``t`` that are bit-vector equations, as raw ASTs (a hot path:
        no Python wrapper per conjunct)."""
        ref = self.ctx.ref()
        a = t.as_ast()
        parts = [a]
        if _decl_kind(ref, a) == z3.Z3_OP_AND:
            parts = [z3.Z3_get_app_arg(ref, a, i) for i in range(z3.Z3_get_app_num_args(ref, a))]
        return [x for x in parts if _decl_kind(ref, x) == z3.Z3_OP_EQ and z3.Z3_get_sort_kind(
                ref, z3.Z3_get_sort(ref, z3.Z3_get_app_arg(ref, x, 0))) == z3.Z3_BV_SORT]

    def _launch_only(self, consts: set) -> bool:
        """Whether the constants ``consts`` (z3 terms) are all launch constants."""
        return all(c.decl().name() in self.consts or c.decl().name() in self.abstraction.names
                   for c in consts)

    def _refuted(self, ast, view: _RefuterView) -> bool:
        key = z3.Z3_get_ast_id(self.ctx.ref(), ast)
        known = self.cache.get(key)
        if known is not None:
            return known[1]
        atom = z3.BoolRef(ast, self.ctx)
        refuted = False
        consts = uninterpreted_constants(atom)
        if self.queries < REFUTE_MAX_QUERIES and self.seconds < REFUTE_BUDGET_SECONDS \
                and self._launch_only(consts):
            shared = (view.axioms_text(), atom.sexpr(),
                      tuple(sorted((c.decl().name(), c.sort().sexpr()) for c in consts)))
            hit = _REFUTED.get(shared)
            refuted = hit if hit is not None else self._ask(atom, view)
            if hit is None:
                if len(_REFUTED) >= REFUTE_CACHE_MAX:
                    _REFUTED.clear()
                _REFUTED[shared] = refuted
        self.cache[key] = (atom, refuted)
        return refuted

    def _ask(self, atom: z3.BoolRef, view: _RefuterView) -> bool:
        """Whether ``atom`` is unsatisfiable with the view's axioms (within REFUTE_TIMEOUT_MS)."""
        self.queries += 1
        start = time.monotonic()
        refuted = view.refutes(atom, self.ctx)
        self.seconds += time.monotonic() - start
        return refuted


class _RefuterView:
    """The axioms a ``CaseRefuter`` asks atoms under, and the small solver holding them
    (made on the first question)."""

    def __init__(self, axioms: list):
        self.axioms = axioms
        self.solver: z3.Solver | None = None
        self._text: str | None = None

    def axioms_text(self) -> str:
        if self._text is None:
            self._text = "\n".join(a.sexpr() for a in self.axioms)
        return self._text

    def refutes(self, atom: z3.BoolRef, ctx: z3.Context) -> bool:
        """Whether ``atom`` is unsatisfiable with the axioms (within REFUTE_TIMEOUT_MS)."""
        if self.solver is None:
            self.solver = z3.Solver(ctx=ctx)
            self.solver.set("timeout", REFUTE_TIMEOUT_MS)
            self.solver.add(*self.axioms)
        self.solver.push()
        self.solver.add(atom)
        refuted = self.solver.check() == z3.unsat
        self.solver.pop()
        return refuted


class LogCaseSplitter:
    """Encodes an assertion that reads access-log incarnations defined by an update
    ``log@k == if logged then new else log@j`` as the decision tree over the log choices:
    ``P(log@k)`` becomes ``if logged then P(new) else P(log@j)``, and ``P(log@j)`` is split
    the same way, down the chain of updates.

    Why: thread 1's log (paper 000 section 5, "access logging"; docs/design.md 5.5-5.8)
    holds one access chosen nondeterministically, so in straight-line code with n accesses
    to an array each race check reads a chain of n nested updates.  Over the chain the
    solver must bit-blast one 32-bit multiplexer per update and rediscover, check by check,
    which access the log may hold (SHOC s3d ``ratx2``: 191 statements, more than 60 s; 50
    of them: 8.5 s).  Split, each case compares two offsets directly (``gid1 + 13824 ==
    gid2 + 27648``), which the rewriter normalises to one shared atom per offset
    difference (50 statements: 0.2 s).

    Equivalent: the update is an equation of the path condition on every path that
    reaches a reader (passive form: each incarnation is assigned once, and every use is
    dominated by its definition), so ``P(log@k)`` and its split agree wherever the
    assertion is evaluated.  Updates with the same condition (HAS_OCCURRED, OFFSET,
    SOURCE, VALUE of one access) are split together.  At most ``SPLIT_MAX_CASES`` cases per
    assertion; the rest of the chain stays a named incarnation.
    """

    def __init__(self, tr: Translator, globals_: set[str], refuter: CaseRefuter):
        self.tr = tr
        self.globals = globals_
        self.refuter = refuter
        self.updates: dict[str, _IteUpdate] = {}
        self.joins: dict[str, list[str]] = {}  # join incarnation -> the incarnations copied in

    def record(self, c: il.Assume) -> None:
        """Remember ``c`` if it defines an incarnation of a global variable as an
        if-then-else.  Globals only: the two-thread program's globals are the access logs
        and the arrays (updated by map stores); a local's if-then-else is a predicated
        assignment, whose split would multiply the cases without shortening any chain."""
        e = c.expr
        if il.has_attr(c.attrs, "join_copy") and isinstance(e, il.BinOp) and isinstance(e.left, il.Var) \
                and isinstance(e.right, il.Var) and e.left.name.rpartition("@")[0] in self.globals:
            sources = self.joins.setdefault(e.left.name, [])
            if e.right.name not in sources:
                sources.append(e.right.name)
            return
        if not (il.has_attr(c.attrs, "definition") and isinstance(e, il.BinOp)
                and isinstance(e.left, il.Var) and isinstance(e.right, il.IfThenElse)
                and e.left.name.rpartition("@")[0] in self.globals):
            return
        r = e.right
        self.updates[e.left.name] = _IteUpdate(
            r.cond, self.tr.term(r.cond), self.tr.term(r.then), self.tr.term(r.els),
            frozenset(il.free_vars(r.then)), frozenset(il.free_vars(r.els)))

    def split(self, e: il.Expr, term: z3.BoolRef) -> z3.BoolRef | None:
        """The split form of assertion ``e`` (whose z3 term is ``term``), or None when it
        reads no recorded update.  For ``!(c1 && ... && cn)`` (race checks) only the
        conjuncts that read updates are split, so the cases stay small."""
        names = frozenset(n for n in il.free_vars(e) if n in self.updates)
        if not names:
            return None
        if not (isinstance(e, il.UnOp) and e.op == "!"):
            return None
        budget = [SPLIT_MAX_CASES]
        parts = il.conjuncts(e.operand)
        reads = [p for p in parts if il.free_vars(p) & names]
        others = [self.tr.term(p) for p in parts if not il.free_vars(p) & names]
        cases = [0, 0]  # [undecided, refuted]
        split = self._split(self.tr.term(il.and_all(reads)), names, budget, cases)
        if cases[0] > SPLIT_MAX_LIVE or not cases[1]:
            return None
        return z3.Not(z3.And(*others, split) if others else split)

    def split_invariant(self, e: il.Expr, term: z3.BoolRef) -> z3.BoolRef | None:
        """The split form of a loop-invariant assertion ``e`` (z3 term ``term``) over the
        log updates of the loop body, or None when it reads none or would have more than
        ``INVARIANT_SPLIT_MAX_CASES`` cases.  The cases are not simplified: the case
        "no access of the body was logged" substitutes the log's value at the loop head
        into ``term``, which gives (hash-consed) the very term the cut point assumes.

        Why: at a back edge the invariant ``P(log@k)`` reads the log after the body's
        updates ``log@k == if logged then new else log@head``.  Unsplit, the solver must
        show that ``P`` of two equal 64-bit offsets agree, bit-blasting ``P``'s arithmetic
        twice; for ``__write_offset_bytes(p)/sizeof(float) % width == tid`` (64-bit CUDA
        offsets, a remainder by a non-power of two) that miter took yices and z3 minutes
        (CUDA fluidsGL advectVelocity_k: over 100 s for the "not logged" case alone, under
        1 s for the "logged" one).  Split, the "not logged" case is the assumed term itself.
        Equivalent for the same reason as ``split``.  A bit-vector log the body joins (logged
        on one branch) is first cased over the join's copies (``_split_joins``)."""
        names = frozenset(n for n in il.free_vars(e) if n in self.updates or self._cased_join(n))
        if not names:
            return None
        budget = [INVARIANT_SPLIT_MAX_CASES]
        cases = [0, 0]
        split = self._split_joins(term, names, budget, cases)
        if cases[0] + cases[1] > INVARIANT_SPLIT_MAX_CASES:
            return None
        return split

    def case_paths(self, e: il.Expr, term: z3.BoolRef) -> list[LogCase] | None:
        """The cases of the decision tree ``split_invariant`` would build for the
        loop-invariant assertion ``e`` (z3 term ``term``), when that tree has more than
        ``INVARIANT_SPLIT_MAX_CASES`` leaves (so the VC keeps ``e`` unsplit) and at most
        ``CASE_PATHS_MAX``; None otherwise.  Each ``LogCase`` is a path of the tree (the
        conjunction of its log choices) and its leaf (``term`` over the logged values the
        path chooses).

        The paths partition every state: the tree's if-then-else nodes give each node's
        condition and its negation to the two subtrees (the structure is read from the
        tree built over a fresh marker, so an if-then-else of ``term`` itself is a leaf),
        so the disjunction of the paths is valid whatever the conditions are.  On a path,
        ``term`` equals its leaf wherever the assertion is evaluated, for the reason the
        split is equivalent (``split``): the updates are equations of every path that
        reaches it.  The cone prover asks the check's query once per case, with the path
        and the leaf's negation (``solvers.sliced.SliceProver``): every case unsat is the
        check unsat.

        Why: a loop body with many logged accesses (PolyBench heat-3d: 10 reads of ``A``
        in the innermost loop) gives the invariant at the back edge a chain of 10 updates;
        split in the formula, the invariant's arithmetic is copied 11 times (its cone
        query 56 s); unsplit, yices took 29 s on the cone and 183-275 s over the whole VC
        at load 5-8; its 11 cases one by one 1-3.5 s each, the "nothing logged" case, whose
        leaf is the term the cut point assumes, at once (16 s with the path alone)."""
        names = frozenset(n for n in il.free_vars(e) if n in self.updates or self._cased_join(n))
        if not names:
            return None
        marker = z3.FreshBool("case", self.tr.ctx)
        shape = self._split_joins(marker, names, [CASE_PATHS_MAX], [0, 0])
        tree = self._split_joins(term, names, [CASE_PATHS_MAX], [0, 0])
        out: list[LogCase] = []
        todo: list[tuple[z3.BoolRef, z3.BoolRef, tuple[z3.BoolRef, ...]]] = [(shape, tree, ())]
        while todo:
            s, t, path = todo.pop()
            if z3.is_app_of(s, z3.Z3_OP_ITE):
                todo.append((s.arg(2), t.arg(2), path + (_not(s.arg(0)),)))
                todo.append((s.arg(1), t.arg(1), path + (s.arg(0),)))
            else:
                out.append(LogCase(path, t))
        if not INVARIANT_SPLIT_MAX_CASES < len(out) <= CASE_PATHS_MAX:
            return None
        return out

    def _cased_join(self, name: str) -> bool:
        """Whether ``_split_joins`` cases on the join incarnation ``name``: a bit-vector
        one (an offset, a value), whose multiplexer arithmetic must read; a Boolean join
        (``HAS_OCCURRED``) costs the solver nothing and would multiply the cases."""
        return name in self.joins and not z3.is_bool(self.tr.const(name))

    def _split_joins(self, term: z3.BoolRef, names: frozenset, budget: list, cases: list) -> z3.BoolRef:
        """``_split`` (``decide=False``) after the join incarnations among ``names`` are
        cased over the incarnations copied into them: ``P(x@j)`` becomes ``if x@j == x@p1
        then P(x@p1) else if x@j == x@p2 then P(x@p2) else P(x@j)``, each ``P(x@p)`` split
        further.  Equivalent whatever the path (each case is guarded by its own equation).

        Why: a loop body whose access is logged on one branch only joins the log (``x@j``
        is the logged update ``x@k`` or the loop head's ``x@h``), and the invariant at the
        back edge reads the join.  Unsplit the solver bit-blasts ``P``'s arithmetic over the
        multiplexer of both; for ``(__write_offset_bytes(img)/4) % width == tidx`` (64-bit
        remainder by 1920) z3 took 10 s CPU and yices 30 s on the back-edge check alone,
        each case on its own under 0.4 s (CUDA shfl_vertical_shfl)."""
        joined = sorted(n for n in names if self._cased_join(n))
        if not joined or budget[0] <= 0:  # out of budget: the rest stays as it is
            return self._split(term, frozenset(n for n in names if n in self.updates), budget, cases,
                               decide=False)
        j, rest = joined[0], names.difference(joined[:1])
        const = self.tr.const(j)
        out = self._split(term, frozenset(), budget, cases, decide=False)  # no copy matched
        for src in reversed(self.joins[j]):
            budget[0] -= 1
            src_names = rest | {src} if src in self.updates or self._cased_join(src) else rest
            case = self._split_joins(_substitute(term, [const], [self.tr.const(src)]),
                                     frozenset(src_names), budget, cases)
            out = z3.If(const == self.tr.const(src), case, out)
        return out

    def _latest(self, names: frozenset) -> _IteUpdate:
        def number(n: str) -> int:
            k = n.rpartition("@")[2]
            return int(k) if k.isdigit() else 0
        return self.updates[max(names, key=number)]

    def _split(self, term: z3.BoolRef, names: frozenset, budget: list, cases: list,
               decide: bool = True, known: dict[int, bool] | None = None) -> z3.BoolRef:
        """Walk down the chain (the else branches) iteratively; then branches recursively
        (a logged value may itself read updates).  Each case is a conjunction of conflict
        conditions whose atoms ``self.refuter`` may decide; ``cases`` counts the undecided
        (index 0) and the refuted (index 1) ones.  ``decide=False``: cases are left as
        substituted (not simplified nor refuted), all counted undecided.

        ``known``: the conditions decided on the way to this subtree (z3 AST id -> value).
        An update whose condition is decided there is replaced by the value it takes,
        without a node: on the else branch of ``c`` every later update under ``c`` keeps
        its old value (a barrier resets the logs under the same ``same group`` condition
        each time, so a chain over n barriers had n nodes on that condition, n - 1 of them
        unreachable).  Equivalent: the condition is the same term (hash-consed), hence
        the same value, on the whole path (passive form)."""
        leaf = self.refuter.simplify if decide else (lambda t: t)
        known = dict(known or {})
        spine = []
        while names and budget[0] > 0:
            first = self._latest(names)
            group = [n for n in names if self.updates[n].cond_key == first.cond_key]
            consts = [self.tr.const(n) for n in group]
            rest = names.difference(group)
            decided = known.get(first.cond.get_id())
            if decided is not None:
                chosen = [self.updates[n].new if decided else self.updates[n].old for n in group]
                term = _substitute(term, consts, chosen)
                names = frozenset(n for n in rest.union(*(
                    self.updates[n].new_vars if decided else self.updates[n].old_vars
                    for n in group)) if n in self.updates)
                continue
            budget[0] -= 1
            then_t = _substitute(term, consts, [self.updates[n].new for n in group])
            else_t = _substitute(term, consts, [self.updates[n].old for n in group])
            then_names = frozenset(n for n in rest.union(*(self.updates[n].new_vars for n in group))
                                   if n in self.updates)
            names = frozenset(n for n in rest.union(*(self.updates[n].old_vars for n in group))
                              if n in self.updates)
            if then_names and decide:
                # the logged value may decide the case already (a barrier's reset
                # ``if same_group then false else has_occurred``): a constant is a leaf,
                # not a tree over the rest of the chain (the other logs the case reads)
                then_t = self.refuter.rewrite(then_t)
                if z3.is_false(then_t) or z3.is_true(then_t):
                    then_names = frozenset()
            if then_names:
                then_t = self._split(then_t, then_names, budget, cases, decide,
                                     {**known, first.cond.get_id(): True})
            else:
                then_t = leaf(then_t)
                cases[z3.is_false(then_t)] += 1
            spine.append((first.cond, then_t))
            known[first.cond.get_id()] = False
            term = else_t
        if names:  # the budget ran out: the rest of the chain stays as it is
            cases[0] += 1
        else:
            term = leaf(term)
            cases[z3.is_false(term)] += 1
        ctx = self.tr.ctx
        for cond, case in reversed(spine):
            term = z3.BoolRef(z3.Z3_mk_ite(ctx.ref(), cond.as_ast(), case.as_ast(), term.as_ast()), ctx)
        return term


def _is_loop_invariant(c: PassiveAssert) -> bool:
    """A user's or a proved (Houdini-kept) loop invariant; not a candidate."""
    return (il.has_attr(c.attrs, "invariant") or il.has_attr(c.attrs, "user_invariant")) \
        and not il.has_attr(c.attrs, "candidate")


def build_vc(program: il.Program, passive: PassiveProgram, ctx: z3.Context | None = None,
             math_int: bool = False, independent_candidates: bool = False) -> VC:
    """The VC of a passive program (see the module docstring); ``math_int`` encodes
    bit-vectors as mathematical integers.  ``independent_candidates`` (Houdini): a candidate
    check is not assumed by the commands after it, so one model can falsify several
    candidates of one path (see ``vcgen.inference.houdini``); nor is a race check, so
    candidates are proved over racy executions too (a superset: still sound, rarely less
    precise) and the solver need not reason about the values of benign-write checks,
    which made Houdini on deep loop nests hang; nor is a loop invariant that is not a
    candidate (a user's or the tool's own, ``_is_loop_invariant``), checked at a loop's
    entry and back edges; every other assert is assumed once checked.  Raises ToolError
    on ill-typed or unsupported IL.

    Why the loop invariants: assumed at a back edge, the invariant over the state after
    the body is a constraint of every query of its loop's candidates (PolyBench heat-3d
    kernel0: a function-wide ``__read_implies(A, ...)`` of 20 disjuncts over a chain of 10
    logged reads; Houdini 121 -> 79 s at load 9, the same 98 of 210 candidates kept).
    Sound, as for race checks: the final check asserts every invariant again, and a
    candidate proved without an assumption is proved with it.  No less precise on a
    kernel that verifies: there the final check proves each such invariant from the
    kept candidates, hence from every superset of them (each Houdini round's alive set),
    so every model of a Houdini query satisfies it already and the drops are the same."""
    started = time.perf_counter()
    ctx = ctx or z3.Context()
    tr = Translator(program, ctx, math_int)
    for name, t in passive.types.items():
        tr.declare(name, t)
    guard_decls = existential_consts(program)
    pinned = fixed_constants(program)
    try:
        for name, lit in pinned_by_requires(program.kernel()).items():
            pinned.setdefault(name, lit)
    except ValueError:  # no single kernel: nothing is assumed at an entry
        pass
    for name, lit in pinned.items():
        tr.consts[name] = tr.term(lit)
    constraints = []
    inliner = DefinitionInliner(tr)
    for d in program.decls:
        if isinstance(d, il.AxiomDecl):
            constraints.append(tr.term(d.expr))
    splitter = LogCaseSplitter(tr, {d.name for d in program.globals()},
                               CaseRefuter(ctx, list(constraints), set(program.consts())))
    checks: list = []
    ends: dict = {}
    preds: dict = {b.label: [] for b in passive.blocks}
    for b in passive.blocks:
        for s in b.succs:
            preds[s].append(b.label)
    returns = []
    blocks: list = []
    definitions: dict = {}  # VC.definitions
    order = {b.label: i for i, b in enumerate(passive.blocks)}
    returns_names: list = []
    case_paths: dict = {}  # VC.cases

    def define(name: str, term, reads: tuple) -> None:
        definitions[name] = (len(constraints), reads)
        constraints.append(term)

    for i, b in enumerate(passive.blocks):
        reach = tr.bool_const(f"reach_{i}")
        first = len(constraints)
        if i == 0:
            constraints.append(reach)
        else:
            define(f"reach_{i}", _eq(reach, _any([ends[p] for p in preds[b.label]], ctx)),
                   tuple(f"end_{order[p]}" for p in preds[b.label]))
        cond, pending = reach, []  # path condition = cond && pending (kept flat)
        cond_name = f"reach_{i}"  # the named Boolean ``cond`` reads
        facts: list = []
        for c in b.cmds:
            if isinstance(c, il.Assume):
                if not inliner.inline(c):
                    term = tr.term(c.expr)
                    # a lemma on a log (vcgen.twothread.products.RemainderLemmas): split over
                    # the log's updates like an invariant, an equivalent form
                    if il.has_attr(c.attrs, "log_lemma"):
                        split = splitter.split_invariant(c.expr, term)
                        term = term if split is None else split
                    pending.append(term)
                    if c.expr != il.TRUE:  # markers (``assume {:cut_point} true``)
                        facts.append(Fact(pending[-1], c.expr))
                    splitter.record(c)
                continue
            e = tr.term(c.expr)
            path = _and(cond, *pending) if pending else cond
            k = len(checks)
            split = splitter.split_invariant(c.expr, e) if _is_loop_invariant(c) \
                else splitter.split(c.expr, e)
            if split is None and _is_loop_invariant(c):
                paths = splitter.case_paths(c.expr, e)
                if paths is not None:
                    case_paths[k] = paths
            reads: tuple = (cond_name,)
            if split is not None:  # named: the tree is shared by fail_k and ok_k
                holds = tr.bool_const(f"holds_{k}")
                define(f"holds_{k}", _eq(holds, split), ())
                e = holds
                reads += (f"holds_{k}",)
            fail = tr.bool_const(f"fail_{k}")
            define(f"fail_{k}", _eq(fail, _and(path, _not(e))), reads)
            chk = Check(k, f"fail_{k}", fail, tr.bool_const(f"en_{k}"), c)
            cg = candidate_guard(c.expr, guard_decls)
            cand = il.attr(c.attrs, "candidate")
            if cand is not None:
                if cg is None:
                    raise _err(f"candidate {cand.args} in block {b.label} is not of the form "
                               "_bK ==> e with an {:existential true} constant _bK")
                chk.guard = cg[0]
                chk.rule = str(cand.args[0]) if cand.args else "?"
            checks.append(chk)
            if independent_candidates and (chk.is_candidate or il.has_attr(c.attrs, "race")
                                           or _is_loop_invariant(c)):
                cond, pending = path, []
                continue
            nxt = tr.bool_const(f"ok_{k}")  # assert-then-assume; named to keep terms shallow
            define(f"ok_{k}", _eq(nxt, _and(path, e)), reads)
            if not chk.is_vacuity:
                facts.append(Fact(split if split is not None else e, c.expr))
            cond, pending, cond_name = nxt, [], f"ok_{k}"
        end = tr.bool_const(f"end_{i}")
        define(f"end_{i}", _eq(end, _and(cond, *pending) if pending else cond), (cond_name,))
        ends[b.label] = end
        blocks.append(BlockEncoding(b.label, reach, first, len(constraints), facts))
        if b.is_return:
            returns.append(end)
            returns_names.append(f"end_{i}")
    if not any(c.is_vacuity for c in checks):
        k = len(checks)
        fail = tr.bool_const(f"fail_{k}")
        define(f"fail_{k}", _eq(fail, _any(returns, ctx)), tuple(returns_names))
        checks.append(Check(k, f"fail_{k}", fail, tr.bool_const(f"en_{k}"), None))
    guards = {n: tr.const(n) for n in guard_decls}
    goal = _any([_and(c.enable, c.fail) for c in checks], ctx)
    symbolic = any(il.has_attr(p.attrs, "kernel") and il.has_attr(p.attrs, "symbolic_launch")
                   for p in program.procedures())
    return VC(ctx, tr, passive, constraints, goal, checks, guards, math_int, blocks,
              seconds=time.perf_counter() - started, definitions=definitions, symbolic_launch=symbolic,
              cases=case_paths)
