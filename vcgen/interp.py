"""A concrete interpreter of IL programs (``vcgen run``; DYN refutation, paper 003 §5).

One run executes the entry procedure (the ``{:kernel}`` one) of a one-thread ``.gbpl``
(one thread) or of a two-thread ``.bpl`` (a pair of threads: the program itself is the
product) on concrete values, and records a trace.

Values: ``bool``; ``int`` for both ``int`` and ``bvW`` (unsigned, ``0 <= v < 2**W``);
``MapVal`` for maps (explicit entries over a deterministic pseudo-random default).

Semantics:
  * ``{:bvbuiltin "op"}`` functions follow SMT-LIB (``bvudiv x 0 = all ones``,
    ``bvurem x 0 = x``, ``bvsdiv``/``bvsrem``/``bvsmod`` defined via the unsigned ones,
    shifts by >= width give 0 / the sign fill);  functions with a body are evaluated;
    other functions (e.g. ``FADD32``) are a pseudo-random function of their arguments,
    fixed per run seed.  ``div``/``mod`` on ints are Euclidean (SMT-LIB); by zero they
    are uninterpreted (pseudo-random).
  * Constants, kernel parameters and global variables are inputs: the caller's values,
    else random values satisfying every ``axiom`` and the entry procedure's ``requires``
    (equalities ``x == e`` set ``x``; bounds such as ``BV32_ULT(x, e)`` restrict the
    random choice; up to ``max_tries`` draws, then ``InterpError``).
  * ``havoc`` and uninitialised locals/outs take random values (``havoc_policy`` may
    choose: ``policy(name, type, old_value, rng) -> value | None``, None = random; with
    ``havoc_view=True`` it is called with a fifth argument, a ``HavocView`` of the
    current state; ``local_init(name, type) -> value | None`` may give the entry
    procedure's uninitialised locals/outs their values).
  * ``goto A, B``: depth-first search with backtracking: a path whose ``assume`` fails is
    abandoned and the next target tried; ``InterpError`` after ``max_steps`` commands.
  * ``assert`` failing is recorded (``AssertFailure``) and execution continues (or stops
    with ``stop_on_failure``).  Non-free ``requires`` of callees and ``ensures`` of
    procedures with bodies are checked like asserts.
  * ``call`` of a procedure with a body executes it; a body-less procedure with
    ``{:barrier}`` is a ``barrier`` event; other body-less procedures havoc their outs and
    ``modifies`` and assume their ``ensures`` (retrying the havoc).
  * Events: every read/write of a global map variable (except ``{:constant}`` arrays) in
    an assignment or call argument, with the latest ``{:sourceloc}`` of the block and
    the position (``block``, ``pc``) of the command that made it;
    barriers; failed assertions.

Public API: ``Interpreter(program, consts=None, params=None, seed=0, havoc_policy=None,
stop_on_failure=False, max_steps=10**6, max_tries=1000, entry=None, havoc_view=False,
local_init=None).run() -> Run``;
``run_command`` (click) for ``vcgen run``.  Errors: ``InterpError`` (a ``ValueError``).
"""
from __future__ import annotations

import itertools
import json
import random
import zlib
from dataclasses import dataclass, field
from typing import Any, Callable

import click

from . import il
from .il.errors import ExitCode, ToolError
from .il.printer import expr_str, type_str
from .il.typecheck import ILTypeError, TypeEnv, expr_type, procedure_env, program_env, typecheck

M64 = (1 << 64) - 1
_MISSING = object()


class InterpError(ValueError):
    """The program cannot be run: unsatisfiable inputs, step bound, unsupported construct."""


class _Infeasible(Exception):
    """The current path violates an ``assume`` (internal: triggers backtracking)."""


# ------------------------------------------------------------------------ values


def _mix(*xs: int) -> int:
    """splitmix64-style hash of integers (deterministic across processes)."""
    h = 0x9E3779B97F4A7C15
    for x in xs:
        h = ((h ^ (x & M64) ^ ((x >> 64) & M64)) * 0xBF58476D1CE4E5B9) & M64
        h = ((h ^ (h >> 31)) * 0x94D049BB133111EB) & M64
        h ^= h >> 29
    return h


def _name_hash(s: str) -> int:
    return zlib.crc32(s.encode())


class MapVal:
    """A map value: ``entries`` (explicitly written cells) over a pseudo-random default
    determined by ``seed`` and the index; ``range`` is the (resolved) range type."""
    __slots__ = ("seed", "range", "entries")

    def __init__(self, seed: int, range_: il.Type, entries: dict | None = None):
        self.seed = seed
        self.range = range_
        self.entries = {} if entries is None else entries

    def get(self, key):
        v = self.entries.get(key, _MISSING)
        if v is _MISSING:
            return value_from_hash(self.range, _mix(self.seed, _key_hash(key)))
        return v

    def stored(self, key, value) -> "MapVal":
        m = MapVal(self.seed, self.range, dict(self.entries))
        m.entries[key] = value
        return m

    def copy(self) -> "MapVal":
        return MapVal(self.seed, self.range, {k: _owned(v) for k, v in self.entries.items()})

    def __eq__(self, other) -> bool:
        if not isinstance(other, MapVal):
            return NotImplemented
        if self.seed != other.seed:
            # pseudo-random defaults over an unbounded domain differ somewhere
            return False
        keys = self.entries.keys() | other.entries.keys()
        return all(self.get(k) == other.get(k) for k in keys)

    def __hash__(self) -> int:
        return _key_hash(self)

    def fingerprint(self) -> int:
        h = self.seed
        for k in sorted(self.entries, key=_key_hash):
            v = self.entries[k]
            if v != value_from_hash(self.range, _mix(self.seed, _key_hash(k))):
                h = _mix(h, _key_hash(k), _key_hash(v))
        return h

    def __repr__(self) -> str:
        return f"MapVal(seed={self.seed:#x}, {self.entries})"


def _key_hash(v) -> int:
    if isinstance(v, MapVal):
        return v.fingerprint()
    return int(v)


def _owned(v):
    return v.copy() if isinstance(v, MapVal) else v


def _signed(v: int, w: int) -> int:
    return v - (1 << w) if v >> (w - 1) & 1 else v


