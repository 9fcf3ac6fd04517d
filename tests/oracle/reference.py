"""Concrete reference for oracle kernels: every thread of the launch, real executions.

``run(kernel, inputs, schedule) -> Observation`` interprets the AST of ``syntax`` (not
the project's IL) for every thread of ``kernel.launch`` on concrete inputs and reports
what that execution exhibits:

* **races**: two accesses to the same element of the same array storage by different
  threads, at least one a write (an atomic counts as a read and a write), not both
  atomic, and not ordered by a barrier: threads of one group are ordered by a barrier
  between the accesses whose fence covers the array's space (paper 000 section 2.2;
  OpenCL 1.2 section 3.3.1: ``barrier(CLK_LOCAL_MEM_FENCE)`` orders local memory only;
  CUDA ``__syncthreads`` orders both); threads of different groups are never ordered,
  so any two such accesses to a global array race, and group-shared arrays are separate
  storage per group (they never race across groups).  A write-write race where both
  writes store the same value is *benign* and listed apart: the verifier tolerates it by
  default (DESIGN.md section 5.8, ``--no-benign-tolerance``);
* **assertion failures**: ``__assert(e)`` evaluated to 0 by some thread;
* **barrier divergence**: the threads of a group do not all reach the same barrier, where
  a barrier is identified by its statement and the iteration numbers of its enclosing
  loops (the lock-step reading of paper 000 section 3: a barrier is reached in
  uniform control flow by every thread of the group or by none), or some threads end
  while others wait.  The group stops there.

The schedule runs every thread of a group to its next barrier (or its end) in turn, then
checks that they all wait at the same barrier and lets them pass; groups interleave
phase by phase (``"phases"``) or run one after the other (``"groups"``), threads in
increasing or decreasing order (``reverse``).  Each schedule is a legal execution and
memory is sequentially consistent, so every problem reported is real; problems that need
another schedule or other inputs are missed (the reference under-approximates).

Values are 32-bit unsigned; accesses are checked against the array sizes (an access out
of bounds is a bug of the generator: ``ReferenceError`` is raised).  ``Budget`` is raised
when a run exceeds its step budget.
"""
from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field

from .source import site_text
from .syntax import (MASK, Assert, Assign, Atomic, Barrier, Bin, Call, Cond, Const, Decl, Eval,
                     For, Id, If, Kernel, Load, Return, Store, Var)

DEFAULT_STEPS = 200_000
_DONE = ("done",)
_FENCE = {"shared": "local", "global": "global"}  # array space -> the fence flag that covers it


class ReferenceError(Exception):
    """The kernel is outside the reference's semantics (a generator bug)."""


class Budget(Exception):
    """The run exceeded its step budget."""


@dataclass(frozen=True)
class Access:
    thread: int  # linear global thread number
    group: int  # linear group number
    array: str
    index: int  # element
    kind: str  # "read", "write" or "atomic"
    value: int  # value written (writes), value read (reads), old value (atomics)
    epoch: int  # barriers covering the array's space that the thread passed before
    site: object  # the AST node (Load, Store, Atomic)


@dataclass(frozen=True)
class Problem:
    """``kind``: "race", "benign" (same-value write-write), "assert" or "divergence";
    ``text``: a one-line description."""
    kind: str
    text: str


@dataclass
class Inputs:
    """Initial contents of every array storage ((name, group or None) -> values) and the
    scalar kernel arguments."""
    memory: dict
    scalars: dict

    def describe(self, kernel: Kernel) -> str:
        parts = [f"{n}={v}" for n, v in self.scalars.items()]
        for a in kernel.arrays:
            if a.space == "global":
                parts.append(f"{a.name}={self.memory[(a.name, None)]}")
        return ", ".join(parts)


@dataclass
class Observation:
    """What one execution showed.  ``problems``: real problems (no benign races);
    ``benign``: same-value write-write races; ``accesses``: how many were logged."""
    problems: list = field(default_factory=list)
    benign: list = field(default_factory=list)
    accesses: int = 0

    @property
    def racy(self) -> bool:
        return bool(self.problems)

    def kinds(self) -> set:
        return {p.kind for p in self.problems}


def random_inputs(kernel: Kernel, rng: random.Random, scalar: int | None = None) -> Inputs:
    """Global arrays (shared by all groups) and group-shared arrays (one storage per group,
    uninitialised on a GPU: arbitrary here) of small values with an occasional large one;
    scalar arguments ``scalar``, or random in 0..4 (they often bound loops)."""
    def values(n):
        return [rng.choice((rng.randrange(8), rng.randrange(8), rng.randrange(1 << 32))) for _ in range(n)]
    mem = {}
    for a in kernel.arrays:
        if a.space == "global":
            mem[(a.name, None)] = values(a.size)
        else:
            for g in range(kernel.launch.num_groups):
                mem[(a.name, g)] = values(a.size)
    return Inputs(mem, {n: rng.randrange(5) if scalar is None else scalar for n in kernel.scalars})


