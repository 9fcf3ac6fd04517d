"""IL expressions and procedures compiled to Python closures ``f(state, locals) -> value``
for the interpreter (``vcgen.interp.interpreter``): the run state, map-access events,
``old``, quantifiers over small domains, functions (``{:bvbuiltin}``, bodies, or a
pseudo-random function of the arguments)."""
from __future__ import annotations

import itertools
from typing import Any, Callable

from .. import il
from ..il.attributes import sourceloc
from ..il.printer import expr_str, type_str
from ..il.typecheck import ILTypeError, TypeEnv, expr_type, procedure_env
from .bvops import bv_builtin, euclid
from .trace import Event
from .values import MISSING, InterpError, key_hash, mix, name_hash, owned, value_from_hash

def _width(t: il.Type) -> int:
    """The width of a bit-vector type (the type checker has made sure it is one)."""
    assert isinstance(t, il.BvType)
    return t.width


class RunState:
    """Mutable run state: ``g`` global vars and constants; ``journal`` of undo records
    (dict, key, old value) kept while choice points exist."""
    __slots__ = ("g", "journal", "choices", "events", "failures", "frame", "old", "run_seed")

    def __init__(self, run_seed: int):
        self.g: dict = {}
        self.journal: list = []
        self.choices: list = []
        self.events: list = []
        self.failures: list = []
        self.frame: Frame | None = None
        self.old: dict = {}
        self.run_seed = run_seed

    def write(self, d: dict, key, value) -> None:
        if self.choices:
            self.journal.append((d, key, d.get(key, MISSING)))
        d[key] = value

    def undo_to(self, mark: int) -> None:
        j = self.journal
        while len(j) > mark:
            d, k, old = j.pop()
            if old is MISSING:
                d.pop(k, None)
            else:
                d[k] = old