def value_from_hash(t: il.Type, h: int):
    """A value of type ``t`` chosen by the 64-bit hash ``h``, biased towards small and
    boundary values (so random inputs often satisfy preconditions and loop bounds)."""
    c, r = h % 100, h >> 7
    if isinstance(t, il.BoolType):
        return bool(h & 1)
    if isinstance(t, il.BvType):
        m = (1 << t.width) - 1
        if c < 45:
            return (r % 17) & m
        if c < 60:
            return (0, 1, m, (m + 1) >> 1, m >> 1)[r % 5]
        return r & m
    if isinstance(t, il.IntType):
        if c < 50:
            return r % 33 - 16
        if c < 60:
            return (0, 1, -1, 2**31 - 1, -2**31)[r % 5]
        return r % 2**32 - 2**31
    if isinstance(t, il.MapType):
        return MapVal(_mix(h, 0x5EED), t.range)
    return r % 1024  # opaque type: an arbitrary element


def random_value(t: il.Type, rng: random.Random):
    """A random value of type ``t`` (same bias as ``value_from_hash``)."""
    return value_from_hash(t, rng.getrandbits(64))


def _coerce(v, t: il.Type, name: str):
    """A caller-given value for ``name`` of type ``t``: bool, int (masked to bv width), or
    for maps a dict of cells (the rest pseudo-random)."""
    if isinstance(t, il.BoolType):
        if isinstance(v, bool):
            return v
        if v in (0, 1):
            return bool(v)
    elif isinstance(t, il.BvType):
        if isinstance(v, int) and not isinstance(v, bool) and -(1 << t.width) < v < (1 << t.width):
            return v & ((1 << t.width) - 1)
    elif isinstance(t, (il.IntType, il.NamedType)):
        if isinstance(v, int) and not isinstance(v, bool):
            return v
    elif isinstance(t, il.MapType):
        if isinstance(v, MapVal):
            return v.copy()
        if isinstance(v, dict):
            m = MapVal(_mix(_name_hash(name), 0xD1C7), t.range)
            for k, x in v.items():
                m.entries[_coerce(k, t.domain, name)] = _coerce(x, t.range, name)
            return m
    raise InterpError(f"value {v!r} given for {name} does not fit its type {type_str(t)}")


