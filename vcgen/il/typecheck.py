"""Type checking of IL programs (the Boogie 2 subset of ``docs/IL.md``).

``typecheck(p)`` checks a whole program in one linear pass and raises ``ILTypeError``
naming the declaration, procedure, block and command at fault.  ``expr_type(e, env)``
gives the type of one expression (used by later stages, e.g. the lock-step transformer).

Typing rules (Boogie 2): ``&& || ==> <==> !`` on bool; ``+ - * div mod`` and unary ``-``
on int; ``< <= > >=`` on int; ``== !=`` on two operands of the same type; bit-vector
arithmetic only through functions (``{:bvbuiltin}``), whose argument types must match the
declared parameter types exactly (so bv width mismatches are caught); ``a ++ b`` of
``bvM``/``bvN`` is ``bv(M+N)``; ``e[hi:lo]`` needs ``0 <= lo < hi <= width`` and is
``bv(hi-lo)``; maps ``[D]R`` are indexed by ``D`` and hold ``R``.  Type synonyms
(``type T = bv32;``) are expanded before comparing; opaque types (``type T;``) compare
by name.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from . import ast as il
from .printer import cmd_str, expr_str, type_str


class ILTypeError(ValueError):
    """An ill-typed or ill-formed IL program; the message names where."""


def _short(s: str, n: int = 120) -> str:
    return s if len(s) <= n else s[: n - 3] + "..."


# ------------------------------------------------------------------ environments


@dataclass
class TypeEnv:
    """Names in scope.

    ``vars``: variable/constant name -> (synonym-expanded) type; ``functions``: name ->
    ``FunctionDecl``; ``synonyms``: type-synonym name -> its expansion; ``mutable``: the
    assignable names (global vars, procedure outs and locals); ``procedures``: name ->
    ``ProcedureDecl``; ``opaque``: names of opaque types (``type T;``).
    """
    vars: dict = field(default_factory=dict)
    functions: dict = field(default_factory=dict)
    synonyms: dict = field(default_factory=dict)
    mutable: set = field(default_factory=set)
    procedures: dict = field(default_factory=dict)
    opaque: set = field(default_factory=set)

    def resolve(self, t: il.Type) -> il.Type:
        """``t`` with every type synonym expanded."""
        return _resolve(t, self.synonyms)

    def extended(self, names, mutable: bool) -> "TypeEnv":
        """A copy with ``names`` (iterable of (name, Type)) added (shadowing)."""
        vs = dict(self.vars)
        mut = set(self.mutable)
        for n, t in names:
            vs[n] = self.resolve(t)
            (mut.add if mutable else mut.discard)(n)
        return TypeEnv(vs, self.functions, self.synonyms, mut, self.procedures, self.opaque)


def _resolve(t: il.Type, syn: dict, seen: frozenset = frozenset()) -> il.Type:
    if isinstance(t, il.NamedType) and t.name in syn:
        if t.name in seen:
            raise ILTypeError(f"type synonym {t.name} is cyclic")
        return _resolve(syn[t.name], syn, seen | {t.name})
    if isinstance(t, il.MapType):
        return il.MapType(_resolve(t.domain, syn, seen), _resolve(t.range, syn, seen))
    return t


def program_env(p: il.Program, proc: il.ProcedureDecl | None = None) -> TypeEnv:
    """The global environment of ``p`` (consts, global vars, functions, type synonyms,
    procedures), extended with ``proc``'s parameters, outs and locals if given.

    Raises ILTypeError on duplicate global names, cyclic synonyms or undeclared types.
    """
    env = TypeEnv()
    opaque = env.opaque
    for d in p.decls:
        if isinstance(d, il.TypeDecl):
            if d.name in env.synonyms or d.name in opaque:
                raise ILTypeError(f"type {d.name} declared twice")
            if d.synonym is None:
                opaque.add(d.name)
            else:
                env.synonyms[d.name] = d.synonym
    for name in env.synonyms:
        _check_type_declared(env.resolve(il.NamedType(name)), opaque, f"type {name}")

    def declare(name: str, t: il.Type, what: str, mutable: bool) -> None:
        if name in env.vars or name in env.functions:
            raise ILTypeError(f"{what} {name}: name declared twice")
        _check_type_declared(env.resolve(t), opaque, f"{what} {name}")
        env.vars[name] = env.resolve(t)
        if mutable:
            env.mutable.add(name)

    for d in p.decls:
        if isinstance(d, il.ConstDecl):
            declare(d.name, d.type, "constant", False)
        elif isinstance(d, il.VarDecl):
            declare(d.name, d.type, "variable", True)
        elif isinstance(d, il.FunctionDecl):
            if d.name in env.vars or d.name in env.functions:
                raise ILTypeError(f"function {d.name}: name declared twice")
            for _, t in d.params:
                _check_type_declared(env.resolve(t), opaque, f"function {d.name}")
            _check_type_declared(env.resolve(d.ret), opaque, f"function {d.name}")
            env.functions[d.name] = d
        elif isinstance(d, il.ProcedureDecl):
            if d.name in env.procedures:
                raise ILTypeError(f"procedure {d.name}: declared twice")
            env.procedures[d.name] = d
    if proc is not None:
        env = procedure_env(env, proc)
    return env


def _check_type_declared(t: il.Type, opaque: set, where: str) -> None:
    if isinstance(t, il.NamedType) and t.name not in opaque:
        raise ILTypeError(f"{where}: undeclared type {t.name}")
    if isinstance(t, il.MapType):
        _check_type_declared(t.domain, opaque, where)
        _check_type_declared(t.range, opaque, where)


def procedure_env(env: TypeEnv, proc: il.ProcedureDecl) -> TypeEnv:
    """``env`` extended with ``proc``'s parameters (immutable), outs and locals (mutable).

    Raises ILTypeError on duplicate or ill-typed declarations."""
    seen = set()
    for n, _ in (*proc.params, *proc.outs, *((v.name, v.type) for v in proc.locals)):
        if n in seen:
            raise ILTypeError(f"procedure {proc.name}: {n} declared twice")
        seen.add(n)
    for n, t in (*proc.params, *proc.outs, *((v.name, v.type) for v in proc.locals)):
        _check_type_declared(env.resolve(t), env.opaque, f"procedure {proc.name}: {n}")
    out = env.extended(proc.params, mutable=False)
    out = out.extended(proc.outs, mutable=True)
    return out.extended(((v.name, v.type) for v in proc.locals), mutable=True)


# ------------------------------------------------------------------- expressions

_BOOL_OPS = {"<==>", "==>", "||", "&&"}
_ARITH_OPS = {"+", "-", "*", "div", "mod"}
_REL_OPS = {"<", "<=", ">", ">="}


def _tstr(t: il.Type) -> str:
    return type_str(t)


def _expect(actual: il.Type, expected: il.Type, what) -> None:
    if actual != expected:
        raise ILTypeError(f"{what() if callable(what) else what} has type {_tstr(actual)}, "
                          f"expected {_tstr(expected)}")


def expr_type(e: il.Expr, env: TypeEnv) -> il.Type:
    """The (synonym-expanded) type of ``e`` in ``env``.

    Raises ILTypeError (message names the offending sub-expression) if ``e`` is ill-typed
    or mentions an undeclared variable or function.
    """
    if isinstance(e, il.BvLit):
        return il.BvType(e.width)
    if isinstance(e, il.BoolLit):
        return il.BOOL
    if isinstance(e, il.IntLit):
        return il.INT
    if isinstance(e, il.Var):
        t = env.vars.get(e.name)
        if t is None:
            raise ILTypeError(f"undeclared name {e.name}")
        return t
    if isinstance(e, il.BinOp):
        return _binop_type(e, env)
    if isinstance(e, il.FunApp):
        return _funapp_type(e, env)
    if isinstance(e, il.MapSelect):
        mt = _map_type(e.map, env)
        _expect(expr_type(e.index, env), mt.domain, lambda: f"index {_short(expr_str(e.index))}")
        return mt.range
    if isinstance(e, il.MapStore):
        mt = _map_type(e.map, env)
        _expect(expr_type(e.index, env), mt.domain, lambda: f"index {_short(expr_str(e.index))}")
        _expect(expr_type(e.value, env), mt.range,
                lambda: f"stored value {_short(expr_str(e.value))}")
        return mt
    if isinstance(e, il.UnOp):
        want = il.BOOL if e.op == "!" else il.INT
        if e.op not in ("!", "-"):
            raise ILTypeError(f"unknown unary operator {e.op}")
        _expect(expr_type(e.operand, env), want, lambda: f"operand of {e.op}")
        return want
    if isinstance(e, il.IfThenElse):
        _expect(expr_type(e.cond, env), il.BOOL,
                lambda: f"if-then-else condition {_short(expr_str(e.cond))}")
        t = expr_type(e.then, env)
        _expect(expr_type(e.els, env), t, "else branch of if-then-else")
        return t
    if isinstance(e, il.BvConcat):
        return _concat_type(e, env)
    if isinstance(e, il.BvExtract):
        t = expr_type(e.operand, env)
        if not isinstance(t, il.BvType):
            raise ILTypeError(f"extraction from {_short(expr_str(e.operand))} of type {_tstr(t)}")
        if not 0 <= e.lo < e.hi <= t.width:
            raise ILTypeError(f"extraction [{e.hi}:{e.lo}] out of range for bv{t.width}")
        return il.BvType(e.hi - e.lo)
    if isinstance(e, il.Quantifier):
        inner = env.extended(e.vars, mutable=False)
        _expect(expr_type(e.body, inner), il.BOOL, "quantifier body")
        return il.BOOL
    if isinstance(e, il.Old):
        return expr_type(e.operand, env)
    raise ILTypeError(f"not an expression: {e!r}")


def _binop_type(e: il.BinOp, env: TypeEnv) -> il.Type:
    # walk left spines iteratively: and_all/or_all build long left-nested chains
    spine = []
    x: il.Expr = e
    while isinstance(x, il.BinOp):
        spine.append(x)
        x = x.left
    lt = expr_type(x, env)
    for b in reversed(spine):
        rt = expr_type(b.right, env)
        lt = _binop_result(b, lt, rt)
    return lt


def _binop_result(b: il.BinOp, lt: il.Type, rt: il.Type) -> il.Type:
    def where(side):
        return lambda: f"{side} operand of {b.op} in {_short(expr_str(b), 80)}"
    if b.op in _BOOL_OPS:
        _expect(lt, il.BOOL, where("left"))
        _expect(rt, il.BOOL, where("right"))
        return il.BOOL
    if b.op in ("==", "!="):
        _expect(rt, lt, where("right"))
        return il.BOOL
    if b.op in _ARITH_OPS or b.op in _REL_OPS:
        _expect(lt, il.INT, where("left"))
        _expect(rt, il.INT, where("right"))
        return il.INT if b.op in _ARITH_OPS else il.BOOL
    raise ILTypeError(f"unknown binary operator {b.op}")


def _concat_type(e: il.BvConcat, env: TypeEnv) -> il.Type:
    width = 0
    x: il.Expr = e
    rights = []
    while isinstance(x, il.BvConcat):
        rights.append(x.right)
        x = x.left
    for part in (x, *rights):
        t = expr_type(part, env)
        if not isinstance(t, il.BvType):
            raise ILTypeError(f"operand {_short(expr_str(part))} of ++ has type {_tstr(t)}")
        width += t.width
    return il.BvType(width)


def _funapp_type(e: il.FunApp, env: TypeEnv) -> il.Type:
    f = env.functions.get(e.name)
    if f is None:
        raise ILTypeError(f"undeclared function {e.name}")
    if len(e.args) != len(f.params):
        raise ILTypeError(f"{e.name} expects {len(f.params)} arguments, got {len(e.args)}")
    for i, (a, (_, pt)) in enumerate(zip(e.args, f.params), 1):
        _expect(expr_type(a, env), env.resolve(pt),
                lambda: f"argument {i} of {e.name} ({_short(expr_str(a), 60)})")
    return env.resolve(f.ret)


def _map_type(m: il.Expr, env: TypeEnv) -> il.MapType:
    t = expr_type(m, env)
    if not isinstance(t, il.MapType):
        raise ILTypeError(f"{_short(expr_str(m))} of type {_tstr(t)} is indexed but is not a map")
    return t


# ---------------------------------------------------------------------- programs


def typecheck(p: il.Program) -> None:
    """Check ``p``; raises ILTypeError whose message starts with where the error is
    (``axiom N``, ``function F``, ``procedure P``, ``procedure P, block L, command C``)."""
    env = program_env(p)
    axiom_no = 0
    for d in p.decls:
        if isinstance(d, il.AxiomDecl):
            axiom_no += 1
            _in(lambda: f"axiom {axiom_no} ({_short(expr_str(d.expr), 60)})",
                lambda: _expect(expr_type(d.expr, env), il.BOOL, "axiom"))
        elif isinstance(d, il.FunctionDecl) and d.body is not None:
            _in(f"function {d.name}", lambda: _check_function_body(d, env))
        elif isinstance(d, il.ProcedureDecl):
            _check_procedure(d, env)


def _in(where: str | Callable[[], str], check: Callable[[], None]) -> None:
    """Run ``check``; an ILTypeError it raises gets ``where`` in front of its message.
    ``where`` may be a function giving the text: printing every command and expression
    for a message almost never shown took 40% of a large program's check (heartwall:
    17 000 commands, 1.6 of 3.9 s).  Both run before ``_in`` returns: they may close over
    the caller's loop variables."""
    try:
        check()
    except ILTypeError as err:
        place = where if isinstance(where, str) else where()
        raise ILTypeError(f"{place}: {err}") from None


