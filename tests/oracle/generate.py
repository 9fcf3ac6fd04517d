"""Seeded random kernels for the oracle: ``generate(seed, features) -> Kernel``.

The same seed and features always give the same kernel (one ``random.Random(seed)``,
no iteration over sets).  A kernel has a small launch (1-D: 1-8 threads per group, 1-3
groups; 2-D: 2x2 to 4x2 threads, 1x2 to 2x2 groups), global arrays (kernel pointer
arguments: read-write arrays, read-only inputs, a counter array for atomics),
group-shared arrays (``__local``/``__shared__``, declared or, in OpenCL, as arguments),
an unsigned scalar argument, 0-2 device functions, and a body of straight-line code,
branches on ids, scalars and data, bounded loops (constant, id- and argument-dependent
bounds, data-dependent bounds), barriers (mostly in uniform code, sometimes in divergent
code), early ``return``, reads and writes
with index expressions of ids, loop counters and constants, atomics, assertions,
same-value ("benign") writes and calls whose results are unused.

Kernels should be racy about half of the time, so accesses follow a discipline that a
per-kernel *risk* breaks now and then: each read-write array has an "own element"
pattern (``lid``, ``2*glob+1``, ...: distinct for distinct threads); writes use it, and
reads use it while the array is *dirty* (written since the last barrier covering it on
the current path), any in-group index otherwise.  A risky access (probability
``risk``, 0 to 0.3 per kernel) takes any index of any array.

Every index is in bounds for the launch by construction: a range analysis of unsigned
32-bit expressions bounds each index, and an index whose range may exceed the array is
wrapped in ``% size``.  ``Features`` switches generation of each construct on or off;
``Features.dead_reads`` (reads whose value is never used, also inside called functions)
exists because the front end is known to delete such reads (issue 9, cause 1): with it
off every read value flows into a final store.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, fields

from .syntax import (MASK, Array, Assert, Assign, Atomic, Barrier, Bin, Call, Cond, Const, Decl, Eval,
                     For, Function, Id, If, Kernel, Launch, Load, Return, Store, Var)

FULL = (0, MASK)
RISKS = (0.0, 0.02, 0.05, 0.1, 0.2, 0.3)


@dataclass(frozen=True)
class Features:
    """Which constructs the generator may use (all on by default)."""
    dead_reads: bool = True  # reads whose value is unused (front end deleted them: issue 9 cause 1)
    single_thread_groups: bool = True  # launches with one thread per group (DESIGN.md 5.1)
    two_d: bool = True
    loops: bool = True
    barriers: bool = True
    divergent_barriers: bool = True
    shared: bool = True
    atomics: bool = True
    functions: bool = True
    asserts: bool = True
    data_branches: bool = True
    benign_writes: bool = True
    returns: bool = True  # `return;` in branches (threads leaving early)

    @classmethod
    def parse(cls, text: str) -> "Features":
        """``"no-dead-reads,no-atomics"`` -> Features with those off (names with - or _).
        ValueError for an unknown name."""
        names = {f.name for f in fields(cls)}
        values = {}
        for item in filter(None, (t.strip() for t in text.split(","))):
            name = item.removeprefix("no-").replace("-", "_")
            if name not in names:
                raise ValueError(f"unknown feature {item!r} (known: "
                                 f"{', '.join(n.replace('_', '-') for n in sorted(names))})")
            values[name] = not item.startswith("no-")
        return cls(**values)

    def switched_off(self) -> list:
        return [f.name.replace("_", "-") for f in fields(self) if not getattr(self, f.name)]


# ---------------------------------------------------------------------- ranges


def _add(a, b):
    return (a[0] + b[0], a[1] + b[1]) if a[1] + b[1] <= MASK else FULL


def _mul(a, b):
    return (a[0] * b[0], a[1] * b[1]) if a[1] * b[1] <= MASK else FULL


def _sub(a, b):
    return (a[0] - b[1], a[1] - b[0]) if a[0] >= b[1] else FULL


def _union(a, b):
    return (min(a[0], b[0]), max(a[1], b[1]))


@dataclass
class _Local:
    name: str
    range: tuple
    uniform: bool  # equal in all threads of a group (for barrier placement)
    loop: bool = False  # a loop counter


@dataclass
class _ArrayInfo:
    space: str
    size: int
    role: str  # "rw", "in" (never written by the discipline), "counter" (atomics only)
    own: object = None  # own-element index pattern (rw arrays)
    in_group: bool = False  # own is the linear global id of a 1-D launch: gid*lsize + k is in-group


class _Gen:
    """Generator state: the kernel under construction and the scopes of the current point."""

    def __init__(self, seed: int, features: Features):
        self.rng = random.Random(seed)
        self.f = features
        self.seed = seed
        self.used: set = set()
        self.names = 0
        self.barrier_ids = 0
        self.assert_ids = 0
        self.dirty: set = set()  # arrays written since the last barrier covering them (this path)
        self.divergent = False
        self.exited = False  # some threads of a group may have returned (barriers now diverge)
        self.in_function = None  # (pointer name, space) while generating a device function
        self.scopes: list = [{}]

    # ------------------------------------------------------------------ helpers

    def fresh(self, prefix: str) -> str:
        self.names += 1
        return f"{prefix}{self.names}"

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def pick(self, weighted: list):
        """One item of ``[(weight, item), ...]`` (weights <= 0 are skipped); an item that
        is a function is called (so only the chosen alternative draws random numbers)."""
        items = [(w, x) for w, x in weighted if w > 0]
        r = self.rng.random() * sum(w for w, _ in items)
        chosen = items[-1][1]
        for w, x in items:
            r -= w
            if r < 0:
                chosen = x
                break
        return chosen() if callable(chosen) else chosen

    def risky(self) -> bool:
        return self.chance(self.risk)

    # ------------------------------------------------------------------ launch, arrays

    def launch(self) -> Launch:
        r = self.rng
        if self.f.two_d and self.chance(0.2):
            self.used.add("2d")
            return Launch(r.choice(((2, 2), (4, 2), (2, 3))), r.choice(((2, 1), (1, 2), (2, 2))))
        local = r.choice((2, 4, 4, 4, 8))
        if self.f.single_thread_groups and self.chance(0.04):
            self.used.add("single-thread-groups")
            local = 1
        return Launch((local,), (r.choice((1, 2, 2, 2, 3)),))

    def arrays(self) -> list:
        """Global arrays G0.. (G0 read-write, the others read-write or read-only inputs),
        maybe a counter array C0 for atomics, and group-shared arrays L0.."""
        la = self.la
        self.per_group = la.threads_per_group
        self.total = la.threads_per_group * la.num_groups
        self.gsize = 2 * self.total + 4
        self.lsize = 2 * self.per_group + 4
        self.info: dict = {}
        out = []
        for i in range(self.rng.choice((1, 2, 2, 3))):
            role = "rw" if i == 0 or self.chance(0.5) else "in"
            out.append(self.add_array(f"G{i}", "global", self.gsize, role))
        if self.f.atomics and self.chance(0.4):
            out.append(self.add_array("C0", "global", self.gsize, "counter"))
        if self.f.shared and self.chance(0.75):
            for i in range(self.rng.choice((1, 1, 2))):
                as_param = self.lang == "opencl" and self.chance(0.3)
                a = self.add_array(f"L{i}", "shared", self.lsize, "rw")
                out.append(Array(a.name, a.space, a.size, as_param))
        return out

    def add_array(self, name: str, space: str, size: int, role: str) -> Array:
        info = _ArrayInfo(space, size, role)
        if role == "rw":
            kind = "lid" if space == "shared" else "glob"
            own = self.linear(kind)
            count = self.per_group if space == "shared" else self.total
            info.own = self.pick([(4, own), (1, Bin("*", own, Const(2))),
                                  (1, Bin("+", Bin("*", own, Const(2)), Const(1))),
                                  (1, Bin("-", Const(count - 1), own))])
            info.in_group = kind == "glob" and self.la.dims == 1 and info.own == own
        self.info[name] = info
        return Array(name, space, size)

    def size_of(self, space: str) -> int:
        return self.gsize if space == "global" else self.lsize

    # ------------------------------------------------------------------ id expressions

    def linear(self, kind: str):
        """The linear local id ("lid") or global id ("glob") of the launch."""
        la = self.la
        if la.dims == 1:
            return Id(kind, 0)
        width = Const(la.local[0]) if kind == "lid" else Const(la.local[0] * la.groups[0])
        if self.chance(0.3):
            width = Id("lsize", 0) if kind == "lid" else Bin("*", Id("lsize", 0), Id("ngroups", 0))
        return Bin("+", Bin("*", Id(kind, 1), width), Id(kind, 0))

    def id_range(self, kind: str, dim: int) -> tuple:
        la = self.la
        if dim >= la.dims:
            return (1, 1) if kind in ("lsize", "ngroups") else (0, 0)
        return {"lid": (0, la.local[dim] - 1), "gid": (0, la.groups[dim] - 1),
                "glob": (0, la.local[dim] * la.groups[dim] - 1),
                "lsize": (la.local[dim],) * 2, "ngroups": (la.groups[dim],) * 2}[kind]

    # ------------------------------------------------------------------ range analysis

    def range_of(self, e) -> tuple:
        """Conservative [lo, hi] of ``e`` over every thread, input and iteration."""
        if isinstance(e, Const):
            return (e.value, e.value)
        if isinstance(e, Id):
            return self.id_range(e.kind, e.dim)
        if isinstance(e, Var):
            v = self.lookup(e.name)
            return v.range if v else FULL
        if isinstance(e, Bin):
            return self.bin_range(e.op, self.range_of(e.left), self.range_of(e.right))
        if isinstance(e, Cond):
            return _union(self.range_of(e.then), self.range_of(e.other))
        return FULL  # loads, calls, atomics

    @staticmethod
    def bin_range(op: str, a: tuple, b: tuple) -> tuple:
        if op == "+":
            return _add(a, b)
        if op == "-":
            return _sub(a, b)
        if op == "*":
            return _mul(a, b)
        if op == "&":
            return (0, min(a[1], b[1]))
        if op in ("|", "^"):
            return (0, (1 << max(a[1], b[1]).bit_length()) - 1)
        if op == "%":
            return a if a[1] < b[0] else (0, b[1] - 1)
        if op == "/":
            return (a[0] // b[1], a[1] // b[0])
        if op == ">>":
            return (a[0] >> b[1], a[1] >> b[0])
        if op == "<<":
            return (a[0] << b[0], a[1] << b[1]) if a[1] << b[1] <= MASK else FULL
        return (0, 1)

    def uniform(self, e) -> bool:
        """Is ``e`` equal in every thread of a group (group ids, sizes, scalars, uniform locals)?"""
        if isinstance(e, Const):
            return True
        if isinstance(e, Id):
            return e.kind in ("gid", "lsize", "ngroups")
        if isinstance(e, Var):
            v = self.lookup(e.name)
            return v.uniform if v else e.name in self.scalars
        if isinstance(e, Bin):
            return self.uniform(e.left) and self.uniform(e.right)
        if isinstance(e, Cond):
            return self.uniform(e.cond) and self.uniform(e.then) and self.uniform(e.other)
        return False  # loads, calls, atomics

    # ------------------------------------------------------------------ scopes

    def lookup(self, name: str) -> _Local | None:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return None

    def visible(self) -> list:
        seen = {}
        for scope in self.scopes:
            seen.update(scope)
        return list(seen.values())

    def declare(self, name: str, value) -> Decl:
        self.scopes[-1][name] = _Local(name, self.range_of(value), self.uniform(value) and not self.divergent)
        return Decl(name, value)

    # ------------------------------------------------------------------ indices

    def free_index(self, space: str, limit: int, depth: int = 0):
        """Any index expression in [0, limit), built from ids, loop counters, small locals,
        constants and (at depth 0) data."""
        own = self.linear("lid" if space == "shared" or self.chance(0.1) else "glob")
        count = self.per_group if space == "shared" else self.total
        loops = [v for v in self.visible() if v.loop]
        small = [v for v in self.visible() if not v.loop and v.range[1] < 64]
        r = self.rng
        e = self.pick([
            (4, lambda: own),
            (3, lambda: Bin("+", own, Const(r.choice((1, 1, 2, count))))),
            (2, lambda: Bin("+", Bin("*", own, Const(2)), Const(r.choice((0, 1))))),
            (2, lambda: Bin("-", Const(count - 1), own)),
            (2, lambda: Const(r.randrange(min(limit, 6)))),
            (2, lambda: Id("gid", r.randrange(self.la.dims))),
            (1, lambda: Bin("/", own, Const(2))),
            (2, lambda: Bin("+", Bin("*", Id("gid", 0), Id("lsize", 0)), Const(r.randrange(3)))),
            (3 if loops else 0, lambda: self.loop_index(own, loops, count)),
            (2 if small else 0, lambda: Var(r.choice(small).name)),
            (2 if small else 0, lambda: Bin("+", own, Var(r.choice(small).name))),
            (2 if depth == 0 else 0, lambda: Bin("&", self.load(depth + 1), Const(r.choice((1, 3, 7))))),
            (1, lambda: Bin(r.choice(("^", "+", "*")), own, Const(r.randrange(1, 4)))),
            (1 if depth == 0 else 0, lambda: Bin("%", self.value(depth + 1), Const(limit))),
        ])
        return self.bounded(e, limit)

    def bounded(self, e, limit: int):
        """``e``, or ``e % limit`` if its range may reach ``limit``."""
        return Bin("%", e, Const(limit)) if self.range_of(e)[1] >= limit else e

    def loop_index(self, own, loops: list, count: int):
        i = Var(self.rng.choice(loops).name)
        return self.pick([(2, lambda: i), (2, lambda: Bin("+", own, i)),
                          (2, lambda: Bin("+", Bin("*", i, Const(count)), own)),
                          (1, lambda: Bin("+", own, Bin("*", i, Const(2))))])

    def index(self, name: str, write: bool, depth: int = 0):
        """An index into array ``name`` following the access discipline (module doc)."""
        if self.in_function is not None and name == self.in_function[0]:
            return self.pointer_index(self.in_function[1])
        info = self.info[name]
        if info.role != "rw" or self.risky():
            return self.free_index(info.space, info.size, depth)
        if write or name in self.dirty or self.chance(0.3):
            return info.own
        if info.space == "shared":
            return self.free_index("shared", info.size, depth)
        if info.in_group:
            return Bin("+", Bin("*", Id("gid", 0), Id("lsize", 0)), self.free_index("shared", self.per_group, depth))
        return info.own

    def pointer_index(self, space: str):
        """An index through a device function's pointer parameter ``p`` (``a`` is the
        caller's index, in [0, size - 1))."""
        r = self.rng
        return self.pick([(8, lambda: Var("a")), (1, lambda: Bin("+", Var("a"), Const(1))),
                          (1, lambda: self.free_index(space, self.size_of(space)))])

    # ------------------------------------------------------------------ values

    def arrays_of(self, space: str | None = None, roles=("rw", "in", "counter")) -> list:
        return [n for n, i in self.info.items() if (space is None or i.space == space) and i.role in roles]

    def load(self, depth: int = 0) -> Load:
        if self.in_function is not None:
            return Load("p", self.pointer_index(self.in_function[1]))
        roles = ("rw", "in", "counter") if self.risky() else ("rw", "in")
        name = self.rng.choice(self.arrays_of(roles=roles))
        return Load(name, self.index(name, False, depth))

    def atom(self, depth: int):
        r = self.rng
        vis = self.visible()
        return self.pick([
            (3, lambda: Const(r.choice((0, 1, 2, 3, 5, 7, 100, MASK)))),
            (3, lambda: Id(r.choice(("lid", "gid", "glob", "lsize", "ngroups")), r.randrange(self.la.dims))),
            (4 if vis else 0, lambda: Var(r.choice(vis).name)),
            (1 if self.kernel_scalars() else 0, lambda: Var(self.scalars[0])),
            (4 if depth < 2 else 0, lambda: self.load(depth + 1)),
        ])

    def value(self, depth: int = 0):
        r = self.rng
        if depth >= 2 or self.chance(0.45):
            return self.atom(depth)
        return self.pick([
            (6, lambda: Bin(r.choice(("+", "+", "-", "*", "^", "&", "|")), self.value(depth + 1),
                            self.value(depth + 1))),
            (1, lambda: Bin(r.choice(("/", "%")), self.value(depth + 1), Const(r.randrange(1, 5)))),
            (1, lambda: Bin(r.choice(("<<", ">>")), self.value(depth + 1), Const(r.randrange(0, 4)))),
            (1, lambda: Bin(r.choice(("<", "==", "!=")), self.value(depth + 1), self.value(depth + 1))),
            (1, lambda: Cond(self.condition("any"), self.value(depth + 1), self.value(depth + 1))),
            (1 if self.calls_ok() else 0, lambda: self.call(used=True)),
        ])

    # ------------------------------------------------------------------ conditions

    def condition(self, kind: str):
        """A branch condition: "uniform" (same in all threads of a group), "id" (depends on
        the local id), "data" (reads memory) or "any"."""
        r = self.rng
        la = self.la
        if kind == "any":
            kind = self.pick([(3, "uniform"), (4, "id"), (2 if self.f.data_branches else 0, "data")])
        if kind == "uniform":
            uni = [v for v in self.visible() if v.uniform]
            return self.pick([
                (3, lambda: Bin(r.choice(("==", "<", "!=")), Id("gid", r.randrange(la.dims)),
                                Const(r.randrange(3)))),
                (2 if self.kernel_scalars() else 0, lambda: Bin(r.choice((">", "<", "==")), Var(self.scalars[0]),
                                                                Const(r.randrange(4)))),
                (2 if uni else 0, lambda: Bin(r.choice(("<", "==", ">")), Var(r.choice(uni).name),
                                              Const(r.randrange(3)))),
                (1, lambda: Bin("==", Bin("&", Id("gid", 0), Const(1)), Const(0))),
            ])
        if kind == "id":
            lid = self.linear("lid")
            return self.pick([
                (3, lambda: Bin(r.choice(("<", ">=", "==", "!=")), lid, Const(r.randrange(max(1, self.per_group))))),
                (2, lambda: Bin("==", Bin("&", lid, Const(1)), Const(r.randrange(2)))),
                (1, lambda: Bin(r.choice(("<", ">")), Id("glob", 0), Const(r.randrange(8)))),
                (1, lambda: Bin("&&", self.condition("id"), self.condition("any"))),
            ])
        self.used.add("data-branch")
        return self.pick([
            (3, lambda: Bin(r.choice(("<", ">", "==", "!=")), self.load(), Const(r.randrange(8)))),
            (1, lambda: Bin("!=", Bin("&", self.load(), Const(1)), Const(0))),
            (1, lambda: Bin("||", self.condition("data"), self.condition("id"))),
        ])

    # ------------------------------------------------------------------ calls, atomics

    def kernel_scalars(self) -> list:
        """The scalar kernel arguments visible here (none inside a device function)."""
        return self.scalars if self.in_function is None else []

    def calls_ok(self) -> bool:
        return bool(self.functions) and self.in_function is None

    def call(self, used: bool):
        """A call of a device function (``used``: one that returns a value); the array
        passed is dirty afterwards if the function writes it."""
        cands = [f for f in self.functions if f.result is not None] if used else list(self.functions)
        if not cands:
            return self.atom(1)
        f = self.rng.choice(cands)
        space = self.func_space[f.name]
        writes = self.func_writes[f.name]
        names = self.arrays_of(space, ("rw",) if writes and not self.risky() else ("rw", "in"))
        name = self.rng.choice(names or self.arrays_of(space))
        index = self.index(name, writes)
        if self.info[name].role != "rw" or self.range_of(index)[1] >= self.size_of(space) - 1:
            index = self.bounded(index, self.size_of(space) - 1)
        if writes:
            self.dirty.add(name)
        self.used.add("call")
        return Call(f.name, (Var(name), index))

    def atomic(self):
        r = self.rng
        counters = self.arrays_of(roles=("counter",))
        name = r.choice(counters) if counters and self.chance(0.8) else r.choice(self.arrays_of(roles=("rw",)))
        info = self.info[name]
        if info.role == "counter":
            index = self.pick([(3, lambda: Const(r.randrange(3))), (1, lambda: Id("gid", 0)),
                               (1, lambda: self.free_index(info.space, info.size))])
            index = self.bounded(index, info.size)
        else:
            index = self.index(name, True)
            self.dirty.add(name)
        self.used.add("atomic")
        op = self.pick([(5, "add"), (1, "or"), (1, "max"), (1, "xchg")])
        return Atomic(op, name, index, self.pick([(3, lambda: Const(1)), (1, lambda: self.atom(1))]))

    # ------------------------------------------------------------------ statements

    def block(self, budget: int, depth: int) -> tuple:
        self.scopes.append({})
        out = []
        while budget > 0:
            stmts, cost = self.statement(depth, budget)
            out += stmts
            budget -= cost
        self.scopes.pop()
        return tuple(out)

    def statement(self, depth: int, budget: int) -> tuple:
        f = self.f
        nested = depth < 2 and budget >= 2
        barrier_w = 0
        if f.barriers:
            barrier_w = 4 if not (self.divergent or self.exited) else (2.5 if f.divergent_barriers else 0)
        kind = self.pick([
            (8, "store"), (5, "decl"), (3 if nested else 0, "if"),
            (3 if nested and f.loops else 0, "for"), (barrier_w, "barrier"),
            (1.5 if f.asserts else 0, "assert"), (1.5 if f.asserts else 0, "readback"),
            (2 if self.calls_ok() else 0, "call"), (2 if f.atomics else 0, "atomic"),
            (1 if f.benign_writes else 0, "benign"), (0.7 if f.atomics else 0, "ticket"),
        ])
        if kind == "store":
            return (self.store(),), 1
        if kind == "decl":
            return self.decl(self.value()), 1
        if kind == "if":
            return (self.branch(depth, budget),), min(budget, 4)
        if kind == "for":
            return (self.loop(depth, budget),), min(budget, 4)
        if kind == "barrier":
            return (self.barrier(),), 1
        if kind == "assert":
            return (self.assertion(self.assert_condition()),), 1
        if kind == "readback":
            return self.readback(), 2
        if kind == "call":
            if f.dead_reads and self.chance(0.6):
                self.used.add("unused-call")
                return (Eval(self.call(used=False)),), 1
            return self.decl(self.call(used=True)), 1
        if kind == "atomic":
            if self.chance(0.5):
                return (Eval(self.atomic()),), 1
            return self.decl(self.atomic()), 1
        if kind == "benign":
            return self.benign(), 1
        return self.ticket(), 2

    def store(self) -> Store:
        names = self.arrays_of() if self.risky() else self.arrays_of(roles=("rw",))
        name = self.rng.choice(names)
        index = self.index(name, True)
        self.dirty.add(name)
        return Store(name, index, self.value())

    def decl(self, value) -> tuple:
        name = self.fresh("v")
        out = [self.declare(name, value)]
        if not self.f.dead_reads:
            out.append(Assign("acc", Bin("^", Var("acc"), Var(name))))
        return tuple(out)

    def barrier(self) -> Barrier:
        if self.divergent or self.exited:
            self.used.add("divergent-barrier")
        self.used.add("barrier")
        self.barrier_ids += 1
        fences = frozenset(("local", "global"))
        if self.lang == "opencl":
            fences = self.pick([(4, fences), (2, frozenset(("local",))), (1, frozenset(("global",)))])
        covered = {"shared" if f == "local" else "global" for f in fences}
        self.dirty = {n for n in self.dirty if self.info[n].space not in covered}
        return Barrier(fences, self.barrier_ids)

    def branch(self, depth: int, budget: int) -> If:
        cond = self.condition("any")
        was, before = self.divergent, set(self.dirty)
        self.divergent = was or not self.uniform(cond)
        then = self.block(min(budget - 1, self.rng.randrange(1, 4)), depth + 1)
        if self.f.returns and self.chance(0.12):
            then += (Return(),)
            self.used.add("return")
            self.exited = self.exited or self.divergent
        after_then, self.dirty = self.dirty, set(before)
        other = self.block(self.rng.randrange(1, 3), depth + 1) if self.chance(0.35) else ()
        self.dirty |= after_then
        self.divergent = was
        return If(cond, then, other)

    def loop(self, depth: int, budget: int) -> For:
        r = self.rng
        la = self.la
        bound = self.pick([
            (4, lambda: Const(r.randrange(1, 4))),
            (2, lambda: Bin("+", Id("gid", 0), Const(1))),
            (1, lambda: Id("ngroups", r.randrange(la.dims))),
            (2, lambda: Bin("+", Bin("%", Id("lid", 0), Const(3)), Const(r.randrange(2)))),
            (1, lambda: Id("lid", 0)),
            (1 if self.scalars else 0, lambda: Var(self.scalars[0])),
            (1 if self.f.data_branches else 0, lambda: Bin("&", self.load(), Const(3))),
        ])
        uniform = self.uniform(bound) and not self.divergent
        self.used.add("loop" if uniform else "divergent-loop")
        var = self.fresh("i")
        hi = self.range_of(bound)[1]
        step = self.pick([(4, 1), (1, 2)])
        was, before = self.divergent, set(self.dirty)
        self.divergent = not uniform
        self.scopes.append({var: _Local(var, (0, max(0, hi - 1)) if hi < MASK else FULL, uniform, loop=True)})
        body = self.block(min(budget - 1, r.randrange(1, 5)), depth + 1)
        self.scopes.pop()
        self.divergent = was
        self.dirty |= before
        return For(var, bound, step, body)

    def assertion(self, cond) -> Assert:
        self.assert_ids += 1
        self.used.add("assert")
        return Assert(cond, self.assert_ids)

    def assert_condition(self):
        r = self.rng
        vis = [v for v in self.visible() if v.range[1] < 256]
        lid = self.linear("lid")
        return self.pick([
            (3, lambda: Bin(r.choice(("!=", "<", "<=")), self.free_index(r.choice(("shared", "global")), 64),
                            Const(r.randrange(2, 12)))),
            (2 if vis else 0, lambda: Bin(r.choice(("!=", "<")), Var(r.choice(vis).name), Const(r.randrange(1, 9)))),
            (1, lambda: Bin("<", lid, Id("lsize", 0) if self.la.dims == 1 else Const(self.per_group))),
            (1, lambda: Bin(r.choice(("!=", "<")), self.load(), Const(r.randrange(1, 9)))),
        ])

    def readback(self) -> tuple:
        """``A[i] = v; __assert(A[i] == v);``: holds unless another thread races on A[i]."""
        st = self.store()
        v = self.pick([(2, lambda: self.linear("lid")), (2, lambda: Id("glob", 0)), (1, lambda: Const(9))])
        return (Store(st.array, st.index, v), self.assertion(Bin("==", Load(st.array, st.index), v)))

    def benign(self) -> tuple:
        """A write that many threads make with the same value (a benign race within a
        group; across groups only when the value is the same in every group)."""
        r = self.rng
        name = r.choice(self.arrays_of(roles=("rw",)))
        info = self.info[name]
        index = self.pick([(2, lambda: Const(r.randrange(3))), (1, lambda: Id("gid", 0)),
                           (1, lambda: Bin("/", self.linear("lid"), Const(2)))])
        value = self.pick([(2, lambda: Const(r.randrange(8))), (1, lambda: Id("gid", 0)),
                           (1, lambda: Id("lsize", 0))])
        self.dirty.add(name)
        self.used.add("benign")
        return (Store(name, self.bounded(index, info.size), value),)

    def ticket(self) -> tuple:
        """``t = atomic_add(&C[0], 1); A[t % size] = ...``: distinct tickets, distinct elements."""
        r = self.rng
        counters = self.arrays_of(roles=("counter",)) or self.arrays_of(roles=("rw",))
        counter = r.choice(counters)
        target = r.choice(self.arrays_of(roles=("rw",)))
        name = self.fresh("t")
        self.used.add("atomic")
        d = self.declare(name, Atomic("add", counter, Const(r.randrange(2)), Const(1)))
        self.dirty.add(target)
        return (d, Store(target, Bin("%", Var(name), Const(self.info[target].size)), self.value()))

    # ------------------------------------------------------------------ functions

    def function(self, k: int) -> Function:
        """``unsigned fK(T *p, unsigned a)``: reads (and maybe writes, atomics, asserts)
        ``p[a]``; returns the sum of what it read, ``a + 1`` or nothing."""
        space = self.pick([(3, "global"), (1 if self.arrays_of("shared") else 0, "shared")])
        name = f"f{k}"
        self.func_space[name] = space
        self.in_function = ("p", space)
        self.scopes = [{"a": _Local("a", (0, self.size_of(space) - 2), False)}]
        body, reads, writes = [], [], False
        for _ in range(self.rng.randrange(1, 4)):
            kind = self.pick([(4, "read"), (2, "write"), (1 if self.f.asserts else 0, "assert"),
                              (1 if self.f.atomics else 0, "atomic")])
            index = self.pointer_index(space)
            if kind == "read":
                v = self.fresh("r")
                body.append(self.declare(v, Load("p", index)))
                reads.append(v)
            elif kind == "write":
                body.append(Store("p", index, self.value(1)))
                writes = True
            elif kind == "assert":
                body.append(self.assertion(Bin("!=", Load("p", index), Const(self.rng.randrange(8)))))
            else:
                body.append(Eval(Atomic("add", "p", index, Const(1))))
                writes = True
        self.func_writes[name] = writes
        result = None
        if reads and (not self.f.dead_reads or self.chance(0.7)):
            result = Var(reads[0])
            for v in reads[1:]:
                result = Bin("+", result, Var(v))
        elif not self.f.dead_reads or self.chance(0.5):
            result = Bin("+", Var("a"), Const(1))
        self.in_function = None
        return Function(name, (("p", f"ptr:{space}"), ("a", "value")), tuple(body), result)

    # ------------------------------------------------------------------ the kernel

    def kernel(self) -> Kernel:
        r = self.rng
        self.lang = r.choice(("opencl", "cuda"))
        self.la = self.launch()
        self.risk = r.choice(RISKS)
        arrays = self.arrays()
        self.scalars = ["n"] if self.chance(0.5) else []
        self.func_space: dict = {}
        self.func_writes: dict = {}
        self.functions = []
        if self.f.functions:
            for k in range(r.choice((0, 0, 1, 1, 2))):
                self.functions.append(self.function(k))
        self.scopes = [{}]
        live = not self.f.dead_reads
        prologue = ()
        if live:
            prologue = (Decl("acc", Const(0)),)
            self.scopes[0]["acc"] = _Local("acc", FULL, False)  # reassigned: any value
        body = self.block(r.randrange(3, 11), 0)
        if live:
            arrays.append(Array("OUT", "global", self.total))
            body = body + (Store("OUT", self.linear("glob"), Var("acc")),)
        return Kernel(f"k{self.seed}", self.lang, self.la, tuple(arrays), tuple(self.scalars),
                      tuple(self.functions), prologue + body, set(self.used))


def generate(seed: int, features: Features = Features()) -> Kernel:
    """The kernel of ``seed`` (deterministic for a seed and ``features``)."""
    return _Gen(seed, features).kernel()