def format_value(v) -> str:
    """Readable text of a value (bv and int in decimal)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, MapVal):
        cells = ", ".join(f"{format_value(k)}: {format_value(x)}"
                          for k, x in sorted(v.entries.items(), key=lambda kv: _key_hash(kv[0])))
        return "{" + cells + "} (other cells arbitrary)"
    return str(v)


def json_value(v):
    """JSON-compatible form of a value; maps are ``{"cells": {"index": value}}``."""
    if isinstance(v, MapVal):
        return {"cells": {str(_key_hash(k)): json_value(x) for k, x in v.entries.items()}}
    return v


# ----------------------------------------------------------------- bv builtins


def _sdiv(a, b, w, m):
    sa, sb = a >> (w - 1), b >> (w - 1)
    udiv = lambda x, y: m if y == 0 else x // y
    if not sa and not sb:
        return udiv(a, b)
    if sa and not sb:
        return -udiv(-a & m, b) & m
    if not sa and sb:
        return -udiv(a, -b & m) & m
    return udiv(-a & m, -b & m)


def _srem(a, b, w, m):
    sa, sb = a >> (w - 1), b >> (w - 1)
    urem = lambda x, y: x if y == 0 else x % y
    if not sa and not sb:
        return urem(a, b)
    if sa and not sb:
        return -urem(-a & m, b) & m
    if not sa and sb:
        return urem(a, -b & m)
    return -urem(-a & m, -b & m) & m


def _smod(a, b, w, m):
    sa, sb = a >> (w - 1), b >> (w - 1)
    abs_a, abs_b = (-a & m) if sa else a, (-b & m) if sb else b
    u = abs_a if abs_b == 0 else abs_a % abs_b
    if u == 0 or (not sa and not sb):
        return u
    if sa and not sb:
        return (-u + b) & m
    if not sa and sb:
        return (u + b) & m
    return -u & m


def _bv_builtin(spec: str, widths: list, fname: str) -> Callable:
    """The Python function of SMT-LIB operation ``spec`` (e.g. ``"bvadd"``,
    ``"zero_extend 24"``, ``"extract 7 0"``) on arguments of bit widths ``widths``."""
    parts = spec.replace("(", " ").replace(")", " ").replace("_ ", " ").split()
    if not parts or not widths:
        raise InterpError(f"function {fname}: unsupported bvbuiltin {spec!r}")
    op, nums = parts[0], [int(x) for x in parts[1:] if x.isdigit()]
    w = widths[0]
    m = (1 << w) - 1
    s = lambda v: _signed(v, w)
    binary = {
        "bvadd": lambda a, b: (a + b) & m,
        "bvsub": lambda a, b: (a - b) & m,
        "bvmul": lambda a, b: (a * b) & m,
        "bvudiv": lambda a, b: m if b == 0 else a // b,
        "bvurem": lambda a, b: a if b == 0 else a % b,
        "bvsdiv": lambda a, b: _sdiv(a, b, w, m),
        "bvsrem": lambda a, b: _srem(a, b, w, m),
        "bvsmod": lambda a, b: _smod(a, b, w, m),
        "bvand": lambda a, b: a & b,
        "bvor": lambda a, b: a | b,
        "bvxor": lambda a, b: a ^ b,
        "bvnand": lambda a, b: ~(a & b) & m,
        "bvnor": lambda a, b: ~(a | b) & m,
        "bvxnor": lambda a, b: ~(a ^ b) & m,
        "bvshl": lambda a, b: 0 if b >= w else (a << b) & m,
        "bvlshr": lambda a, b: 0 if b >= w else a >> b,
        "bvashr": lambda a, b: (s(a) >> min(b, w)) & m,
        "bvcomp": lambda a, b: int(a == b),
        "bvult": lambda a, b: a < b,
        "bvule": lambda a, b: a <= b,
        "bvugt": lambda a, b: a > b,
        "bvuge": lambda a, b: a >= b,
        "bvslt": lambda a, b: s(a) < s(b),
        "bvsle": lambda a, b: s(a) <= s(b),
        "bvsgt": lambda a, b: s(a) > s(b),
        "bvsge": lambda a, b: s(a) >= s(b),
    }
    if op in binary and len(widths) == 2:
        return binary[op]
    if op == "concat" and len(widths) == 2:
        wb = widths[1]
        return lambda a, b: (a << wb) | b
    if len(widths) != 1:
        raise InterpError(f"function {fname}: unsupported bvbuiltin {spec!r} with {len(widths)} arguments")
    if op == "bvnot":
        return lambda a: ~a & m
    if op == "bvneg":
        return lambda a: -a & m
    if op == "zero_extend" and len(nums) == 1:
        return lambda a: a
    if op == "sign_extend" and len(nums) == 1:
        mk = (1 << (w + nums[0])) - 1
        return lambda a: s(a) & mk
    if op == "extract" and len(nums) == 2:
        hi, lo = nums
        mk = (1 << (hi - lo + 1)) - 1
        return lambda a: (a >> lo) & mk
    if op in ("rotate_left", "rotate_right") and len(nums) == 1:
        k = nums[0] % w if op == "rotate_left" else (w - nums[0] % w) % w
        return lambda a: ((a << k) | (a >> (w - k))) & m
    if op == "repeat" and len(nums) == 1:
        n = nums[0]
        return lambda a: sum(a << (w * i) for i in range(n))
    raise InterpError(f"function {fname}: unsupported bvbuiltin {spec!r}")


def _euclid(a: int, b: int) -> tuple:
    r = a % abs(b)
    return (a - r) // b, r


# ------------------------------------------------------------------- trace data


@dataclass
class Event:
    """One trace event.

    ``kind``: ``"read"`` / ``"write"`` (``map``, ``index``, ``value``, ``pc`` set), ``"barrier"``
    (``args``: the barrier's argument values), ``"assert"`` (a failed assertion; ``failure``
    set).  ``sourceloc``: ``(file, line, column)`` of the latest marker, or None.
    """
    kind: str
    proc: str
    block: str
    sourceloc: tuple | None = None
    map: str | None = None
    index: Any = None
    value: Any = None
    args: tuple = ()
    failure: "AssertFailure | None" = None
    pc: int | None = None  # index of the command in its block (read/write events)

    def to_json(self) -> dict:
        d = {"kind": self.kind, "proc": self.proc, "block": self.block,
             "sourceloc": list(self.sourceloc) if self.sourceloc else None}
        if self.kind in ("read", "write"):
            d.update(map=self.map, index=json_value(self.index), value=json_value(self.value))
        elif self.kind == "barrier":
            d["args"] = [json_value(a) for a in self.args]
        elif self.failure is not None:
            d["assertion"] = self.failure.to_json()
        return d

    def __str__(self) -> str:
        at = f" at {':'.join(map(str, self.sourceloc))}" if self.sourceloc else ""
        where = f"  [{self.proc}/{self.block}]"
        if self.kind == "read":
            return f"read    {self.map}[{format_value(self.index)}] -> {format_value(self.value)}{at}{where}"
        if self.kind == "write":
            return f"write   {self.map}[{format_value(self.index)}] := {format_value(self.value)}{at}{where}"
        if self.kind == "barrier":
            return f"barrier ({', '.join(format_value(a) for a in self.args)}){at}{where}"
        return f"assertion failed{at}: {self.failure}{where}"


@dataclass
class AssertFailure:
    """A failed ``assert`` (or checked ``requires``/``ensures``: ``kind``).

    ``attrs``: the command's attributes (``il.Attr``); ``attr_values``: attribute name ->
    list of argument values (strings as written, expressions evaluated, None if they
    cannot be evaluated); ``expr``: the asserted expression as IL text.
    """
    kind: str  # "assert" | "requires" | "ensures"
    proc: str
    block: str
    expr: str
    attrs: tuple
    attr_values: dict
    sourceloc: tuple | None

    def to_json(self) -> dict:
        return {"kind": self.kind, "proc": self.proc, "block": self.block, "expr": self.expr,
                "attrs": {k: [json_value(x) for x in v] for k, v in self.attr_values.items()},
                "sourceloc": list(self.sourceloc) if self.sourceloc else None}

    def __str__(self) -> str:
        show = lambda x: json.dumps(x) if isinstance(x, str) else "?" if x is None \
            else format_value(x)
        attrs = " ".join("{:" + k + (" " + ", ".join(map(show, v)) if v else "") + "}"
                         for k, v in self.attr_values.items())
        return f"{self.kind} {attrs + ' ' if attrs else ''}{self.expr}"


@dataclass(frozen=True)
class HavocView:
    """The state at a ``havoc`` (the fifth argument of ``havoc_policy`` when
    ``havoc_view=True``).  Read only: ``globals`` maps constants and global variables to
    their current values, ``locals`` the current frame's variables; ``proc``/``block``
    name the havoc's position; ``events`` is the trace of the current path so far."""
    globals: dict
    locals: dict
    proc: str
    block: str
    events: list


@dataclass
class Run:
    """Result of one run.  ``feasible`` is False when every path violates an ``assume``
    (then the trace and finals are empty).  ``stopped`` is True when execution stopped at
    a failed assertion (``stop_on_failure``).  Values are as described in the module doc;
    ``consts``/``params`` are the inputs used, ``initial_globals`` the initial values of
    global variables, ``final_locals`` the entry procedure's locals/params/outs at exit."""
    feasible: bool
    events: list = field(default_factory=list)
    assert_failures: list = field(default_factory=list)
    final_globals: dict = field(default_factory=dict)
    final_locals: dict = field(default_factory=dict)
    consts: dict = field(default_factory=dict)
    params: dict = field(default_factory=dict)
    initial_globals: dict = field(default_factory=dict)
    steps: int = 0
    stopped: bool = False

    def to_json(self) -> dict:
        scal = lambda d: {k: json_value(v) for k, v in d.items()}
        return {"feasible": self.feasible, "stopped": self.stopped, "steps": self.steps,
                "consts": scal(self.consts), "params": scal(self.params),
                "initial_globals": scal(self.initial_globals),
                "events": [e.to_json() for e in self.events],
                "assert_failures": [f.to_json() for f in self.assert_failures],
                "final_globals": scal(self.final_globals), "final_locals": scal(self.final_locals)}


def _sourceloc(attrs: il.Attrs) -> tuple | None:
    a = il.attr(attrs, "sourceloc")
    if a is None:
        return None
    return tuple(x if isinstance(x, str) else x.value if isinstance(x, (il.IntLit, il.BvLit))
                 else expr_str(x) for x in a.args)