# ---------------------------------------------------------------------- one thread


class _Thread:
    """One work item: ids per dimension, linear numbers, barrier epochs per space, the
    iteration numbers of the loops it is in (for barrier identity)."""

    def __init__(self, kernel: Kernel, local: tuple, group: tuple):
        la = kernel.launch
        self.local, self.group = local, group
        self.lin_local = _linear(local, la.local)
        self.lin_group = _linear(group, la.groups)
        self.number = self.lin_group * la.threads_per_group + self.lin_local
        self.epoch = {"local": 0, "global": 0}
        self.iters: list = []
        self.where: tuple = ()

    def ident(self, kind: str, dim: int, kernel: Kernel) -> int:
        la = kernel.launch
        if dim >= la.dims:
            return 1 if kind in ("lsize", "ngroups") else 0
        return {"lid": self.local[dim], "gid": self.group[dim],
                "glob": self.group[dim] * la.local[dim] + self.local[dim],
                "lsize": la.local[dim], "ngroups": la.groups[dim]}[kind]

    def describe(self, kernel: Kernel) -> str:
        fmt = (lambda t: str(t[0])) if kernel.launch.dims == 1 else (lambda t: str(tuple(t)))
        return f"thread {fmt(self.local)} of group {fmt(self.group)}"


def _linear(ids: tuple, dims: tuple) -> int:
    n, scale = 0, 1
    for i, d in zip(ids, dims):
        n += i * scale
        scale *= d
    return n