def _check_function_body(f: il.FunctionDecl, env: TypeEnv) -> None:
    assert f.body is not None  # typecheck only checks functions with bodies
    inner = env.extended(((n, t) for n, t in f.params if n), mutable=False)
    _expect(expr_type(f.body, inner), env.resolve(f.ret), "function body")


def _check_procedure(proc: il.ProcedureDecl, genv: TypeEnv) -> None:
    where = f"procedure {proc.name}"
    env = genv  # until build() gives the procedure's own

    def build() -> None:
        nonlocal env
        env = procedure_env(genv, proc)
        for m in proc.modifies:
            if m not in genv.mutable:
                raise ILTypeError(f"modifies {m}, which is not a global variable")
    _in(where, build)
    for s in proc.specs:
        _in(lambda: f"{where}, {s.kind} {_short(expr_str(s.expr), 60)}",
            lambda: _expect(expr_type(s.expr, env), il.BOOL, s.kind))
    if proc.blocks is None:
        return
    labels = set()
    for b in proc.blocks:
        if b.label in labels:
            raise ILTypeError(f"{where}: duplicate label {b.label}")
        labels.add(b.label)
    for b in proc.blocks:
        for c in b.cmds:
            _in(lambda: f"{where}, block {b.label}, command `{_short(cmd_str(c), 100)}`",
                lambda: _check_cmd(c, env))
        if isinstance(b.transfer, il.Goto):
            if not b.transfer.targets:
                raise ILTypeError(f"{where}, block {b.label}: goto without targets")
            for t in b.transfer.targets:
                if t not in labels:
                    raise ILTypeError(f"{where}, block {b.label}: goto to unknown label {t}")