# -------------------------------------------------------------------- compiler


class _State:
    """Mutable run state: ``g`` global vars and constants; ``journal`` of undo records
    (dict, key, old value) kept while choice points exist."""
    __slots__ = ("g", "journal", "choices", "events", "failures", "frame", "old", "run_seed")

    def __init__(self, run_seed: int):
        self.g: dict = {}
        self.journal: list = []
        self.choices: list = []
        self.events: list = []
        self.failures: list = []
        self.frame = None
        self.old: dict = {}
        self.run_seed = run_seed

    def write(self, d: dict, key, value) -> None:
        if self.choices:
            self.journal.append((d, key, d.get(key, _MISSING)))
        d[key] = value

    def undo_to(self, mark: int) -> None:
        j = self.journal
        while len(j) > mark:
            d, k, old = j.pop()
            if old is _MISSING:
                d.pop(k, None)
            else:
                d[k] = old


class _Compiler:
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
            return lambda st, loc: fm(st, loc).stored(fi(st, loc), _owned(fv(st, loc)))
        if isinstance(e, il.IfThenElse):
            fc, ft, fe = c(e.cond), c(e.then), c(e.els)
            return lambda st, loc: ft(st, loc) if fc(st, loc) else fe(st, loc)
        if isinstance(e, il.BvConcat):
            wb = expr_type(e.right, env).width
            fa, fb = c(e.left), c(e.right)
            return lambda st, loc: (fa(st, loc) << wb) | fb(st, loc)
        if isinstance(e, il.BvExtract):
            f, lo, mk = c(e.operand), e.lo, (1 << (e.hi - e.lo)) - 1
            return lambda st, loc: (f(st, loc) >> lo) & mk
        if isinstance(e, il.Old):
            f = c(e.operand)
            return lambda st, loc: f(_OldView(st), loc)
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
                    return value_from_hash(il.INT, _mix(st.run_seed, k, a))
                return _euclid(a, b)[k]
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
            widths = [self.env.resolve(t).width for _, t in f.params]
            op = _bv_builtin(str(bvb.args[0]), widths, name)
            impl = lambda st, *args: op(*args)
        elif f.body is not None:
            names = [n for n, _ in f.params]
            fenv = self.env.extended(((n, t) for n, t in f.params if n), mutable=False)
            self._fun_cache[name] = None  # recursion guard for self-referential bodies
            body = self.expr(f.body, fenv, frozenset(names))
            impl = lambda st, *args: body(st, dict(zip(names, args)))
        else:
            fseed = _name_hash(name)
            impl = lambda st, *args: value_from_hash(
                ret, _mix(st.run_seed, fseed, *(_key_hash(a) for a in args)))
        self._fun_cache[name] = impl
        return impl

    def _quantifier(self, e: il.Quantifier, env: TypeEnv, local: frozenset) -> Callable:
        domains = []
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


class _OldView:
    """A state whose globals are the current frame's entry snapshot (for ``old(e)``)."""
    __slots__ = ("g", "run_seed", "events", "frame")

    def __init__(self, st: _State):
        self.g = st.frame.old if st.frame is not None and st.frame.old is not None else st.g
        self.run_seed = st.run_seed
        self.events = []  # reads under old() are not accesses
        self.frame = st.frame


# ----------------------------------------------------------------- procedures

_ASSIGN, _ASSUME, _ASSERT, _HAVOC, _CALL = range(5)


class _Proc:
    """A procedure compiled for execution."""

    def __init__(self, proc: il.ProcedureDecl, comp: _Compiler, genv: TypeEnv):
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

    def _cmd(self, c: il.Cmd, comp: _Compiler, x) -> tuple:
        if isinstance(c, il.Assign):
            targets = []
            for l in c.lhss:
                idx = x(l.index, True) if isinstance(l, il.MapLhs) else None
                targets.append((l.name, l.name in self.local_names, idx,
                                isinstance(l, il.MapLhs) and l.name in comp.tracked
                                and l.name not in self.local_names))
            return (_ASSIGN, c, targets, [x(r, True) for r in c.rhss])
        if isinstance(c, il.Assume):
            return (_ASSUME, c, x(c.expr), _sourceloc(c.attrs))
        if isinstance(c, il.Assert):
            return (_ASSERT, c, x(c.expr), self._attr_fns(c.attrs, x))
        if isinstance(c, il.Havoc):
            return (_HAVOC, c, [(n, n in self.local_names) for n in c.vars])
        if isinstance(c, il.Call):
            return (_CALL, c, [x(a, True) for a in c.args],
                    [(o, o in self.local_names) for o in c.outs])
        raise InterpError(f"unknown command {c!r}")

    @staticmethod
    def _attr_fns(attrs: il.Attrs, x) -> list:
        out = []
        for a in attrs:
            fns = []
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


class _Frame:
    __slots__ = ("proc", "locals", "bi", "pc", "srcloc", "old", "call")

    def __init__(self, proc: _Proc, locals_: dict, old: dict | None, call):
        self.proc, self.locals, self.old, self.call = proc, locals_, old, call
        self.bi, self.pc, self.srcloc = 0, 0, None

    def label(self) -> str:
        return self.proc.blocks[self.bi][0] if self.proc.blocks else "<spec>"


# ------------------------------------------------------------------ interpreter


