"""Facts the candidate rules share: kernel-wide (single definitions, logged accesses,
reachability, enclosing conditions) and per loop (modified variables, counters, guards).

Rule modules receive a ``LoopContext`` and return ``(rule, expression)`` pairs over the
two-thread program's names; ``CandidateFactory`` (``__init__``) turns them into guarded
``assert {:candidate "rN"}`` commands (paper 003 appendix A; paper 000 section 5.3).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cached_property
from typing import Iterator, NamedTuple, Protocol

import networkx as nx

from .. import il
from ..analysis.cfg import control_flow_graph
from ..analysis.loops import Loop
from ..analysis.pinned import pinned_by_requires
from ..il.attributes import sourceloc
from ..twothread.kernel import ArrayInfo
from ..twothread.parts import Parts
from .bvexpr import CMP_TO_BOUND, args_of, bv_op, op_of


Candidate = tuple[str, il.Expr]  # (rule name "rN", candidate expression over two-thread names)

# Largest inlined definition (nodes of its tree) ``KernelFacts.inline`` substitutes for
# a variable; index expressions have tens of nodes.
INLINE_LIMIT = 1000


@dataclass(frozen=True)
class LoopFacts:
    """A loop of the lock-step program: its one-thread ``loop`` and the range
    ``lo <= cur$t < hi`` of block numbers of its blocks (``lo`` is the header's)."""
    loop: Loop
    lo: int
    hi: int


@dataclass(frozen=True)
class Access:
    """A logged access of the one-thread kernel: ``offset`` is the inlined one-thread index
    (in the array's domain type), ``kind`` READ | WRITE | ATOMIC, ``loc`` the source key,
    ``index`` the position of its command in ``block``, ``value`` a write's inlined
    one-thread value (None for reads and atomics)."""
    array: str
    kind: str
    offset: il.Expr
    block: str
    loc: tuple | None
    index: int = 0
    value: il.Expr | None = None

    @cached_property
    def offset_vars(self) -> frozenset[str]:
        """The variables ``offset`` reads (computed once: the rules ask it per loop and,
        for the enclosing loops' accesses, per enclosing loop)."""
        return frozenset(il.free_vars(self.offset))


class Assignments(NamedTuple):
    """The inlined right-hand sides of a variable's assignments inside a loop and outside it."""
    inside: list[il.Expr]
    outside: list[il.Expr]


@dataclass(frozen=True)
class Counter_:
    """A loop counter ``v`` assigned once before the loop (``init``) and once in it (``step``,
    the inlined right-hand side), both one-thread expressions."""
    var: str
    width: int
    init: il.Expr
    step: il.Expr


class KernelFacts:
    """Kernel-wide facts, computed once per lock-step transformation."""

    def __init__(self, parts: Parts):
        self.parts = parts
        self.info = parts.info
        self.defs = self._single_definitions()
        self.accesses = self._accesses()
        self._reach: dict = {}
        self._skip: dict[str, bool] = {}
        self._loop_contexts: dict[str, LoopContext] = {}
        self._dominated: dict[str, frozenset[str]] = {}
        self._accesses_of: dict[tuple[str, str], list[Access]] = {}
        self._assigned_inlined: dict[str, list[tuple[str, il.Expr]]] = {}
        self._divergent: dict[str, tuple[il.Expr, frozenset[str]] | None] = {}
        self._partitions: dict[str, il.Expr | None] = {}
        self._thread1_offsets: dict[int, il.Expr] = {}  # id(Access) -> offset; accesses live in self.accesses
        self._comparisons: dict[str, list[tuple[il.FunApp, frozenset[str]]]] = {}
        self._edges: dict[tuple, frozenset[tuple[str, str]]] = {}  # KernelFacts._log_edges
        self._stale: dict[tuple, frozenset[str]] = {}  # KernelFacts.stale_at

    def _single_definitions(self) -> dict:
        """Locals assigned exactly once, by a memory-free expression: name -> defining
        expression, with the definitions of the locals it reads inlined -- except those
        whose inlined tree exceeds ``INLINE_LIMIT`` nodes, which stay variables.

        Why the limit: inlined definitions share sub-expressions, but every consumer (the
        rules' ``subexprs``, ``free_vars``, hashing, printing) walks them as trees, and a
        chain of definitions each reading the previous ones twice doubles the tree at
        each step (AMD Mandelbrot: 16 steps ``y = fma(2*x, y, y0); x = fma(-y, y, ...)``
        before a branch in the loop; candidate generation ran for more than ten minutes).
        A variable left un-inlined is what every local assigned several times already is;
        candidates mentioning it are still checked by Houdini, so this only changes which
        candidates are generated, never what is proved."""
        k = self.info.kernel
        counts: Counter = Counter()
        rhs: dict = {}
        for b in k.body():
            for c in b.cmds:
                for n in il.cmd_writes(c):
                    counts[n] += 1
                if isinstance(c, il.Assign):
                    for l, r in zip(c.lhss, c.rhss):
                        if isinstance(l, il.VarLhs):
                            rhs[l.name] = r
        memory = set(self.info.arrays) | {n for n, t in self.info.local_types.items() if isinstance(t, il.MapType)}
        defs = {n: e for n, e in rhs.items() if counts[n] == 1 and not (il.free_vars(e) & memory)}
        resolved: dict = {}
        sizes: dict[int, int] = {}

        def resolve(n: str, depth: int = 0) -> il.Expr:
            if n in resolved:
                return resolved[n]
            e = defs[n]
            if depth < 50:
                sub = {v: resolve(v, depth + 1) for v in il.free_vars(e) if v in defs}
                e = il.substitute(e, {v: x for v, x in sub.items() if il.tree_size(x, sizes) <= INLINE_LIMIT})
            resolved[n] = e
            return e

        for n in defs:
            resolve(n)
        return resolved

    @cached_property
    def assigned(self) -> dict[str, list[tuple[str, il.Expr]]]:
        """name -> ``(block, right-hand side)`` of each assignment to the local, in program
        order (one walk, shared by the per-loop counter analyses: scanning the kernel per
        loop and variable made them cubic in the nesting depth)."""
        out: dict[str, list[tuple[str, il.Expr]]] = {}
        for b in self.info.blocks:
            for c in b.cmds:
                if isinstance(c, il.Assign):
                    for l, r in zip(c.lhss, c.rhss):
                        if isinstance(l, il.VarLhs):
                            out.setdefault(l.name, []).append((b.label, r))
        return out

    @cached_property
    def domains(self) -> dict[str, frozenset[il.Expr]]:
        """``finite_domain.domains`` of the kernel, computed once (not per loop head)."""
        from .finite_domain import domains  # lazy: finite_domain imports this module (a cycle at load time)
        return domains(self.info)

    def divergent_partition(self, label: str) -> tuple[il.Expr, frozenset[str]] | None:
        """``(condition, its variables)`` when block ``label`` starts with a partition
        assumption whose inlined condition differs between the threads; None otherwise.
        Cached per block: the loops enclosing a block (``LoopContext``'s conditions) each
        ask, which inlined and instantiated it once per loop of a nest."""
        if label not in self._divergent:
            c = self.partition_condition(label)
            th = self.parts.threads
            self._divergent[label] = None
            if c is not None and th.ex(c, 1) != th.ex(c, 2):
                self._divergent[label] = (c, frozenset(il.free_vars(c)))
        return self._divergent[label]

    def partition_condition(self, label: str) -> il.Expr | None:
        """The inlined condition of block ``label``'s leading partition assumption (the
        branch condition that leads to it), or None; cached per block."""
        if label not in self._partitions:
            cmds = self.info.src[label].cmds
            first = cmds[0] if cmds else None
            self._partitions[label] = self.inline(first.expr) \
                if isinstance(first, il.Assume) and il.has_attr(first.attrs, "partition") else None
        return self._partitions[label]

    def thread1_offset(self, acc: Access) -> il.Expr:
        """Thread 1's instance of ``acc.offset`` (cached per access for every loop's rules)."""
        key = id(acc)
        if key not in self._thread1_offsets:
            self._thread1_offsets[key] = self.parts.threads.ex(acc.offset, 1)
        return self._thread1_offsets[key]

    def assigned_inlined(self, v: str) -> list[tuple[str, il.Expr]]:
        """``assigned[v]`` with each right-hand side inlined (``inline``), computed once per
        variable: the counter analyses of every loop enclosing an assignment ask for it,
        which on a loop nest inlined each counter's assignments once per enclosing loop."""
        if v not in self._assigned_inlined:
            self._assigned_inlined[v] = [(lab, self.inline(r)) for lab, r in self.assigned.get(v, ())]
        return self._assigned_inlined[v]

    def inline(self, e: il.Expr) -> il.Expr:
        """``e`` with single-definition locals replaced by their (inlined) definitions."""
        return il.substitute(e, {v: self.defs[v] for v in il.free_vars(e) if v in self.defs})

    def _accesses(self) -> list:
        out = []
        for b in self.info.blocks:
            loc = None
            for i, c in enumerate(b.cmds):
                if isinstance(c, il.Assume) and il.has_attr(c.attrs, "sourceloc"):
                    loc = sourceloc(c.attrs)
                if isinstance(c, il.Call) and il.has_attr(c.attrs, "atomic"):
                    out.append(Access(il.attr_args(c.attrs, "atomic")[0], "ATOMIC", self.inline(c.args[0]), b.label, loc, i))
                    continue
                if not isinstance(c, il.Assign) or len(c.lhss) != 1:
                    continue
                l, r = c.lhss[0], c.rhss[0]
                if isinstance(l, il.MapLhs) and l.name in self.info.arrays:
                    out.append(Access(l.name, "WRITE", self.inline(l.index), b.label, loc, i, self.inline(r)))
                elif isinstance(r, il.MapSelect) and isinstance(r.map, il.Var) and r.map.name in self.info.arrays:
                    out.append(Access(r.map.name, "READ", self.inline(r.index), b.label, loc, i))
        return [a for a in out if self.info.arrays[a.array].logged]

    @cached_property
    def block_reads(self) -> dict[str, frozenset[str]]:
        """Label -> the variables the commands of that block read (computed once: the
        rules ask it per variable and per loop, which walking the program each time made
        cubic -- rodinia heartwall, CUDA dxtc: minutes of candidate generation)."""
        return {lab: frozenset(v for c in b.cmds for x in il.cmd_exprs(c) for v in il.free_vars(x))
                for lab, b in self.info.src.items()}

    @cached_property
    def pinned(self) -> dict[str, il.BvLit]:
        """Scalar parameters a kernel precondition equates with a literal (``requires
        $width == 1024bv32``, also as a conjunct; ``analysis.pinned``): name -> literal.
        Parameters are never assigned (bugle copies them), so the equality holds
        everywhere."""
        params = {p[0] for p in self.info.kernel.params}
        return {n: v for n, v in pinned_by_requires(self.info.kernel).items()
                if n in params and isinstance(v, il.BvLit)}

    def accesses_of(self, name: str, kind: str) -> list[Access]:
        """The logged accesses of ``kind`` to array ``name``, in program order (cached per
        log: every rule of every loop asks)."""
        key = (name, kind)
        if key not in self._accesses_of:
            self._accesses_of[key] = [a for a in self.accesses if a.array == name and a.kind == kind]
        return self._accesses_of[key]

    @cached_property
    def writers(self) -> dict[str, frozenset[str]]:
        """Variable -> the labels of the blocks with a command that may write it
        (``il.cmd_writes``), from one walk of the kernel."""
        out: dict[str, set[str]] = {}
        for lab, b in self.info.src.items():
            for c in b.cmds:
                for v in il.cmd_writes(c):
                    out.setdefault(v, set()).add(lab)
        return {v: frozenset(labs) for v, labs in out.items()}

    @cached_property
    def innermost_loop(self) -> dict[str, Loop]:
        """Label -> the innermost loop whose blocks contain it (labels outside every loop
        are absent)."""
        def depth(lp: Loop) -> int:
            d = 0
            while lp.parent is not None:
                lp, d = lp.parent, d + 1
            return d
        out: dict[str, Loop] = {}
        for lp in sorted(self.info.loops, key=depth):  # deeper loops overwrite their parents
            for lab in lp.blocks:
                out[lab] = lp
        return out

    def partition_comparisons(self, label: str) -> list[tuple[il.FunApp, frozenset[str]]]:
        """``(comparison, its variables)`` for the bit-vector comparisons in the inlined
        partition conditions of the successors of block ``label`` (``LoopContext.guards``),
        in order; cached per block, so that the guards of a loop nest cost each block's
        conditions once rather than once per enclosing loop."""
        if label not in self._comparisons:
            out = []
            for t in self.info.succ[label]:
                c = self.partition_condition(t)
                for x in il.subexprs(c) if c is not None else ():
                    if isinstance(x, il.FunApp) and len(x.args) == 2 and (bv_op(x.name) or (0, ""))[1] in CMP_TO_BOUND:
                        out.append((x, frozenset(il.free_vars(x))))
            self._comparisons[label] = out
        return self._comparisons[label]

    def written(self, array: str) -> bool:
        """Does the kernel write ``array`` (plainly or atomically)?"""
        return any(a.array == array and a.kind != "READ" for a in self.accesses)

    @cached_property
    def adversarial_data(self) -> set[str]:
        """Locals whose value depends, through assignments (any of them, anywhere in the
        kernel), on a read of a global or group-shared array under the adversarial
        abstraction.  Such a read is a fresh arbitrary value per thread (paper 000
        section 4.4), so the two threads' values of such a local are never provably equal:
        rule r16 proposes nothing for them (on PolyBench gemm, 90 such candidates cost
        Houdini about 40 rounds of solver queries, DYN refuting only the ones its bounded
        runs reach).  A havocked local (an undefined value, or a result of the value
        abstraction, ``vcgen.analysis.values``) is such a fresh value too."""
        adversarial = {n for n, a in self.info.arrays.items() if not a.equality and a.space != "constant"}
        deps: dict[str, set[str]] = {}
        tainted: set[str] = set()
        for b in self.info.kernel.body():
            for c in b.cmds:
                if isinstance(c, il.Havoc):
                    tainted |= {v for v in c.vars if v not in self.info.arrays}
                if not isinstance(c, il.Assign):
                    continue
                for l, r in zip(c.lhss, c.rhss):
                    if not isinstance(l, il.VarLhs):
                        continue
                    used = il.free_vars(r)
                    if used & adversarial:
                        tainted.add(l.name)
                    deps.setdefault(l.name, set()).update(used)
        users: dict[str, set[str]] = {}
        for v, used in deps.items():
            for u in used:
                users.setdefault(u, set()).add(v)
        work = list(tainted)
        while work:
            for v in users.get(work.pop(), ()):
                if v not in tainted:
                    tainted.add(v)
                    work.append(v)
        return tainted

    @cached_property
    def cfg(self) -> nx.DiGraph:
        return control_flow_graph(self.info.kernel)

    @cached_property
    def idom(self) -> dict[str, str]:
        """Immediate dominators of the blocks reachable from the entry."""
        g = self.cfg.copy()
        entry = self.info.blocks[0].label
        reachable = nx.descendants(g, entry) | {entry}  # one search, not one per block
        g.remove_nodes_from([n for n in list(g) if n not in reachable])
        return nx.immediate_dominators(g, entry)

    def dominators(self, label: str) -> list[str]:
        """Strict dominators of ``label``, innermost first."""
        out, x = [], label
        while x in self.idom and self.idom[x] != x:
            x = self.idom[x]
            out.append(x)
        return out

    @cached_property
    def dominator_tree(self) -> nx.DiGraph:
        """Edges immediate dominator -> block, over the blocks reachable from the entry."""
        tree = nx.DiGraph()
        tree.add_nodes_from(self.idom)
        tree.add_edges_from((d, b) for b, d in self.idom.items() if d != b)
        return tree

    def dominated(self, label: str) -> frozenset[str]:
        """Blocks dominated by ``label`` (itself included; empty when unreachable).
        Cached per label: rules r4 ask it per condition and per log, and walking every
        block's dominator chain each time was quadratic in the blocks (rodinia heartwall,
        CUDA dxtc)."""
        if label not in self._dominated:
            tree = self.dominator_tree
            self._dominated[label] = frozenset(nx.descendants(tree, label) | {label}) if label in tree else frozenset()
        return self._dominated[label]

    def resets(self, c: il.Cmd, array: str) -> bool:
        """Is ``c`` a barrier whose fence (a literal ``1bv1`` local or global flag) covers
        ``array``, so that it resets the array's logs for threads of one group?"""
        if not isinstance(c, il.Call) or il.has_attr(c.attrs, "atomic") or len(c.args) != 2:
            return False
        callee = self.info.procedure(c.proc)
        if callee is None or not il.has_attr(callee.attrs, "barrier"):
            return False
        space = self.info.arrays[array].space
        flag = c.args[0] if space == "group_shared" else c.args[1] if space == "global" else None
        return flag == il.BvLit(1, 1)

    def logged_at(self, acc: Access, header: str, any_group: bool = False) -> bool:
        """Can the log entry of ``acc`` still be there (for threads of one group) when
        control next reaches ``header``: is there a path from just after the access to the
        header start on which no barrier resets the array's logs?  ``any_group``: for
        threads of any two groups (``_log_edges``; docs/design.md 5.6).

        For a group-shared array and ``any_group``, two over-approximations must both say
        yes (each alone is one; ``_log_edges`` with ``any_group`` lets only barriers of
        uniformly executed blocks reset, which keeps every entry in a tiled kernel whose
        tile loops read group ids): the second, ``_parked_logged``, follows thread 1's own
        path, whose barriers reset the log whenever thread 1 passes them enabled."""
        if any(lab == header for _, lab in self._log_edges(acc, any_group)):
            return not (any_group and self.info.arrays[acc.array].space == "group_shared") \
                or self._parked_logged(acc, header)
        return False

    def _parked_logged(self, acc: Access, header: str) -> bool:
        """Can thread 1 hold the log entry of a group-shared ``acc`` while control is at
        ``header``, thread 2 being of any group?

        The lock-step (docs/design.md 5.3) runs blocks in the linear order ``info.order``;
        thread 1 runs each block its counter points at, enabled, and a barrier it passes
        enabled resets its group-shared logs whatever thread 2's group
        (``twothread.memory.Memory.barrier``), so its log is the one after its own
        one-thread path (``_log_edges`` without ``any_group``: every covering barrier
        resets).  Control is at ``header`` with thread 1 either there (an edge of that path
        ends at ``header``) or parked at the target ``B`` of its last edge ``A -> B``, not
        yet run: control went from ``A`` to ``header`` without running ``B``, so the edge
        jumps over ``header`` in the order (``A < header < B``) or leaves a loop containing
        ``header`` (control iterates that loop again for thread 2); or thread 1 returned
        from such a loop, in a block with no successor run to its end with no reset.
        Returns whether such an edge or return is on a path from just after ``acc`` with
        no reset."""
        order, succ, src = self.info.block_id, self.info.succ, self.info.src
        h = order[header]
        around = [lp for lp in self.info.loops if header in lp.blocks]
        resets = self._resets(acc, False)

        def parks(a: str, b: str) -> bool:
            if b not in order or a not in order:
                return True  # a block the order does not know: assume the worst
            return order[a] < h < order[b] or any(a in lp.blocks and b not in lp.blocks for lp in around)

        def returns(b: str, cmds) -> bool:
            return not succ.get(b) and any(b in lp.blocks for lp in around) and not resets(b, cmds)
        edges = self._log_edges(acc, False)
        return returns(acc.block, src[acc.block].cmds[acc.index + 1:]) or any(
            b == header or parks(a, b) or (b in src and returns(b, src[b].cmds)) for a, b in edges)

    def logged_at_entry(self, acc: Access, lp: Loop, any_group: bool = False) -> bool:
        """Can the log entry of ``acc`` still be there when control next *enters* ``lp``
        (reaches its header from a block outside the loop, its counters freshly
        initialised)?  Barriers reset as in ``logged_at``.  Path-insensitive: a path through
        a loop's back edge and out again (an enclosing loop's next iteration) counts,
        whether or not that loop can run twice."""
        return any(lab == lp.header and pred not in lp.blocks for pred, lab in self._log_edges(acc, any_group))

    def stale_at(self, acc: Access, header: str, names: frozenset[str], any_group: bool = False) -> bool:
        """Can the log entry of ``acc`` still be there when control next reaches ``header``
        after a command wrote one of ``names``: is there such a path from just after the
        access on which no barrier resets the log (as in ``_log_edges``)?  Then a candidate
        stating the entry in terms of the current values of ``names`` (``OFF == e$1``,
        ``HO ==> c$1``) is false once that path runs: the entry was made with the old
        values.  In a tiled nest the path crosses the back edge of an enclosing tile loop
        that runs once, so the candidate is true, but inductive only where other
        invariants rule the path out (loop bounds: PolyBench gemm; not lu kernel1, where
        Houdini dropped them with sat queries of seconds)."""
        key = (acc.array, acc.kind, acc.block, acc.index, names, any_group)
        if key not in self._stale:
            self._stale[key] = self._stale_heads(acc, names, any_group)
        return header in self._stale[key]

    def _stale_heads(self, acc: Access, names: frozenset[str], any_group: bool) -> frozenset[str]:
        """Blocks reached from just after ``acc`` with the log entry kept, after a write
        of one of ``names``."""
        src, succ = self.info.src, self.info.succ
        resets = self._resets(acc, any_group)
        writers = {lab for v in names for lab in self.writers.get(v, ())}

        def writes(lab: str, cmds) -> bool:
            return lab in writers and any(il.cmd_writes(c) & names for c in cmds)

        rest = src[acc.block].cmds[acc.index + 1:]
        if resets(acc.block, rest):
            return frozenset()
        seen: set[tuple[str, bool]] = set()
        out: set[str] = set()
        todo = [(t, writes(acc.block, rest)) for t in succ[acc.block]]
        while todo:
            lab, changed = todo.pop()
            if changed:
                out.add(lab)
            if (lab, changed) in seen or lab not in src or resets(lab, src[lab].cmds):
                continue
            seen.add((lab, changed))
            changed = changed or writes(lab, src[lab].cmds)
            todo += [(t, changed) for t in succ[lab]]
        return frozenset(out)

    def _resets(self, acc: Access, any_group: bool):
        """``resets(label, cmds)``: does one of ``cmds`` (of block ``label``) reset the log of
        ``acc`` (``_log_edges``)?"""
        shared = self.info.arrays[acc.array].space == "group_shared"
        uniform = self.info.uni.uniform_blocks

        def resets(lab: str, cmds) -> bool:
            counts = not any_group or (shared and lab in uniform)
            return counts and any(self.resets(c, acc.array) for c in cmds)
        return resets

    def _log_edges(self, acc: Access, any_group: bool) -> frozenset[tuple[str, str]]:
        """The CFG edges ``(pred, lab)`` reached from just after ``acc`` with its log entry
        kept: on no barrier that resets the array's logs.  For threads of one group any
        covering barrier resets (barrier divergence is checked: both threads pass it or
        neither).  With ``any_group`` only a barrier of a group-shared array in a
        uniformly executed block does: the lock-step resets a global log for one group
        only, and a group-shared one only while thread 1 is enabled, which threads of two
        groups need not be together (lu kernel1: thread 1 out of the tile loop, its shared
        log kept, while thread 2 re-enters the inner loop; ``logged_at`` refines this for
        group-shared logs with ``_parked_logged``).  Cached per access: every loop's rules
        ask."""
        key = (acc.array, acc.kind, acc.block, acc.index, any_group)
        if key in self._edges:
            return self._edges[key]
        src, succ = self.info.src, self.info.succ
        resets = self._resets(acc, any_group)
        out: set[tuple[str, str]] = set()
        if not resets(acc.block, src[acc.block].cmds[acc.index + 1:]):
            seen: set[str] = set()
            todo = [(acc.block, t) for t in succ[acc.block]]
            while todo:
                edge = todo.pop()
                out.add(edge)
                lab = edge[1]
                if lab in seen or lab not in src or resets(lab, src[lab].cmds):
                    continue
                seen.add(lab)
                todo += [(lab, t) for t in succ[lab]]
        self._edges[key] = frozenset(out)
        return self._edges[key]

    def skippable(self, lp: Loop) -> bool:
        """Can control get around ``lp`` without passing its header: from the kernel entry
        to a return (a top-level loop), or from the enclosing loop's header to one of its
        back edges (a nested loop, within one iteration of its parent)?"""
        if lp.header not in self._skip:
            g = self.cfg
            if lp.parent is None:
                start, ends = self.info.blocks[0].label, {n for n in g if g.out_degree(n) == 0}
                inside = set(g)
            else:
                start, ends, inside = lp.parent.header, set(lp.parent.latches), set(lp.parent.blocks)
            seen, todo = set(), [t for t in g.successors(start) if t != lp.header] if start != lp.header else []
            found = start in ends and start != lp.header
            while todo and not found:
                n = todo.pop()
                if n in seen or n not in inside or n == lp.header:
                    continue
                seen.add(n)
                found = n in ends
                todo += list(g.successors(n))
            self._skip[lp.header] = found
        return self._skip[lp.header]

    def loop_context(self, lp: Loop) -> "LoopContext":
        """The (cached) context of loop ``lp`` without its lock-step block range
        (``LoopFacts(lp, 0, 0)``): only facts about the one-thread loop (modified
        variables, counters, strides, logs, uniformity) are meaningful.  Used for the
        ghosts the lock-step assigns before a loop and by rules that look at the loops
        enclosing a head."""
        if lp.header not in self._loop_contexts:
            self._loop_contexts[lp.header] = LoopContext(self, LoopFacts(lp, 0, 0))
        return self._loop_contexts[lp.header]

    def reaching(self, lp: Loop) -> set[str]:
        """Blocks from which the loop header is reachable (they may run before the head)."""
        if lp.header not in self._reach:
            self._reach[lp.header] = nx.ancestors(self.cfg, lp.header) | {lp.header}
        return self._reach[lp.header]


class LoopContext:
    """What the rules know about one loop head (computed lazily, shared by the rules)."""

    def __init__(self, kf: KernelFacts, facts: LoopFacts):
        self.kf = kf
        self.facts = facts
        parts = kf.parts
        self.info = parts.info
        self.builder = parts.builder
        self.threads = parts.threads
        self.access_logs = parts.logs
        self.warps = parts.warps
        self.options = parts.options
        self.loop = facts.loop
        self.mod = self._modified()
        self.scalars = [v for v in sorted(self.mod) if isinstance(self.info.local_types.get(v), il.BvType)]

    @cached_property
    def read_outside(self) -> frozenset[str]:
        """Variables read by commands of blocks outside the loop."""
        reads = self.kf.block_reads
        return frozenset().union(*(r for lab, r in reads.items() if lab not in self.loop.blocks))

    # ------------------------------------------------------------- building blocks

    def launch_sizes(self) -> list[tuple[str, int | None]]:
        """``(constant, size)`` for ``group_size_d`` and ``num_groups_d`` of each dimension:
        the launch's count, None for a symbolic size."""
        lc = self.options.launch
        return [(name, val) for i, d in enumerate("xyz")
                for name, val in ((f"group_size_{d}", lc.local_size[i]), (f"num_groups_{d}", lc.num_groups[i]))]

    def concrete_sizes(self, e: il.Expr) -> il.Expr:
        """``e`` with the launch sizes the configuration fixes (``group_size_x`` ...,
        ``num_groups_x`` ...) and the scalar parameters a kernel ``__requires`` pins
        (``__requires(width == 1024)``) replaced by their literals, so that rules asking for
        literal coefficients see them (the launch axioms and preconditions make the two
        equal)."""
        sizes: dict[str, il.Expr] = dict(self.kf.pinned)
        for name, val in self.launch_sizes():
            t = self.info.consts[name].type if name in self.info.consts else None
            if val is not None and isinstance(t, il.BvType):
                sizes[name] = il.BvLit(val % (1 << t.width), t.width)
        e = il.substitute(e, sizes) if sizes else e
        return il.rewrite(e, self._drop_redundant_zext)

    def _drop_redundant_zext(self, x: il.Expr) -> il.Expr | None:
        """``ZEXT(v[w:0])`` is ``v`` when ``v`` is a literal or an id the launch bounds below
        ``2**w``: CUDA's ``__umul24(a, b)`` multiplies the zero-extended low 24 bits, which
        for ids and sizes of a real launch are the values themselves."""
        op = op_of(x)
        if op is None or not op[1].startswith("ZEXT") or len(args_of(x)) != 1:
            return None
        w, wide = op[0], int(op[1][4:])
        arg = args_of(x)[0]
        if isinstance(arg, il.BvLit):
            return il.BvLit(arg.value % (1 << w), wide)
        if not (isinstance(arg, il.BvExtract) and arg.lo == 0 and arg.hi == w):
            return None
        v = il.rewrite(arg.operand, self._drop_redundant_zext)
        if isinstance(v, il.BvLit) and v.width == wide:
            return il.BvLit(v.value % (1 << w), wide)
        bound = self._id_bound(v)
        if bound is not None and bound <= 1 << w:
            return v
        return None

    def _id_bound(self, v: il.Expr) -> int | None:
        """An exclusive upper bound of a local or group id the launch fixes, else None."""
        lc = self.options.launch
        for i, d in enumerate("xyz"):
            for name, sizes in ((f"local_id_{d}", lc.local_size), (f"group_id_{d}", lc.num_groups)):
                if v == il.Var(name) and sizes[i] is not None:
                    return sizes[i]
        return None

    def fun(self, op: str, w: int, *args: il.Expr) -> il.Expr:
        """``BVw_op(args)`` with the function declared in the two-thread program."""
        return il.FunApp(self.builder.bvfun(op, w), tuple(args))

    def per_thread(self, rule: str, e: il.Expr) -> list[Candidate]:
        """The one-thread candidate ``e`` for thread 1 and for thread 2; in a loop the
        threads may not enter together, also ``entered$t ==> e$t`` (thread t was at the
        head when the loop started): a thread that skips the loop keeps whatever values it
        had, e.g. a counter never initialised on its path, and only the guarded form
        survives.  A uniform loop that the kernel may skip altogether (inside a uniform
        ``if (levels > 1)``) gets the guarded form too: when both threads skip it, the
        head's checks still run, on values the skipped branch never assigned.  Paper 000 section 5.3:
        invariants of predicated code hold for enabled threads."""
        guarded = [(rule, il.implies(il.BinOp("==", self.entry_pc(t), il.IntLit(self.facts.lo)), self.threads.ex(e, t)))
                   for t in (1, 2)]
        out = [(rule, self.threads.ex(e, t)) for t in (1, 2)]
        return out if self.uniform and not self.kf.skippable(self.loop) else out + guarded

    def at_head(self, t: int) -> il.Expr:
        """Thread ``t`` is at the loop head (enabled in the loop)."""
        return il.BinOp("==", self.threads.cur(t), il.IntLit(self.facts.lo))

    def entry_pc(self, t: int) -> il.Var:
        """Thread ``t``'s block number when the loop was entered (set by the lock-step)."""
        return il.Var(f"cur${t}$entry{self.loop.header}")

    @property
    def uniform(self) -> bool:
        """Both threads always enter and leave this loop together."""
        return self.loop.header in self.info.uni.uniform_blocks

    # ------------------------------------------------------------------- loop facts

    def _modified(self) -> set:
        mod = set()
        for lab in self.loop.blocks:
            for c in self.info.src[lab].cmds:
                mod |= il.cmd_writes(c)
        return mod

    def assignments(self, v: str) -> Assignments:
        """(inlined right-hand sides of ``v`` inside the loop, and outside it)."""
        inside: list[il.Expr] = []
        outside: list[il.Expr] = []
        for lab, r in self.kf.assigned_inlined(v):
            (inside if lab in self.loop.blocks else outside).append(r)
        return Assignments(inside, outside)

    @cached_property
    def counters(self) -> dict[str, Counter_]:
        """name -> Counter_ for bit-vector variables assigned once in the loop and once
        outside it by a loop-invariant expression."""
        out = {}
        for v in self.scalars:
            inside, outside = self.assignments(v)
            if len(inside) != 1 or len(outside) != 1 or il.free_vars(outside[0]) & self.mod:
                continue
            out[v] = Counter_(v, self.info.local_types[v].width, outside[0], inside[0])  # type: ignore[union-attr]
        return out

    @cached_property
    def strides(self) -> dict[str, tuple[il.Expr, il.Expr]]:
        """name -> (init, step) for counters ``v := v + s`` with ``s`` loop-invariant."""
        out = {}
        for v, c in self.counters.items():
            step = self.additive_step(v, c.step)
            if step is not None:
                out[v] = (c.init, step)
        return out

    def additive_step(self, v: str, rhs: il.Expr) -> il.Expr | None:
        """``s`` when ``rhs`` is ``v + s`` (bit-vector ``v``) with ``s`` not modified by this
        loop; None otherwise."""
        w = self.info.local_types[v].width  # type: ignore[union-attr]
        st = args_of(rhs)
        if op_of(rhs) == (w, "ADD") and len(st) == 2 and st[0] == il.Var(v) and not il.free_vars(st[1]) & self.mod:
            return st[1]
        return None

    @cached_property
    def nested_strides(self) -> dict[str, tuple[il.Expr, il.Expr]]:
        """name -> (init, step) for the additive counters of loops nested in this one whose
        initial value this loop does not change (``for (i = 0; ...; i += 16)`` inside
        ``for (r ...)``): every value they take is ``init`` plus a multiple of ``step``, so
        offsets logged in earlier iterations of this loop keep that residue (rule r1)."""
        out = {}
        for v in self.scalars:
            if v in self.counters:
                continue
            for child in self._descendants():
                rhs = self.kf.assigned_inlined(v)
                inside = [r for lab, r in rhs if lab in child.blocks]
                outside = [r for lab, r in rhs if lab in self.loop.blocks and lab not in child.blocks]
                if len(inside) != 1 or len(outside) != 1 or il.free_vars(outside[0]) & self.mod:
                    continue
                step = self.additive_step(v, inside[0])
                if step is not None:
                    out[v] = (outside[0], step)
                break
        return out

    @cached_property
    def restarted_strides(self) -> dict[str, tuple[il.Expr, il.Expr]]:
        """name -> (init, step) for counters of nested loops that this loop restarts from a
        value it may change (``for (j = i; ...; j += s)`` inside the ``i`` loop): assigned
        twice in the loop, ``v := init`` and ``v := v + s`` (``additive_step``);
        ``nested_strides`` has those whose ``init`` is fixed."""
        out = {}
        for v in self.scalars:
            if v in self.strides or v in self.nested_strides:
                continue
            inside, _ = self.assignments(v)
            if len(inside) != 2:
                continue
            for step_rhs, init in (inside, inside[::-1]):
                step = self.additive_step(v, step_rhs)
                if step is not None and v not in il.free_vars(init):
                    out[v] = (init, step)
                    break
        return out

    def _descendants(self) -> list[Loop]:
        out, todo = [], list(self.loop.children)
        while todo:
            lp = todo.pop()
            out.append(lp)
            todo += lp.children
        return out

    @cached_property
    def has_barrier(self) -> bool:
        return any(isinstance(c, il.Call) for lab in self.loop.blocks for c in self.info.src[lab].cmds)

    def guards(self) -> list[il.FunApp]:
        """Comparisons (FunApp) in the partition conditions of branches inside the loop.

        A comparison in a nested loop is kept only if this loop assigns none of its
        variables outside the innermost nested loop containing it: a nested counter re-initialised in this
        loop's body is dead at this head, and its bounds here (one set per enclosing loop)
        would make the candidate count quadratic in the nesting depth.

        Cost: each block's comparisons are extracted once per kernel
        (``KernelFacts.partition_comparisons``) and the test looks only at the blocks
        writing the comparison's variables (``KernelFacts.writers``); walking the loop's
        blocks per comparison made the guards of a nest of depth 50 cubic (``make
        bench-scaling``, loop family: 1.3 s of the lock-step's 2.3 s)."""
        out = []
        kf = self.kf
        for lab in (b.label for b in self.info.blocks if b.label in self.loop.blocks):  # program order: stable
            comparisons = kf.partition_comparisons(lab)
            if not comparisons:
                continue
            inner = self._child_loop_blocks(lab)
            for x, xs in comparisons:
                if inner and self._assigned_outside(xs, inner):
                    continue
                out.append(x)
        return out

    def _child_loop_blocks(self, label: str) -> frozenset | set:
        """Blocks of the innermost loop nested in this one that contains ``label`` (empty
        when ``label`` is at this loop's own level)."""
        lp = self.kf.innermost_loop.get(label)
        return frozenset() if lp is None or lp.header == self.loop.header else lp.blocks

    def _assigned_outside(self, names: frozenset[str], inner: frozenset | set) -> bool:
        """Does a block of this loop outside the nested loop ``inner`` write one of ``names``?"""
        blocks = self.loop.blocks
        return any(lab in blocks and lab not in inner for v in names for lab in self.kf.writers.get(v, ()))

    @cached_property
    def enclosing_conditions(self) -> list[tuple[str, il.Expr]]:
        """``(block, condition)``: partition conditions of the blocks dominating the header
        outside the loop whose value differs between threads (divergent scopes), are
        memory-free and not modified by the loop; innermost first."""
        labs = [lab for lab in self.kf.dominators(self.loop.header) if lab not in self.loop.blocks]
        return self._divergent_conditions(labs)

    @cached_property
    def inner_conditions(self) -> list[tuple[str, il.Expr]]:
        """``(block, condition)``: partition conditions of blocks inside the loop (scopes of
        an ``if (thid == 0)`` in the body) that differ between threads, are memory-free and
        not modified by the loop, so they hold for a thread whenever it ran the scope."""
        labs = sorted(lab for lab in self.loop.blocks if lab != self.loop.header)
        return self._divergent_conditions(labs)

    def _divergent_conditions(self, labs: list[str]) -> list[tuple[str, il.Expr]]:
        out = []
        memory = set(self.info.arrays)
        for lab in labs:
            part = self.kf.divergent_partition(lab)
            if part is None or part[1] & (self.mod | memory):
                continue
            out.append((lab, part[0]))
        return out

    # ------------------------------------------------------------------- accesses

    def accessed_in(self, array: str, kind: str) -> bool:
        return any(a.array == array and a.kind == kind and a.block in self.loop.blocks for a in self.kf.accesses)

    def logs(self) -> Iterator[tuple]:
        """``(name, ArrayInfo, kind)`` for every log (array, kind) the loop may fill and some
        access checks (a read log of an array nobody writes is never looked at)."""
        for name, a in self.info.arrays.items():
            if not a.logged:
                continue
            for kind in self.access_logs.kinds(a):
                if self.accessed_in(name, kind) and (kind != "READ" or self.kf.written(name)):
                    yield name, a, kind

    def log(self, a: ArrayInfo, kind: str) -> tuple[il.Var, il.Var, il.Var]:
        """(HAS_OCCURRED, OFFSET, SOURCE) variables of a log."""
        ho, off, src = (self.access_logs.var(a, kind, w) for w in ("HAS_OCCURRED", "OFFSET", "SOURCE"))
        return ho, off, src

    def accesses_of(self, name: str, kind: str) -> list[Access]:
        return self.kf.accesses_of(name, kind)

    def sources(self, accesses) -> list[int]:
        """Sorted source numbers of ``accesses``."""
        return sorted({self.builder.sourceloc_num(a.loc).value for a in accesses})

    def source_in(self, src: il.Expr, nums: list) -> il.Expr:
        """``src`` (an ``int`` SOURCE variable) is one of the source numbers ``nums``: a run
        of ``SOURCE_RANGE_MIN`` or more consecutive numbers is one range ``lo <= src &&
        src <= hi``, the others equalities.  Equivalent over the integers; the disjunction
        of one equality per number made each ``src`` candidate of a loop nest as long as
        the kernel's accesses reaching the head, so the program, its VC and the solver's
        formula grew quadratically with the depth (``make bench-scaling``, loop families)."""
        parts: list[il.Expr] = []
        for lo, hi in _runs(sorted(set(nums))):
            if hi - lo + 1 >= SOURCE_RANGE_MIN:
                parts.append(il.BinOp("&&", il.BinOp("<=", il.IntLit(lo), src), il.BinOp("<=", src, il.IntLit(hi))))
            else:
                parts += [il.BinOp("==", src, il.IntLit(n)) for n in range(lo, hi + 1)]
        return il.or_all(parts)


# Shortest run of consecutive source numbers ``LoopContext.source_in`` states as a range.
SOURCE_RANGE_MIN = 3


def _runs(nums: list[int]) -> list[tuple[int, int]]:
    """Maximal runs ``(lo, hi)`` of consecutive numbers in the sorted, distinct ``nums``."""
    out: list[tuple[int, int]] = []
    for n in nums:
        if out and out[-1][1] == n - 1:
            out[-1] = (out[-1][0], n)
        else:
            out.append((n, n))
    return out


class LoopRule(Protocol):
    """A rule family's candidates at one loop head (paper 003 appendix A)."""

    def __call__(self, ctx: LoopContext, /) -> list[Candidate]:
        ...


class LogRule(Protocol):
    """A rule family's candidates for one access log ``kind`` of array ``name`` (``a``) that
    the loop fills."""

    def __call__(self, ctx: LoopContext, name: str, a: ArrayInfo, kind: str, /) -> list[Candidate]:
        ...