def _assignable(name: str, env: TypeEnv) -> il.Type:
    if name not in env.vars:
        raise ILTypeError(f"undeclared name {name}")
    if name not in env.mutable:
        raise ILTypeError(f"{name} is a constant or an in-parameter and cannot be assigned")
    return env.vars[name]


def _check_cmd(c: il.Cmd, env: TypeEnv) -> None:
    if isinstance(c, il.Assign):
        if len(c.lhss) != len(c.rhss) or not c.lhss:
            raise ILTypeError(f"{len(c.lhss)} targets but {len(c.rhss)} values")
        names = [l.name for l in c.lhss]
        if len(set(names)) != len(names):
            raise ILTypeError("a variable is assigned twice in one parallel assignment")
        for l, r in zip(c.lhss, c.rhss):
            t = _assignable(l.name, env)
            if isinstance(l, il.MapLhs):
                if not isinstance(t, il.MapType):
                    raise ILTypeError(f"{l.name} of type {_tstr(t)} is indexed but is not a map")
                _expect(expr_type(l.index, env), t.domain, f"index of {l.name}")
                t = t.range
            _expect(expr_type(r, env), t, lambda: f"value {_short(expr_str(r), 60)} for {l.name}")
    elif isinstance(c, (il.Assume, il.Assert)):
        _expect(expr_type(c.expr, env), il.BOOL, "condition")
    elif isinstance(c, il.Havoc):
        for n in c.vars:
            _assignable(n, env)
    elif isinstance(c, il.Call):
        _check_call(c, env)
    else:
        raise ILTypeError(f"not a command: {c!r}")


def _check_call(c: il.Call, env: TypeEnv) -> None:
    proc = env.procedures.get(c.proc)
    if proc is None:
        raise ILTypeError(f"call to undeclared procedure {c.proc}")
    if len(c.args) != len(proc.params):
        raise ILTypeError(f"{c.proc} expects {len(proc.params)} arguments, got {len(c.args)}")
    if len(c.outs) != len(proc.outs):
        raise ILTypeError(f"{c.proc} returns {len(proc.outs)} values, {len(c.outs)} targets given")
    for i, (a, (_, t)) in enumerate(zip(c.args, proc.params), 1):
        _expect(expr_type(a, env), env.resolve(t), f"argument {i} of {c.proc}")
    for o, (_, t) in zip(c.outs, proc.outs):
        _expect(_assignable(o, env), env.resolve(t), f"result target {o}")