class Interpreter:
    """Runs one IL program on concrete values (see the module docstring).

    ``program``: an ``il.Program`` (type-checked here; ILTypeError if ill-typed);
    ``consts``: name -> value for constants *and* global variables (initial values);
    ``params``: name -> value for the entry procedure's parameters; ``seed``: the run's
    random seed; ``havoc_policy(name, type, old_value, rng) -> value | None`` (with
    ``havoc_view=True``: ``(name, type, old_value, rng, HavocView)``); ``local_init(name,
    type) -> value | None``: initial values of the entry's locals/outs; ``entry``: procedure to run (default: the ``{:kernel}`` one, else the only procedure
    with a body).  Values: bool, int (bv: unsigned; negative ints are taken modulo 2**W),
    dict for maps (cells; other cells pseudo-random).
    """

    def __init__(self, program: il.Program, consts: dict | None = None,
                 params: dict | None = None, seed: int = 0, havoc_policy=None,
                 stop_on_failure: bool = False, max_steps: int = 10**6,
                 max_tries: int = 1000, entry: str | None = None, havoc_view: bool = False,
                 local_init=None):
        typecheck(program)
        self.program = program
        self.genv = program_env(program)
        self.comp = _Compiler(program, self.genv)
        self.procs = {p.name: _Proc(p, self.comp, self.genv) for p in program.procedures()}
        self.entry = self.procs[self._entry_name(program, entry)]
        self.consts = dict(consts or {})
        self.params = dict(params or {})
        self.seed = seed
        self.havoc_policy = havoc_policy
        self.havoc_view = havoc_view
        self.local_init = local_init
        self.stop_on_failure = stop_on_failure
        self.max_steps = max_steps
        self.max_tries = max_tries
        self.rng = random.Random(seed)
        self.run_seed = _mix(seed, 0xC0FFEE)
        self.axioms = [(d, self.comp.expr(d.expr, self.genv, frozenset()))
                       for d in program.decls if isinstance(d, il.AxiomDecl)]

    @staticmethod
    def _entry_name(program: il.Program, entry: str | None) -> str:
        procs = list(program.procedures())
        if entry is not None:
            if entry not in {p.name for p in procs}:
                raise InterpError(f"no procedure named {entry}")
            return entry
        kernels = [p for p in procs if il.has_attr(p.attrs, "kernel")]
        if len(kernels) == 1:
            return kernels[0].name
        bodies = [p for p in procs if p.blocks is not None]
        if not kernels and len(bodies) == 1:
            return bodies[0].name
        raise InterpError("cannot choose the procedure to run: expected exactly one "
                          "{:kernel} procedure")

    # ------------------------------------------------------------------ inputs

    def choose_inputs(self) -> tuple:
        """The inputs a run would draw: ``(globals, params)``, where ``globals`` maps every
        constant and global variable to a value and ``params`` the entry's parameters,
        satisfying the axioms and ``requires`` (caller values kept).  Raises InterpError."""
        st = _State(self.run_seed)
        params = self._choose_inputs(st)
        return dict(st.g), dict(params)

    def _choose_inputs(self, st: _State) -> dict:
        """Set constants and globals in ``st.g``; return the entry parameters."""
        return _InputChooser(self).choose(st)

    # --------------------------------------------------------------------- run

    def run(self) -> Run:
        """Execute the entry procedure once.  Raises InterpError (inputs unsatisfiable,
        step bound exceeded, unsupported construct)."""
        st = _State(self.run_seed)
        params = self._choose_inputs(st)
        consts = {n: st.g[n] for n in self.program.consts()}
        globals_ = [d.name for d in self.program.globals()]
        initial = {n: _owned(st.g[n]) for n in globals_}
        entry_locals = dict(params)
        for n, t in [*self.entry.decl.outs, *((v.name, v.type) for v in self.entry.decl.locals)]:
            entry_locals[n] = self._initial_local(n, self.genv.resolve(t))
        if self.entry.blocks is None:
            raise InterpError(f"procedure {self.entry.name} has no body to run")
        frame = _Frame(self.entry, entry_locals,
                       {k: _owned(v) for k, v in st.g.items()} if self.entry.uses_old else None,
                       None)
        out = Run(feasible=False, consts=consts, params=dict(params), initial_globals=initial)
        final_locals, steps, stopped = self._execute(st, frame)
        out.steps = steps
        if final_locals is None:
            return out
        out.feasible, out.stopped = True, stopped
        out.events, out.assert_failures = st.events, st.failures
        out.final_globals = {n: st.g[n] for n in globals_}
        out.final_locals = final_locals
        return out

    def _execute(self, st: _State, frame: _Frame):
        """Run to completion; returns (entry locals or None if infeasible, steps, stopped)."""
        stack = [frame]
        st.frame = frame
        steps = 0
        while True:
            steps += 1
            if steps > self.max_steps:
                raise InterpError(f"step bound of {self.max_steps} exceeded (non-terminating "
                                  "loop or too long a run)")
            fr = stack[-1]
            st.frame = fr
            label, cmds, transfer = fr.proc.blocks[fr.bi]
            try:
                if fr.pc < len(cmds):
                    cmd = cmds[fr.pc]
                    fr.pc += 1
                    if cmd[0] == _CALL:
                        self._call(st, stack, fr, cmd)
                    elif self._command(st, fr, cmd) and self.stop_on_failure:
                        return dict(stack[0].locals), steps, True
                    continue
                if isinstance(transfer, il.Return):
                    done = self._return(st, stack)
                    if done is not None:
                        return done, steps, False
                    if self.stop_on_failure and st.failures:
                        return dict(stack[0].locals), steps, True
                    continue
                targets = transfer.targets
                if len(targets) > 1:
                    targets = self._feasible_targets(st, fr, targets)
                if len(targets) > 1:  # a choice point only where an alternative is left
                    st.choices.append((len(st.journal), len(st.events), len(st.failures),
                                       [(f, f.bi, f.pc, f.srcloc) for f in stack],
                                       list(targets[1:])))
                self._jump(fr, targets[0])
            except _Infeasible:
                if not self._backtrack(st, stack):
                    return None, steps, False

    @staticmethod
    def _feasible_targets(st: _State, fr: _Frame, targets: tuple) -> tuple:
        """Drop targets whose leading ``assume`` is already false (saves backtracking)."""
        guards = fr.proc.guards
        ok = tuple(t for t in targets if guards[t] is None or guards[t](st, fr.locals))
        if not ok:
            raise _Infeasible()
        return ok

    @staticmethod
    def _jump(fr: _Frame, label: str) -> None:
        fr.bi, fr.pc, fr.srcloc = fr.proc.labels[label], 0, None

    def _backtrack(self, st: _State, stack: list) -> bool:
        while st.choices:
            jmark, emark, fmark, frames, rest = st.choices[-1]
            target = rest.pop(0)
            if not rest:
                st.choices.pop()
            st.undo_to(jmark)
            del st.events[emark:]
            del st.failures[fmark:]
            stack[:] = [f for f, *_ in frames]
            for f, bi, pc, src in frames:
                f.bi, f.pc, f.srcloc = bi, pc, src
            self._jump(stack[-1], target)
            return True
        return False

    # ---------------------------------------------------------------- commands

    def _store(self, st: _State, fr: _Frame, name: str, is_local: bool, value) -> None:
        st.write(fr.locals if is_local else st.g, name, value)

    def _command(self, st: _State, fr: _Frame, cmd: tuple) -> bool:
        """Execute a non-call command; returns True if an assertion failed."""
        kind = cmd[0]
        loc = fr.locals
        if kind == _ASSIGN:
            _, c, targets, rhss = cmd
            vals = [f(st, loc) for f in rhss]
            idxs = [t[2](st, loc) if t[2] is not None else None for t in targets]
            for (name, is_local, idxf, logged), i, v in zip(targets, idxs, vals):
                if idxf is None:
                    self._store(st, fr, name, is_local, _owned(v))
                else:
                    m = (loc if is_local else st.g)[name]
                    st.write(m.entries, i, _owned(v))
                    if logged:
                        st.events.append(Event("write", fr.proc.name, fr.label(), fr.srcloc,
                                               name, i, v, pc=fr.pc - 1))
            return False
        if kind == _ASSUME:
            _, c, f, src = cmd
            if src is not None:
                fr.srcloc = src
            if not f(st, loc):
                raise _Infeasible()
            return False
        if kind == _ASSERT:
            _, c, f, attr_fns = cmd
            if f(st, loc):
                return False
            self._fail(st, fr, "assert", c.expr, c.attrs, attr_fns)
            return True
        if kind == _HAVOC:
            for name, is_local in cmd[2]:
                old = (loc if is_local else st.g)[name]
                t = fr.proc.types[name] if is_local else self.genv.vars[name]
                self._store(st, fr, name, is_local, self._havoc_value(name, t, old, st, fr))
            return False
        raise InterpError(f"unknown command {cmd!r}")

    def _initial_local(self, name: str, t: il.Type):
        v = self.local_init(name, t) if self.local_init is not None else None
        return random_value(t, self.rng) if v is None else _coerce(v, t, name)

    def _havoc_value(self, name: str, t: il.Type, old, st: _State | None = None,
                     fr: _Frame | None = None):
        if self.havoc_policy is not None:
            if self.havoc_view:
                view = HavocView(st.g, fr.locals, fr.proc.name, fr.label(), st.events)
                v = self.havoc_policy(name, t, old, self.rng, view)
            else:
                v = self.havoc_policy(name, t, old, self.rng)
            if v is not None:
                return _coerce(v, t, name)
        return random_value(t, self.rng)

    def _fail(self, st: _State, fr: _Frame, kind: str, expr: il.Expr, attrs: il.Attrs,
              attr_fns: list | None) -> None:
        values = {}
        for name, fns in attr_fns or [(a.name, [x if isinstance(x, str) else None for x in a.args])
                                      for a in attrs]:
            vs = []
            for f in fns:
                if f is None or isinstance(f, str):
                    vs.append(f)
                else:
                    try:
                        vs.append(f(st, fr.locals))
                    except Exception:  # an attribute argument need not be evaluable here
                        vs.append(None)
            values[name] = vs
        src = _sourceloc(attrs) or fr.srcloc
        failure = AssertFailure(kind, fr.proc.name, fr.label(), expr_str(expr), attrs, values, src)
        st.failures.append(failure)
        st.events.append(Event("assert", fr.proc.name, fr.label(), src, failure=failure))

    # ------------------------------------------------------------------- calls

    def _check_specs(self, st: _State, fr: _Frame, specs: list, kind: str) -> None:
        for s, f in specs:
            if not s.free and not f(st, fr.locals):
                self._fail(st, fr, kind, s.expr, s.attrs, None)

    def _call(self, st: _State, stack: list, fr: _Frame, cmd: tuple) -> None:
        _, c, argfs, outs = cmd
        callee = self.procs[c.proc]
        args = [_owned(f(st, fr.locals)) for f in argfs]
        locals_ = dict(zip((n for n, _ in callee.decl.params), args))
        new = _Frame(callee, locals_, None, (fr, outs))
        if callee.uses_old:
            new.old = {k: _owned(v) for k, v in st.g.items()}
        st.frame = new
        self._check_specs(st, new, callee.requires, "requires")
        st.frame = fr
        if callee.blocks is not None:
            for n, t in callee.decl.outs:
                locals_[n] = random_value(callee.types[n], self.rng)
            for v in callee.decl.locals:
                locals_[v.name] = random_value(callee.types[v.name], self.rng)
            stack.append(new)
            return
        if il.has_attr(callee.decl.attrs, "barrier"):
            st.events.append(Event("barrier", fr.proc.name, fr.label(),
                                   _sourceloc(c.attrs) or fr.srcloc, args=tuple(args)))
            if callee.decl.outs or callee.decl.modifies:
                self._havoc_call(st, fr, new, callee, outs)
            return
        self._havoc_call(st, fr, new, callee, outs)

    def _havoc_call(self, st: _State, fr: _Frame, new: _Frame, callee: _Proc, outs: list) -> None:
        """Body-less callee: havoc outs and ``modifies`` until its ``ensures`` hold."""
        for _ in range(100):
            for n, t in callee.decl.outs:
                new.locals[n] = self._havoc_value(n, callee.types[n], None, st, fr)
            for g in callee.decl.modifies:
                st.write(st.g, g, self._havoc_value(g, self.genv.vars[g], st.g[g], st, fr))
            st.frame = new
            ok = all(f(st, new.locals) for _, f in callee.ensures)
            st.frame = fr
            if ok:
                for (o, is_local), (n, _) in zip(outs, callee.decl.outs):
                    self._store(st, fr, o, is_local, new.locals[n])
                return
        raise _Infeasible()

    def _return(self, st: _State, stack: list):
        """Pop a frame; returns the entry's locals when the entry procedure returns."""
        fr = stack[-1]
        self._check_specs(st, fr, fr.proc.ensures, "ensures")
        stack.pop()
        if not stack:
            return dict(fr.locals)
        caller, outs = fr.call
        st.frame = caller
        for (o, is_local), (n, _) in zip(outs, fr.proc.decl.outs):
            self._store(st, caller, o, is_local, fr.locals[n])
        return None