class _Machine:
    """Memory, the access log and the interpreter of statements and expressions."""

    def __init__(self, kernel: Kernel, inputs: Inputs, steps: int):
        self.k = kernel
        self.mem = {key: list(vals) for key, vals in inputs.memory.items()}
        self.scalars = dict(inputs.scalars)
        self.space = {a.name: a.space for a in kernel.arrays}
        self.funcs = {f.name: f for f in kernel.functions}
        self.log: dict = {}  # storage key + index -> [Access]
        self.count = 0
        self.failures: list = []
        self.steps = steps

    def tick(self) -> None:
        self.steps -= 1
        if self.steps < 0:
            raise Budget("step budget exceeded")

    # ------------------------------------------------------------------ memory

    def _storage(self, th: _Thread, array: str) -> tuple:
        space = self.space.get(array)
        if space is None:
            raise ReferenceError(f"unknown array {array}")
        return (array, None if space == "global" else th.lin_group), space

    def access(self, th: _Thread, array: str, index: int, kind: str, value: int | None, site,
               op: str | None = None) -> int:
        """Perform and log one access; returns the value read (reads, atomics: old value)."""
        key, space = self._storage(th, array)
        cells = self.mem[key]
        if not 0 <= index < len(cells):
            raise ReferenceError(f"{array}[{index}] out of bounds (size {len(cells)}) at {site}")
        old = cells[index]
        if kind == "write":
            cells[index] = value
            logged = value
        elif kind == "atomic":
            cells[index] = _atomic(op, old, value)
            logged = old
        else:
            logged = old
        self.count += 1
        self.log.setdefault((key, index), []).append(
            Access(th.number, th.lin_group, array, index, kind, logged, th.epoch[_FENCE[space]], site))
        return old

    # ------------------------------------------------------------------ expressions

    def ev(self, e, th: _Thread, env: dict) -> int:
        self.tick()
        if isinstance(e, Const):
            return e.value & MASK
        if isinstance(e, Var):
            if e.name in env:
                return env[e.name]
            if e.name in self.scalars:
                return self.scalars[e.name]
            raise ReferenceError(f"unbound variable {e.name}")
        if isinstance(e, Id):
            return th.ident(e.kind, e.dim, self.k)
        if isinstance(e, Bin):
            return self.binary(e, th, env)
        if isinstance(e, Cond):
            return self.ev(e.then if self.ev(e.cond, th, env) else e.other, th, env)
        if isinstance(e, Load):
            return self.access(th, _array(e.array, env), self.ev(e.index, th, env), "read", None, e)
        if isinstance(e, Atomic):
            index = self.ev(e.index, th, env)
            value = self.ev(e.value, th, env)
            return self.access(th, _array(e.array, env), index, "atomic", value, e, e.op)
        if isinstance(e, Call):
            return self.call(e, th, env)
        raise ReferenceError(f"not an expression: {e!r}")

    def binary(self, e: Bin, th: _Thread, env: dict) -> int:
        if e.op == "&&":
            return int(bool(self.ev(e.left, th, env)) and bool(self.ev(e.right, th, env)))
        if e.op == "||":
            return int(bool(self.ev(e.left, th, env)) or bool(self.ev(e.right, th, env)))
        a = self.ev(e.left, th, env)
        b = self.ev(e.right, th, env)
        return _arith(e.op, a, b)

    def call(self, e: Call, th: _Thread, env: dict) -> int:
        f = self.funcs.get(e.func)
        if f is None:
            raise ReferenceError(f"unknown function {e.func}")
        inner: dict = {}
        for (name, kind), arg in zip(f.params, e.args):
            if kind.startswith("ptr:"):
                if not isinstance(arg, Var):
                    raise ReferenceError(f"pointer argument of {e.func} must name an array")
                inner[name] = ("ptr", _array(arg.name, env))
            else:
                inner[name] = self.ev(arg, th, env)
        for stop in self.run(f.body, th, inner):
            raise ReferenceError(f"barrier inside function {f.name}")
        return self.ev(f.result, th, inner) if f.result is not None else 0

    # ------------------------------------------------------------------ statements

    def run(self, stmts, th: _Thread, env: dict):
        """Execute ``stmts``; a generator that yields ``("barrier", ident, iterations,
        fences)`` at each barrier and continues once the group has passed it."""
        for s in stmts:
            self.tick()
            if isinstance(s, (Decl, Assign)):
                env[s.name] = self.ev(s.value, th, env)
            elif isinstance(s, Store):
                index = self.ev(s.index, th, env)
                value = self.ev(s.value, th, env)
                self.access(th, _array(s.array, env), index, "write", value, s)
            elif isinstance(s, Eval):
                self.ev(s.expr, th, env)
            elif isinstance(s, If):
                yield from self.run(s.then if self.ev(s.cond, th, env) else s.other, th, env)
            elif isinstance(s, For):
                yield from self.loop(s, th, env)
            elif isinstance(s, Barrier):
                fences = frozenset(("local", "global")) if self.k.lang == "cuda" else s.fences
                yield ("barrier", s.ident, tuple(th.iters), fences)
                for space in fences:
                    th.epoch[space] += 1
            elif isinstance(s, Assert):
                if not self.ev(s.cond, th, env):
                    self.failures.append((th, s, dict(env)))
            elif isinstance(s, Return):
                raise _Returned()
            else:
                raise ReferenceError(f"not a statement: {s!r}")

    def thread_body(self, th: _Thread):
        """The kernel body of thread ``th`` (a generator, see ``run``), ended by ``return``."""
        try:
            yield from self.run(self.k.body, th, {})
        except _Returned:
            return

    def loop(self, s: For, th: _Thread, env: dict):
        env[s.var] = 0
        th.iters.append(0)
        while _arith("<", env[s.var], self.ev(s.bound, th, env)):
            yield from self.run(s.body, th, env)
            env[s.var] = (env[s.var] + s.step) & MASK
            th.iters[-1] += 1
        th.iters.pop()


class _Returned(Exception):
    """``return;``: unwinds the thread's statement generators to ``thread_body``."""


def _array(name: str, env: dict) -> str:
    bound = env.get(name)
    return bound[1] if isinstance(bound, tuple) else name