class Compiler:
    """Turns expressions into closures ``f(state, locals) -> value``."""

    def __init__(self, program: il.Program, env: TypeEnv):
        self.env = env
        self.functions = env.functions
        self.tracked = {d.name for d in program.globals()
                        if isinstance(env.resolve(d.type), il.MapType)
                        and not il.has_attr(d.attrs, "constant")}
        self._fun_cache: dict = {}

    def expr(self, e: il.Expr, env: TypeEnv, local: frozenset, access: bool = False) -> Callable:
        """``local``: names looked up in the locals dict; ``access``: record map accesses."""
        c = lambda x: self.expr(x, env, local, access)
        if isinstance(e, (il.BvLit, il.IntLit, il.BoolLit)):
            v = e.value
            return lambda st, loc: v
        if isinstance(e, il.Var):
            n = e.name
            if n in local:
                return lambda st, loc: loc[n]
            return lambda st, loc: st.g[n]
        if isinstance(e, il.BinOp):
            return self._binop(e.op, c(e.left), c(e.right))
        if isinstance(e, il.UnOp):
            f = c(e.operand)
            if e.op == "!":
                return lambda st, loc: not f(st, loc)
            return lambda st, loc: -f(st, loc)
        if isinstance(e, il.FunApp):
            return self._funapp(e, [c(a) for a in e.args])
        if isinstance(e, il.MapSelect):
            fm, fi = c(e.map), c(e.index)
            if access and isinstance(e.map, il.Var) and e.map.name in self.tracked \
                    and e.map.name not in local:
                name = e.map.name

                def read(st, loc):
                    i = fi(st, loc)
                    v = fm(st, loc).get(i)
                    fr = st.frame
                    st.events.append(Event("read", fr.proc.name, fr.label(), fr.srcloc,
                                           name, i, v, pc=fr.pc - 1))
                    return v
                return read
            return lambda st, loc: fm(st, loc).get(fi(st, loc))
        if isinstance(e, il.MapStore):
            fm, fi, fv = c(e.map), c(e.index), c(e.value)
            return lambda st, loc: fm(st, loc).stored(fi(st, loc), owned(fv(st, loc)))
        if isinstance(e, il.IfThenElse):
            fc, ft, fe = c(e.cond), c(e.then), c(e.els)
            return lambda st, loc: ft(st, loc) if fc(st, loc) else fe(st, loc)
        if isinstance(e, il.BvConcat):
            wb = _width(expr_type(e.right, env))
            fa, fb = c(e.left), c(e.right)
            return lambda st, loc: (fa(st, loc) << wb) | fb(st, loc)
        if isinstance(e, il.BvExtract):
            f, lo, mk = c(e.operand), e.lo, (1 << (e.hi - e.lo)) - 1
            return lambda st, loc: (f(st, loc) >> lo) & mk
        if isinstance(e, il.Old):
            f = c(e.operand)
            return lambda st, loc: f(OldView(st), loc)
        if isinstance(e, il.Quantifier):
            return self._quantifier(e, env, local)
        raise InterpError(f"cannot evaluate {e!r}")

    @staticmethod
    def _binop(op: str, fa: Callable, fb: Callable) -> Callable:
        if op == "&&":
            return lambda st, loc: fa(st, loc) and fb(st, loc)
        if op == "||":
            return lambda st, loc: fa(st, loc) or fb(st, loc)
        if op == "==>":
            return lambda st, loc: (not fa(st, loc)) or fb(st, loc)
        if op == "<==>":
            return lambda st, loc: fa(st, loc) == fb(st, loc)
        if op == "==":
            return lambda st, loc: fa(st, loc) == fb(st, loc)
        if op == "!=":
            return lambda st, loc: fa(st, loc) != fb(st, loc)
        simple = {"<": int.__lt__, "<=": int.__le__, ">": int.__gt__, ">=": int.__ge__,
                  "+": int.__add__, "-": int.__sub__, "*": int.__mul__}
        if op in simple:
            f = simple[op]
            return lambda st, loc: f(fa(st, loc), fb(st, loc))
        if op in ("div", "mod"):
            k = 0 if op == "div" else 1

            def divmod_(st, loc):
                a, b = fa(st, loc), fb(st, loc)
                if b == 0:  # unspecified by SMT-LIB: an arbitrary function of a
                    return value_from_hash(il.INT, mix(st.run_seed, k, a))
                return euclid(a, b)[k]
            return divmod_
        raise InterpError(f"unknown operator {op}")

    def _funapp(self, e: il.FunApp, fargs: list) -> Callable:
        impl = self._function(e.name)
        n = len(fargs)
        if n == 1:
            f0 = fargs[0]
            return lambda st, loc: impl(st, f0(st, loc))
        if n == 2:
            f0, f1 = fargs
            return lambda st, loc: impl(st, f0(st, loc), f1(st, loc))
        return lambda st, loc: impl(st, *(f(st, loc) for f in fargs))

    def _function(self, name: str) -> Callable:
        """``impl(state, *args)`` for function ``name`` (cached)."""
        if name in self._fun_cache:
            if self._fun_cache[name] is None:
                raise InterpError(f"function {name} is recursive: not supported")
            return self._fun_cache[name]
        f = self.functions[name]
        if il.has_attr(f.attrs, "builtin"):
            raise InterpError(f"function {name}: {{:builtin}} functions are not supported")
        ret = self.env.resolve(f.ret)
        bvb = il.attr(f.attrs, "bvbuiltin")
        if bvb is not None:
            widths = [_width(self.env.resolve(t)) for _, t in f.params]
            op = bv_builtin(str(bvb.args[0]), widths, name)
            impl = lambda st, *args: op(*args)
        elif il.has_attr(f.attrs, "residue"):  # x urem s (vcgen.candidates.symbolic_stride)
            impl = _residue
        elif f.body is not None:
            names = [n for n, _ in f.params]
            fenv = self.env.extended(((n, t) for n, t in f.params if n), mutable=False)
            self._fun_cache[name] = None  # recursion guard for self-referential bodies
            body = self.expr(f.body, fenv, frozenset(names))
            impl = lambda st, *args: body(st, dict(zip(names, args)))
        else:
            fseed = name_hash(name)
            impl = lambda st, *args: value_from_hash(
                ret, mix(st.run_seed, fseed, *(key_hash(a) for a in args)))
        self._fun_cache[name] = impl
        return impl

    def _quantifier(self, e: il.Quantifier, env: TypeEnv, local: frozenset) -> Callable:
        domains: list[tuple[str, tuple[bool, ...] | range]] = []
        size = 1
        for n, t in e.vars:
            t = env.resolve(t)
            if isinstance(t, il.BoolType):
                domains.append((n, (False, True)))
                size *= 2
            elif isinstance(t, il.BvType) and t.width <= 16:
                domains.append((n, range(1 << t.width)))
                size <<= t.width
            else:
                raise InterpError(f"cannot evaluate a quantifier over {type_str(t)}: "
                                  f"{expr_str(e)[:100]}")
        if size > 1 << 16:
            raise InterpError(f"quantifier domain too large to enumerate: {expr_str(e)[:100]}")
        body = self.expr(e.body, env.extended(e.vars, mutable=False),
                         local | {n for n, _ in e.vars})
        want_all = e.kind == "forall"

        def quant(st, loc):
            names = [n for n, _ in domains]
            for vals in itertools.product(*(d for _, d in domains)):
                inner = dict(loc)
                inner.update(zip(names, vals))
                if bool(body(st, inner)) != want_all:
                    return not want_all
            return want_all
        return quant