# ------------------------------------------------------------------ input choice

_UNSIGNED_CMP = {"bvult": "<", "bvule": "<=", "bvugt": ">", "bvuge": ">="}
_SIGNED_CMP = {"bvslt": "<", "bvsle": "<=", "bvsgt": ">", "bvsge": ">="}
_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}


def _conjuncts(e: il.Expr):
    stack = [e]
    while stack:
        x = stack.pop()
        if isinstance(x, il.BinOp) and x.op == "&&":
            stack += [x.right, x.left]
        else:
            yield x


class _InputChooser:
    """Chooses constants, global variables and entry parameters so that the axioms and
    the entry's ``requires`` hold (caller values first, then equalities, then bounded
    random draws; ``max_tries`` attempts)."""

    def __init__(self, it: Interpreter):
        self.it = it
        entry = it.entry
        self.param_names = [n for n, _ in entry.decl.params]
        self.unknowns = []  # (key, type); key = ("g", name) or ("p", name)
        for d in it.program.decls:
            if isinstance(d, (il.ConstDecl, il.VarDecl)):
                self.unknowns.append((("g", d.name), it.genv.resolve(d.type)))
        for n in self.param_names:
            self.unknowns.append((("p", n), entry.types[n]))
        self._check_given()
        # constraints: (text, closure, conjunct expr, scope env, local names)
        self.constraints = []
        for d in it.program.decls:
            if isinstance(d, il.AxiomDecl):
                for cj in _conjuncts(d.expr):
                    self._add(f"axiom {expr_str(cj)}", cj, it.genv, frozenset())
        for s in entry.decl.specs:
            if s.kind == "requires":
                for cj in _conjuncts(s.expr):
                    self._add(f"requires {expr_str(cj)}", cj, entry.env, entry.local_names)

    def _check_given(self) -> None:
        names = {k[1] for k, _ in self.unknowns if k[0] == "g"}
        for n in self.it.consts:
            if n not in names:
                raise InterpError(f"--set {n}: no constant or global variable of that name")
        for n in self.it.params:
            if n not in self.param_names:
                raise InterpError(f"--set {n}: {self.it.entry.name} has no parameter of that name")

    def _add(self, text: str, e: il.Expr, env: TypeEnv, local: frozenset) -> None:
        comp = self.it.comp
        f = comp.expr(e, env, local)
        key = lambda name: ("p", name) if name in local else ("g", name)
        eq = bound = None
        sides = None
        if isinstance(e, il.BinOp) and e.op == "==":
            sides = [(e.left, e.right), (e.right, e.left)]
        elif isinstance(e, il.Var):
            eq = [(key(e.name), lambda st, loc: True)]
        elif isinstance(e, il.UnOp) and e.op == "!" and isinstance(e.operand, il.Var):
            eq = [(key(e.operand.name), lambda st, loc: False)]
        if sides:
            eq = [(key(a.name), comp.expr(b, env, local)) for a, b in sides if isinstance(a, il.Var)]
        cmp = self._comparison(e, env)
        if cmp is not None:
            signed, op, a, b = cmp
            bound = []
            for x, y, o in ((a, b, op), (b, a, _FLIP[op])):
                if isinstance(x, il.Var):
                    bound.append((key(x.name), signed, o, comp.expr(y, env, local)))
        self.constraints.append((text, f, eq or [], bound or []))

    def _comparison(self, e: il.Expr, env: TypeEnv):
        """(signed?, op, lhs, rhs) for a bv builtin or int comparison, else None."""
        if isinstance(e, il.FunApp) and len(e.args) == 2:
            f = self.it.genv.functions.get(e.name)
            a = il.attr(f.attrs, "bvbuiltin") if f is not None else None
            if a is not None and a.args and isinstance(a.args[0], str):
                op = a.args[0].strip()
                if op in _UNSIGNED_CMP:
                    return False, _UNSIGNED_CMP[op], e.args[0], e.args[1]
                if op in _SIGNED_CMP:
                    return True, _SIGNED_CMP[op], e.args[0], e.args[1]
        if isinstance(e, il.BinOp) and e.op in _FLIP:
            return True, e.op, e.left, e.right
        return None

    # ------------------------------------------------------------------------

    def choose(self, st: _State) -> dict:
        it = self.it
        failing: dict = {}
        for attempt in range(it.max_tries):
            g, p = {}, {}
            for (scope, n), t in self.unknowns:
                given = (it.consts if scope == "g" else it.params).get(n, _MISSING)
                if given is not _MISSING:
                    (g if scope == "g" else p)[n] = _coerce(given, t, n)
            st.g = g
            drew = self._fill(st, g, p)
            bad = self._violated(st, p)
            if bad is None:
                return p
            failing[bad] = failing.get(bad, 0) + 1
            if not drew:
                break
        worst = max(failing, key=failing.get)
        tries = "" if not drew else f" after {it.max_tries} random tries"
        raise InterpError(f"cannot satisfy the axioms and preconditions{tries}: "
                          f"{worst[:200]} fails")

    def _fill(self, st: _State, g: dict, p: dict) -> bool:
        """Give every unknown a value; returns whether any value was drawn at random."""
        drew = False
        self._propagate(st, g, p)
        for key, t in self.unknowns:
            d = g if key[0] == "g" else p
            if key[1] in d:
                continue
            d[key[1]] = self._draw(st, key, t, p)
            drew = True
            self._propagate(st, g, p)
        return drew

    def _propagate(self, st: _State, g: dict, p: dict) -> None:
        changed = True
        while changed:
            changed = False
            for _, _, eqs, _ in self.constraints:
                for (scope, n), rhs in eqs:
                    d = g if scope == "g" else p
                    if n in d:
                        continue
                    try:
                        d[n] = _owned(rhs(st, p))
                    except KeyError:
                        continue
                    changed = True

    def _draw(self, st: _State, key: tuple, t: il.Type, p: dict):
        rng = self.it.rng
        if not isinstance(t, (il.BvType, il.IntType)):
            return random_value(t, rng)
        lo, hi, signed = self._interval(st, key, t, p)
        if lo is None:
            return random_value(t, rng)
        if hi < lo:
            return random_value(t, rng)
        if hi - lo <= 64:
            v = rng.randint(lo, hi)
        else:
            r = rng.random()
            v = lo + rng.randint(0, 16) if r < 0.5 else hi - rng.randint(0, 16) if r < 0.7 \
                else rng.randint(lo, hi)
        return v & ((1 << t.width) - 1) if isinstance(t, il.BvType) else v

    def _interval(self, st: _State, key: tuple, t: il.Type, p: dict):
        """Bounds on ``key`` from comparisons with already-known values: (lo, hi, signed),
        or (None, None, None) if unconstrained."""
        is_bv = isinstance(t, il.BvType)
        found, sgn = False, False
        if is_bv:
            w = t.width
            ulo, uhi, slo, shi = 0, (1 << w) - 1, -(1 << (w - 1)), (1 << (w - 1)) - 1
        else:
            ulo, uhi = slo, shi = -(2**31), 2**31 - 1
        for _, _, _, bounds in self.constraints:
            for k, signed, op, other in bounds:
                if k != key:
                    continue
                try:
                    b = other(st, p)
                except KeyError:
                    continue
                if is_bv and signed:
                    b = _signed(b, w)
                found = True
                sgn = sgn or signed or not is_bv
                lo, hi = (slo, shi) if (signed or not is_bv) else (ulo, uhi)
                if op == "<":
                    hi = min(hi, b - 1)
                elif op == "<=":
                    hi = min(hi, b)
                elif op == ">":
                    lo = max(lo, b + 1)
                else:
                    lo = max(lo, b)
                if signed or not is_bv:
                    slo, shi = lo, hi
                else:
                    ulo, uhi = lo, hi
        if not found:
            return None, None, None
        if is_bv and (ulo, uhi) != (0, (1 << w) - 1):
            return ulo, uhi, False
        return slo, shi, sgn

    def _violated(self, st: _State, p: dict):
        for text, f, _, _ in self.constraints:
            try:
                if not f(st, p):
                    return text
            except KeyError as e:
                return f"{text} (no value for {e.args[0]})"
        return None


