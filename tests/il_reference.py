"""A concrete reference over the one-thread IL: every thread of one or two groups.

``LaunchReference(subject).run(seed) -> Verdict`` runs the one-thread program (``.gbpl``,
bugle's output) in the IL interpreter (``vcgen.interp``) once per thread of the simulated
groups, on one shared memory, and reports the races, failing user assertions and barrier
divergence of that execution.

Execution: the threads of a group run one at a time, each up to its next barrier (or its
end), in increasing local id order; when all wait at the same barrier (same call site,
same number of barriers passed) they pass it; otherwise, or when some end while others
wait, the group has *barrier divergence* and stops.  Memory is one store per array
(group-shared arrays: one per group), read and written by every thread in that order,
so the run is a sequentially consistent execution of the kernel; the simulated groups
(group 0 and the last group of the launch) run one after the other, which the launch
may do (the other groups run later).  Atomics (``{:atomic}`` calls, whose result the IL
leaves arbitrary) are executed for real on that memory.  Everything reported is
therefore a behaviour of a real execution of the IL program (it under-approximates:
other inputs, schedules and groups are not tried).

Races are decided as in ``oracle.reference``: two accesses of different threads to one
cell (byte, at byte level) of one array storage, not both reads, not both atomics, and
not ordered -- same group and a barrier between them whose fence covers the array's
memory space (``$bugle_barrier(local_fence, global_fence)``), or different groups and a
group-shared array (separate storage).  Same-value write-write pairs are benign unless
``benign_tolerance`` is off.

Programs the reference cannot run faithfully raise ``Unsupported``: asynchronous copies
and warp operations, floating-point atomics and byte-level arithmetic atomics, and
``__assume``.  Floating-point operations are uninterpreted functions in the IL; the
interpreter gives them pseudo-random values (``Verdict.uninterpreted`` says a run used
the kernel's floats, so a value-dependent verdict needs a second look).
"""
from __future__ import annotations

import random
import threading
from dataclasses import dataclass, field

from vcgen import il
from vcgen.interp.interpreter import Interpreter
from vcgen.interp.trace import Event
from vcgen.interp.values import Infeasible as _Infeasible, InterpError, MapVal

MAX_STEPS = 400_000  # per thread
TOTAL_STEPS = 4_000_000  # per group: many threads get fewer steps each
MAX_THREADS = 1024  # per simulated group


class Unsupported(Exception):
    """The program is outside the reference's scope; message = reason."""


class _Abort(BaseException):
    """Stops the other threads of a group (divergence, an error in one thread)."""


@dataclass
class Verdict:
    """``problems``: "race: ...", "assert: ...", "divergence: ..." lines (real); ``benign``:
    same-value write-write races; ``skipped``: why the run gave no verdict (or None)."""
    problems: list = field(default_factory=list)
    benign: list = field(default_factory=list)
    skipped: str | None = None
    uninterpreted: bool = False
    threads: int = 0

    @property
    def racy(self) -> bool:
        return bool(self.problems)


def _unsigned_ops(w: int) -> dict:
    m = (1 << w) - 1
    sgn = lambda v: v - (1 << w) if v >> (w - 1) & 1 else v
    return {
        "add": lambda o, v: (o + v) & m, "sub": lambda o, v: (o - v) & m, "xchg": lambda o, v: v,
        "store": lambda o, v: v, "and": lambda o, v: o & v, "or": lambda o, v: o | v,
        "xor": lambda o, v: o ^ v, "nand": lambda o, v: ~(o & v) & m,
        "umin": min, "umax": max,
        "min": lambda o, v: o if sgn(o) <= sgn(v) else v, "max": lambda o, v: o if sgn(o) >= sgn(v) else v,
        "uinc_wrap": lambda o, v: 0 if o >= v else (o + 1) & m,
        "udec_wrap": lambda o, v: v if o == 0 or o > v else o - 1,
    }


_BYTEWISE = ("xchg", "store", "and", "or", "xor", "load", "cmpxchg")