def _arith(op: str, a: int, b: int) -> int:
    if op == "+":
        return (a + b) & MASK
    if op == "-":
        return (a - b) & MASK
    if op == "*":
        return (a * b) & MASK
    if op == "&":
        return a & b
    if op == "|":
        return a | b
    if op == "^":
        return a ^ b
    if op == "<<":
        if not 0 <= b < 32:
            raise ReferenceError(f"shift by {b}")
        return (a << b) & MASK
    if op == ">>":
        if not 0 <= b < 32:
            raise ReferenceError(f"shift by {b}")
        return a >> b
    if op in ("/", "%"):
        if b == 0:
            raise ReferenceError("division by zero")
        return a // b if op == "/" else a % b
    return int({"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op])


def _atomic(op: str, old: int, v: int) -> int:
    return {"add": (old + v) & MASK, "or": old | v, "max": max(old, v), "xchg": v}[op]


# ---------------------------------------------------------------------- the launch


def run(kernel: Kernel, inputs: Inputs, schedule: str = "phases", reverse: bool = False,
        steps: int = DEFAULT_STEPS) -> Observation:
    """One execution of the whole launch (see the module doc); raises Budget, ReferenceError."""
    m = _Machine(kernel, inputs, steps)
    la = kernel.launch
    groups = []
    for g in _id_tuples(la.groups):
        threads = [_Thread(kernel, l, g) for l in _id_tuples(la.local)]
        if reverse:
            threads.reverse()
        groups.append([(th, m.thread_body(th)) for th in threads])
    if reverse:
        groups.reverse()
    obs = Observation()
    if schedule == "groups":
        for grp in groups:
            while _phase(grp, obs, kernel) == "waiting":
                pass
    elif schedule == "phases":
        live = list(groups)
        while live:
            live = [grp for grp in live if _phase(grp, obs, kernel) == "waiting"]
    else:
        raise ValueError(f"unknown schedule {schedule!r}")
    for th, s, env in m.failures:
        obs.problems.append(Problem("assert", f"__assert #{s.ident} fails for {th.describe(kernel)}"
                                    + _env_text(env)))
    races, benign = _races(m.log, kernel, m)
    obs.problems += races
    obs.benign = benign
    obs.accesses = m.count
    return obs


def _env_text(env: dict) -> str:
    vals = [f"{k}={v}" for k, v in sorted(env.items()) if not isinstance(v, tuple)]
    return f" ({', '.join(vals)})" if vals else ""


def _id_tuples(dims: tuple) -> list:
    """All id tuples of ``dims`` with x varying fastest."""
    return [tuple(reversed(t)) for t in itertools.product(*(range(d) for d in reversed(dims)))]


def _phase(grp: list, obs: Observation, kernel: Kernel) -> str:
    """Run every thread of the group to its next barrier or end: "waiting" (all at the same
    barrier: they pass it), "done", or "diverged" (a divergence is recorded)."""
    stops = []
    for th, gen in grp:
        stops.append(next(gen, _DONE))
    first = stops[0]
    key = lambda s: s[:3]
    if all(key(s) == key(first) for s in stops):
        return "done" if first is _DONE else "waiting"
    by_stop: dict = {}
    for (th, _), s in zip(grp, stops):
        by_stop.setdefault(key(s), []).append(th.describe(kernel))
    parts = ["end" if s == _DONE else f"barrier #{s[1]}" + (f" in iteration {list(s[2])}" if s[2] else "")
             for s in by_stop]
    who = "; ".join(f"{p}: {', '.join(ts)}" for p, ts in zip(parts, by_stop.values()))
    obs.problems.append(Problem("divergence", f"barrier divergence in group {grp[0][0].lin_group}: {who}"))
    return "diverged"


# ---------------------------------------------------------------------- races


def _conflict(a: Access, b: Access) -> str | None:
    """None, "race" or "benign" for two accesses of different threads to one element."""
    if a.kind == "read" and b.kind == "read":
        return None
    if a.kind == "atomic" and b.kind == "atomic":
        return None
    if a.kind == "write" and b.kind == "write":
        return "benign" if a.value == b.value else "race"
    return "race"


def _concurrent(a: Access, b: Access) -> bool:
    if a.thread == b.thread:
        return False
    if a.group != b.group:
        return True  # only global storage is shared by different groups
    return a.epoch == b.epoch


def _races(log: dict, kernel: Kernel, m: _Machine) -> tuple:
    """(races, benign races) of the access log: at most one of each per array element."""
    races, benign = [], []
    for (key, index), accs in log.items():
        if len(accs) < 2 or all(a.kind == "read" for a in accs):
            continue
        found = None
        found_benign = None
        for i, a in enumerate(accs):
            for b in accs[i + 1:]:
                if not _concurrent(a, b):
                    continue
                c = _conflict(a, b)
                if c == "race":
                    found = (a, b)
                    break
                if c == "benign" and found_benign is None:
                    found_benign = (a, b)
            if found:
                break
        if found:
            races.append(Problem("race", _race_text(found, kernel)))
        elif found_benign:
            benign.append(Problem("benign", _race_text(found_benign, kernel)))
    return races, benign


def _race_text(pair: tuple, kernel: Kernel) -> str:
    a, b = pair
    tpg = kernel.launch.threads_per_group

    def who(x: Access) -> str:
        return (f"{x.kind} by thread {x.thread % tpg} of group {x.group} (value {x.value}) "
                f"at `{site_text(kernel, x.site)}`")
    scope = "within a group" if a.group == b.group else "between groups"
    return f"{a.kind}-{b.kind} race on {a.array}[{a.index}] {scope}: {who(a)}; {who(b)}"