# --------------------------------------------------------------------------- CLI


def _parse_value(text: str):
    t = text.strip()
    if t in ("true", "false"):
        return t == "true"
    if "bv" in t and t.split("bv")[0].lstrip("-").isdigit():
        t = t.split("bv")[0]
    try:
        return int(t, 0)
    except ValueError:
        raise ToolError(f"--set: cannot read value {text!r} (expected an integer, "
                        "NbvW, true or false)", ExitCode.COMMAND_LINE_ERROR) from None


def _parse_sets(sets, program: il.Program, entry: str | None):
    """``NAME=VALUE`` / ``NAME[INDEX]=VALUE`` settings split into (consts, params)."""
    it_entry = Interpreter._entry_name(program, entry)
    proc = next(p for p in program.procedures() if p.name == it_entry)
    param_names = {n for n, _ in proc.params}
    consts, params = {}, {}
    for s in sets:
        if "=" not in s:
            raise ToolError(f"--set {s}: expected NAME=VALUE", ExitCode.COMMAND_LINE_ERROR)
        name, value = s.split("=", 1)
        name = name.strip()
        target = params if name in param_names else consts
        if name.endswith("]") and "[" in name:
            base, idx = name[:-1].split("[", 1)
            cells = target.setdefault(base, {})
            if not isinstance(cells, dict):
                raise ToolError(f"--set {s}: {base} was given a scalar value",
                                ExitCode.COMMAND_LINE_ERROR)
            cells[_parse_value(idx)] = _parse_value(value)
        else:
            target[name] = _parse_value(value)
    return consts, params