class _ThreadInterpreter(Interpreter):
    """The interpreter of one thread: shared array stores, barriers that wait for the
    group, atomics executed on the shared memory."""

    def __init__(self, program, consts, params, seed, memory: dict, group: "_GroupRun", tid: int,
                 widths: dict):
        super().__init__(program, consts, params, seed,
                         max_steps=max(20_000, min(MAX_STEPS, TOTAL_STEPS // group.n)))
        self.memory = memory
        self.group = group
        self.tid = tid
        self.widths = widths

    def _choose_inputs(self, st):
        params = super()._choose_inputs(st)
        st.g.update(self.memory)  # the shared stores, not copies
        return params

    def _call(self, st, stack, fr, cmd):
        _, c, argfs, outs = cmd
        callee = self.procs[c.proc]
        if il.has_attr(callee.decl.attrs, "barrier"):
            if st.choices:
                raise Unsupported("a barrier after a nondeterministic branch (the interpreter may backtrack "
                                  "over it)")
            super()._call(st, stack, fr, cmd)
            self.group.arrive(self.tid, (c.proc, fr.label(), fr.pc))
            return
        a = il.attr(c.attrs, "atomic")
        if a is not None:
            self._atomic(st, fr, c, a, [f(st, fr.locals) for f in argfs], outs)
            return
        super()._call(st, stack, fr, cmd)

    def _atomic(self, st, fr, c, a, args, outs) -> None:
        array, op = a.args[0], a.args[1] if len(a.args) > 1 else "?"
        w = self.widths[array]
        m = st.g[array]
        off = args[0]
        old = m.get(off)
        if op == "cmpxchg":
            new = args[2] if old == args[1] else old
        elif op == "load":
            new = old
        else:
            f = _unsigned_ops(w).get(op)
            if f is None:
                raise Unsupported(f"atomic operation {op}")
            if w == 8 and op not in _BYTEWISE:
                raise Unsupported(f"byte-level atomic {op} (carries between bytes)")
            new = f(old, args[1])
        st.write(m.entries, off, new)
        st.events.append(Event("atomic", fr.proc.name, fr.label(), fr.srcloc, array, off, old, pc=fr.pc - 1))
        for (o, is_local) in outs[:1]:
            self._store(st, fr, o, is_local, old)


class _GroupRun:
    """The threads of one group, run one at a time up to their next barrier."""

    def __init__(self, n: int):
        self.n = n
        self.cond = threading.Condition()
        self.turn = 0
        self.stops: list = [None] * n
        self.aborted: str | None = None
        self.divergence: str | None = None

    def _wait_turn(self, tid: int) -> None:
        self.cond.wait_for(lambda: self.turn == tid or self.aborted is not None)
        if self.aborted is not None:
            raise _Abort()

    def start(self, tid: int) -> None:
        with self.cond:
            self._wait_turn(tid)

    def arrive(self, tid: int, site) -> None:
        """Thread ``tid`` waits at barrier ``site``; returns when the group passes it."""
        with self.cond:
            self.stops[tid] = ("barrier", site)
            self._next(tid)
            self._wait_turn(tid)

    def finish(self, tid: int) -> None:
        with self.cond:
            self.stops[tid] = ("end",)
            self._next(tid)

    def abort(self, why: str) -> None:
        with self.cond:
            if self.aborted is None:
                self.aborted = why
            self.cond.notify_all()

    def _next(self, tid: int) -> None:
        if tid + 1 < self.n:
            self.turn = tid + 1
        else:
            kinds = set(self.stops)
            if len(kinds) > 1:
                groups: dict = {}
                for t, s in enumerate(self.stops):
                    groups.setdefault(s, []).append(t)
                self.divergence = "; ".join(
                    ("end" if s[0] == "end" else f"barrier in block {s[1][1]}") + f": local ids {ts[:6]}"
                    + ("..." if len(ts) > 6 else "") for s, ts in groups.items())
                self.aborted = "divergence"
            elif self.stops[0][0] == "end":
                self.turn = -1  # all done
            else:
                self.turn = 0
        self.cond.notify_all()


@dataclass
class Subject:
    """A one-thread program with its launch and the verifier options that matter here."""
    name: str
    program: il.Program
    local_size: tuple  # (x, y, z)
    num_groups: tuple
    global_offset: tuple = (0, 0, 0)
    only_intra_group: bool = False
    only_divergence: bool = False
    benign_tolerance: bool = True


class LaunchReference:
    """Prepared reference runs of one subject (see the module doc).  Raises Unsupported."""

    def __init__(self, subject: Subject):
        self.s = subject
        prog = subject.program
        kernel = prog.kernel()
        self._check_supported(prog, kernel)
        self.arrays = {d.name: d for d in prog.globals() if isinstance(d.type, il.MapType)
                       and not il.has_attr(d.attrs, "constant")}
        self.space = {n: "shared" if il.has_attr(d.attrs, "group_shared") else "global"
                      for n, d in self.arrays.items()}
        self.widths = {n: _elem_width(d) for n, d in self.arrays.items()}
        self.consts = set(prog.consts())
        self.uninterpreted = {d.name for d in prog.decls if isinstance(d, il.FunctionDecl) and d.body is None
                              and not il.has_attr(d.attrs, "bvbuiltin") and not il.has_attr(d.attrs, "annotation")}
        self.program = prog
        threads = _product(subject.local_size)
        if threads > MAX_THREADS:
            raise Unsupported(f"{threads} threads per group (the reference runs at most {MAX_THREADS})")

    @staticmethod
    def _check_supported(prog: il.Program, kernel: il.ProcedureDecl) -> None:
        for d in prog.procedures():
            if d.blocks is None and (il.has_attr(d.attrs, "warp_op") or il.has_attr(d.attrs, "async_copy")
                                     or il.has_attr(d.attrs, "wait_group_events")):
                raise Unsupported(f"{d.name}: warp operations and asynchronous copies are not modelled")
        for p in prog.procedures():
            for b in p.blocks or ():
                for c in b.cmds:
                    if isinstance(c, il.Assume) and il.has_attr(c.attrs, "user_assume"):
                        raise Unsupported("__assume: random inputs rarely satisfy a user assumption")
                    if isinstance(c, il.Assert) and il.has_attr(c.attrs, "global_annotation"):
                        raise Unsupported("__global_ annotations need both threads of the two-thread program")

    # ------------------------------------------------------------------ runs

    def _ids(self, local: tuple, group: tuple) -> dict:
        out = {}
        for i, d in enumerate("xyz"):
            for name, v in ((f"local_id_{d}", local[i]), (f"group_id_{d}", group[i]),
                            (f"group_size_{d}", self.s.local_size[i]), (f"num_groups_{d}", self.s.num_groups[i]),
                            (f"global_offset_{d}", self.s.global_offset[i])):
                if name in self.consts:
                    out[name] = v
        return out

    def run(self, seed: int) -> Verdict:
        """One execution on inputs drawn from ``seed``."""
        rng = random.Random(seed)
        v = Verdict(uninterpreted=bool(self.uninterpreted))
        groups = [(0, 0, 0)]
        last = tuple(n - 1 for n in self.s.num_groups)
        if last != (0, 0, 0):
            groups.append(last)
        try:
            params = self._params(seed)
        except InterpError as e:
            v.skipped = f"inputs: {e}"
            return v
        global_mem = {n: MapVal(rng.getrandbits(64), d.type.range) for n, d in self.arrays.items()
                      if self.space[n] == "global"}
        log: list = []  # (thread number, group number, kind, array, index, value, epochs)
        for gnum, group in enumerate(groups):
            mem = dict(global_mem)
            mem.update({n: MapVal(rng.getrandbits(64), d.type.range) for n, d in self.arrays.items()
                        if self.space[n] == "shared"})
            why = self._run_group(group, gnum, mem, params, seed, log, v)
            if why is not None:
                v.skipped = why
                return v
        races, benign = _races(log, self.space, self.s.benign_tolerance, self.s.only_intra_group)
        if not self.s.only_divergence:
            v.problems += races
        v.benign = benign
        return v

    def _params(self, seed: int) -> dict:
        """Scalar arguments satisfying ``requires`` for thread 0 of group 0; three seeds
        out of four reduce them modulo 257 when that still satisfies ``requires`` (loops
        bounded by an argument then end within the step bound)."""
        ids = self._ids((0, 0, 0), (0, 0, 0))
        _, params = Interpreter(self.program, ids, seed=seed).choose_inputs()
        if seed % 4 != 3:
            small = {n: x % 257 if isinstance(x, int) and not isinstance(x, bool) else x for n, x in params.items()}
            try:
                Interpreter(self.program, ids, small, seed=seed).choose_inputs()
                return small
            except InterpError:
                pass
        return params

    def _run_group(self, group: tuple, gnum: int, mem: dict, params: dict, seed: int, log: list,
                   v: Verdict) -> str | None:
        """Run every thread of ``group``; add its accesses to ``log`` and its problems to
        ``v``; returns a skip reason or None."""
        locals_ = _id_tuples(self.s.local_size)
        g = _GroupRun(len(locals_))
        runs: dict = {}
        errors: dict = {}

        def work(tid: int, local: tuple) -> None:
            try:
                g.start(tid)
                it = _ThreadInterpreter(self.program, self._ids(local, group), params, seed, mem, g, tid,
                                        self.widths)
                runs[tid] = it.run()
            except _Abort:
                return
            except BaseException as e:  # reported by the caller; the group must not wait forever
                errors[tid] = e
                g.abort(f"thread {tid}: {e}")
                return
            g.finish(tid)

        workers = [threading.Thread(target=work, args=(t, l), daemon=True) for t, l in enumerate(locals_)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        v.threads += len(locals_)
        if errors:
            e = next(iter(errors.values()))
            if isinstance(e, (Unsupported, InterpError)):
                return f"{type(e).__name__}: {e}"
            raise e
        if g.divergence is not None:
            v.problems.append(f"divergence: barrier divergence in group {group}: {g.divergence}")
        tpg = len(locals_)
        for tid, r in runs.items():
            if not r.feasible:
                return f"thread {locals_[tid]} of group {group}: no feasible path (requires or assume)"
            number = gnum * tpg + tid
            epochs = {"local": 0, "global": 0}
            for e in r.events:
                if e.kind == "barrier":
                    lf, gf = (int(x) for x in e.args[:2])
                    epochs["local"] += lf
                    epochs["global"] += gf
                elif e.kind in ("read", "write", "atomic") and e.map in self.space:
                    space = "local" if self.space[e.map] == "shared" else "global"
                    log.append((number, gnum, e.kind, e.map, e.index, e.value, epochs[space], e.sourceloc))
            for f in r.assert_failures:
                if il.has_attr(f.attrs, "user_assert") or il.has_attr(f.attrs, "null_pointer"):
                    kind = "assertion" if il.has_attr(f.attrs, "user_assert") else "null pointer access"
                    v.problems.append(f"assert: {kind} fails for local id {locals_[tid]} in group {group} "
                                      f"at {_loc(f.sourceloc)}")
        return None


def _elem_width(d: il.VarDecl) -> int:
    a = il.attr(d.attrs, "elem_width")
    if a is not None:
        return int(a.args[0].value)
    return d.type.range.width if isinstance(d.type.range, il.BvType) else 0


def _product(dims: tuple) -> int:
    n = 1
    for d in dims:
        n *= d
    return n


def _id_tuples(dims: tuple) -> list:
    out = []
    for z in range(dims[2]):
        for y in range(dims[1]):
            for x in range(dims[0]):
                out.append((x, y, z))
    return out


def _loc(src) -> str:
    return ":".join(map(str, src)) if src else "?"


def _races(log: list, space: dict, benign_tolerance: bool, only_intra_group: bool) -> tuple:
    """(races, benign races) of the access log, at most one of each per cell."""
    by_cell: dict = {}
    for entry in log:
        number, gnum, kind, arr, index, value, epoch, src = entry
        key = (arr, gnum if space[arr] == "shared" else None, index)
        by_cell.setdefault(key, []).append(entry)
    races, benign = [], []
    for key, accs in by_cell.items():
        if len(accs) < 2 or all(a[2] == "read" for a in accs):
            continue
        found = found_benign = None
        for i, a in enumerate(accs):
            for b in accs[i + 1:]:
                if a[0] == b[0] or (a[1] == b[1] and a[6] != b[6]):
                    continue  # same thread, or ordered by a barrier of their group
                if a[1] != b[1] and only_intra_group:
                    continue
                kinds = {a[2], b[2]}
                if kinds == {"read"} or kinds == {"atomic"}:
                    continue
                if kinds == {"write"} and a[5] == b[5] and benign_tolerance:
                    found_benign = found_benign or (a, b)
                    continue
                found = (a, b)
                break
            if found:
                break
        pair = found or found_benign
        if pair:
            a, b = pair
            scope = "within a group" if a[1] == b[1] else "between groups"
            text = (f"{a[2]}-{b[2]} race on {key[0]}[{key[2]}] {scope}: thread {a[0]} at {_loc(a[7])} "
                    f"(value {a[5]}), thread {b[0]} at {_loc(b[7])} (value {b[5]})")
            (races if found else benign).append(("race: " if found else "benign: ") + text)
    return races, benign