class OldView:
    """A state whose globals are the current frame's entry snapshot (for ``old(e)``)."""
    __slots__ = ("g", "run_seed", "events", "frame")

    def __init__(self, st: RunState):
        self.g = st.frame.old if st.frame is not None and st.frame.old is not None else st.g
        self.run_seed = st.run_seed
        self.events: list[Event] = []  # reads under old() are not accesses
        self.frame = st.frame


# ----------------------------------------------------------------- procedures

ASSIGN, ASSUME, ASSERT, HAVOC, CALL = range(5)


class CompiledProc:
    """A procedure compiled for execution."""

    def __init__(self, proc: il.ProcedureDecl, comp: Compiler, genv: TypeEnv):
        self.decl = proc
        self.name = proc.name
        self.env = procedure_env(genv, proc)
        self.local_names = frozenset(n for n, _ in (*proc.params, *proc.outs)) | \
            frozenset(v.name for v in proc.locals)
        self.types = {n: self.env.vars[n] for n in self.local_names}
        x = lambda e, access=False: comp.expr(e, self.env, self.local_names, access)
        self.requires = [(s, x(s.expr)) for s in proc.specs if s.kind == "requires"]
        self.ensures = [(s, x(s.expr)) for s in proc.specs if s.kind == "ensures"]
        self.uses_old = any(isinstance(y, il.Old) for s in proc.specs for y in il.subexprs(s.expr))
        self.blocks = None
        if proc.blocks is not None:
            self.labels = {b.label: i for i, b in enumerate(proc.blocks)}
            self.blocks = [(b.label, [self._cmd(c, comp, x) for c in b.cmds], b.transfer)
                           for b in proc.blocks]
            # a block's leading `assume e` (side-effect free) evaluated before branching
            self.guards = {b.label: x(b.cmds[0].expr) if b.cmds and isinstance(b.cmds[0], il.Assume)
                           and b.cmds[0].expr != il.TRUE else None for b in proc.blocks}
            self.uses_old |= any(isinstance(y, il.Old) for b in proc.blocks for c in b.cmds
                                 for e in il.cmd_exprs(c) for y in il.subexprs(e))

    def body(self) -> list[tuple]:
        """The compiled blocks: (label, commands, transfer).  Only procedures with a body run."""
        assert self.blocks is not None
        return self.blocks

    def _cmd(self, c: il.Cmd, comp: Compiler, x) -> tuple:
        if isinstance(c, il.Assign):
            targets = []
            for l in c.lhss:
                idx = x(l.index, True) if isinstance(l, il.MapLhs) else None
                targets.append((l.name, l.name in self.local_names, idx,
                                isinstance(l, il.MapLhs) and l.name in comp.tracked
                                and l.name not in self.local_names))
            return (ASSIGN, c, targets, [x(r, True) for r in c.rhss])
        if isinstance(c, il.Assume):
            return (ASSUME, c, x(c.expr), sourceloc(c.attrs))
        if isinstance(c, il.Assert):
            return (ASSERT, c, x(c.expr), self._attr_fns(c.attrs, x))
        if isinstance(c, il.Havoc):
            return (HAVOC, c, [(n, n in self.local_names) for n in c.vars])
        if isinstance(c, il.Call):
            return (CALL, c, [x(a, True) for a in c.args],
                    [(o, o in self.local_names) for o in c.outs])
        raise InterpError(f"unknown command {c!r}")

    @staticmethod
    def _attr_fns(attrs: il.Attrs, x) -> list:
        out = []
        for a in attrs:
            fns: list[Any] = []
            for arg in a.args:
                if isinstance(arg, str):
                    fns.append(arg)
                else:
                    try:
                        fns.append(x(arg))
                    except (InterpError, ILTypeError, KeyError):
                        fns.append(None)
            out.append((a.name, fns))
        return out


class Frame:
    __slots__ = ("proc", "locals", "bi", "pc", "srcloc", "old", "call")

    def __init__(self, proc: CompiledProc, locals_: dict, old: dict | None, call):
        self.proc, self.locals, self.old, self.call = proc, locals_, old, call
        self.bi, self.pc, self.srcloc = 0, 0, None

    def label(self) -> str:
        return self.proc.blocks[self.bi][0] if self.proc.blocks else "<spec>"


def _residue(st: RunState, x: int, s: int) -> int:
    """``RESIDUEw(x, s)`` of ``{:residue}`` functions (``vcgen.candidates.symbolic_stride``):
    ``x urem s``, ``x`` when ``s`` is 0 (SMT-LIB ``bvurem``)."""
    return x % s if s else x