def _print_text(run: Run) -> None:
    out = click.echo
    out("inputs:")
    for n, v in run.consts.items():
        out(f"  const {n} = {format_value(v)}")
    for n, v in run.params.items():
        out(f"  param {n} = {format_value(v)}")
    if not run.feasible:
        return
    out("trace:")
    for e in run.events:
        out(f"  {e}")
    if run.stopped:
        out("  (stopped at the first failed assertion)")
    out(f"assertion failures: {len(run.assert_failures)}")
    out("final globals:")
    for n, v in run.final_globals.items():
        out(f"  {n} = {format_value(v)}")
    out("final locals:")
    for n, v in run.final_locals.items():
        out(f"  {n} = {format_value(v)}")
    out(f"steps: {run.steps}")


@click.command("run")
@click.argument("file")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE",
              help="Value of a constant, global variable or kernel parameter "
                   "(NAME[INDEX]=VALUE sets one map cell).  Repeatable.")
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed.")
@click.option("--json", "as_json", is_flag=True, help="Print the run as JSON.")
@click.option("--stop-on-failure", is_flag=True, help="Stop at the first failed assertion.")
@click.option("--max-steps", type=int, default=10**6, show_default=True,
              help="Bound on executed commands (over all explored paths).")
@click.option("--entry", default=None, help="Procedure to run (default: the {:kernel} one).")
@click.pass_context
def run_command(ctx, file, sets, seed, as_json, stop_on_failure, max_steps, entry):
    """Execute an IL program (.gbpl one thread, .bpl a pair of threads) on concrete values.

    Prints the inputs, the trace of array accesses, barriers and failed assertions, and
    the final state.  Exit code 0 if no assertion failed, 6 if one did, 5 on errors
    (parse/type error, unsatisfiable axioms, step bound, no feasible path).
    """
    from .il.files import read_text
    from .il.parser import ILParseError, parse_program
    try:
        program = parse_program(read_text(file), file)
        consts, params = _parse_sets(sets, program, entry)
        run = Interpreter(program, consts, params, seed, stop_on_failure=stop_on_failure,
                          max_steps=max_steps, entry=entry).run()
    except ToolError as e:
        click.echo(f"vcgen run: {e}", err=True)
        ctx.exit(int(e.code))
    except (ILParseError, ILTypeError, InterpError) as e:
        click.echo(f"vcgen run: {file}: {e}" if not str(e).startswith(file) else f"vcgen run: {e}",
                   err=True)
        ctx.exit(int(ExitCode.GPUVERIFYVCGEN_ERROR))
    if as_json:
        click.echo(json.dumps(run.to_json(), indent=1))
    else:
        _print_text(run)
    if not run.feasible:
        click.echo(f"vcgen run: {file}: no feasible path (every path violates an assume)",
                   err=True)
        ctx.exit(int(ExitCode.GPUVERIFYVCGEN_ERROR))
    ctx.exit(int(ExitCode.NOT_ALL_VERIFIED) if run.assert_failures else 0)
