"""Value abstraction of scalar locals (``vcgen abstract``; docs/design.md section 5.7).

A local assigned the result of an uninterpreted function (floating-point arithmetic,
math builtins: bugle models them as uninterpreted functions over bit-vectors, docs/design.md
section 4) whose value cannot influence race freedom, barrier divergence or an assertion
is *havocked* instead of computed: ``v := FMUL32(a, b)`` becomes ``havoc v``.

Why: every application of an uninterpreted function costs the solver a congruence
constraint with every other application of the same function (Ackermann's reduction,
bit-blasted over all the arguments' bits), and the two-thread program doubles them;
escape-time loops, Monte-Carlo paths, FFT butterflies and image filters are hundreds of
such applications whose results only end up as the *data* a thread writes.  Paper 000
section 5.2 makes the same argument for arrays (the adversarial abstraction); this is its
counterpart for locals.

Sound: ``havoc v`` allows every value ``v := e`` could take, so the abstract program has
more executions, and no access, barrier, call or assertion is removed -- only precision
can be lost.  Precision is kept where a value may matter; a local is *relevant* (never
havocked) when its value may reach, through assignments (a flow-insensitive closure, as in
``abstraction.relevant_arrays``):

- an address (the index of any map access), an assertion, a non-trivial assumption, a
  call's argument (barriers, atomics), a specification;
- the value of a write whose index does not clearly separate the threads -- it may be a
  benign write-write race, tolerated only when both threads write the same value (paper
  000 section 5): a write to a group-shared array whose index reads a local id, or to a
  global array whose index reads a local id and a group id, is taken to be separated;
- the condition of a branch that matters (control dependence): a branch matters when the
  blocks it decides (reachable from it before its immediate post-dominator, so a loop's
  exit branch decides the whole loop) access memory, call, assert or assume, assign a
  relevant local or array, or contain a branch that matters.

Only assignments whose right-hand side applies an uninterpreted function are havocked: the
abstraction is aimed at what costs the solver, and exact integer values (ids, counters)
stay exact even when irrelevant.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

import networkx as nx

from .. import il

_LOCAL_IDS = frozenset(("local_id_x", "local_id_y", "local_id_z"))
_GROUP_IDS = frozenset(("group_id_x", "group_id_y", "group_id_z"))
_EXIT = "$exit"


def uninterpreted_functions(prog: il.Program) -> frozenset[str]:
    """Names of the functions of ``prog`` with neither a builtin meaning nor a body."""
    return frozenset(d.name for d in prog.decls if isinstance(d, il.FunctionDecl) and d.body is None
                     and not il.has_attr(d.attrs, "bvbuiltin") and not il.has_attr(d.attrs, "builtin"))


def _is_partition(c: il.Cmd) -> bool:
    return isinstance(c, il.Assume) and il.has_attr(c.attrs, "partition")


def _is_effect(c: il.Cmd, memory: set) -> bool:
    """Does the command itself matter whatever the values of locals: a memory access
    (logged, race-checked), a call, an assertion or an assumption that may cut paths."""
    if isinstance(c, (il.Call, il.Assert)):
        return True
    if isinstance(c, il.Assume):
        return not _is_partition(c) and c.expr != il.TRUE
    if isinstance(c, il.Havoc):
        return any(v in memory for v in c.vars)
    if isinstance(c, il.Assign):
        if any(isinstance(l, il.MapLhs) and l.name in memory for l in c.lhss):
            return True
        return any(isinstance(x, il.MapSelect) and isinstance(x.map, il.Var) and x.map.name in memory
                   for r in c.rhss for x in il.subexprs(r))
    return False


class _Branch:
    """A block ending in a branch: the variables its conditions read, and what the blocks
    it decides contain."""

    def __init__(self, label: str, cond_vars: set, effect: bool, assigned: set, branches: set):
        self.label = label
        self.cond_vars = cond_vars
        self.effect = effect
        self.assigned = assigned
        self.branches = branches  # labels of the branches decided by this one


def _branches(proc: il.ProcedureDecl, memory: set) -> list[_Branch]:
    blocks = {b.label: b for b in proc.body()}
    g = nx.DiGraph()
    g.add_node(_EXIT)
    for b in proc.body():
        targets = b.transfer.targets if isinstance(b.transfer, il.Goto) else ()
        g.add_node(b.label)
        g.add_edges_from((b.label, t) for t in targets)
        if not targets:
            g.add_edge(b.label, _EXIT)
    reachable = (nx.descendants(g, proc.body()[0].label) | {proc.body()[0].label}) - {_EXIT}
    # Blocks that cannot reach the exit (an infinite loop) have no post-dominator: their
    # branches are all taken to matter.
    rev = g.reverse(copy=False)
    to_exit = nx.descendants(rev, _EXIT) | {_EXIT}
    ipdom = nx.immediate_dominators(rev.subgraph(to_exit), _EXIT)
    conds: dict[str, set] = {}
    for lab in reachable:
        b = blocks[lab]
        if isinstance(b.transfer, il.Goto) and len(b.transfer.targets) > 1:
            conds[lab] = set()
            for t in b.transfer.targets:
                first = blocks[t].cmds[:1]
                if first and _is_partition(first[0]):
                    conds[lab] |= il.free_vars(first[0].expr)
    out = []
    for lab, cv in conds.items():
        if lab not in ipdom:
            out.append(_Branch(lab, cv, True, set(), set()))
            continue
        stop = ipdom[lab]
        region, todo = set(), [t for t in g.successors(lab) if t != stop]
        while todo:
            x = todo.pop()
            if x in region or x == stop or x == _EXIT:
                continue
            region.add(x)
            todo += [t for t in g.successors(x) if t != stop]
        effect = any(_is_effect(c, memory) for x in region for c in blocks[x].cmds)
        assigned = {n for x in region for c in blocks[x].cmds for n in il.cmd_writes(c)}
        out.append(_Branch(lab, cv, effect, assigned, (region & set(conds)) - {lab}))
    return out


def dependency_closure(deps: dict[str, set[str]], start: set[str]) -> set[str]:
    """``start`` and every name the values of its names are computed from (``deps``: name
    -> names it is computed from)."""
    out, stack = set(), list(start)
    while stack:
        n = stack.pop()
        if n in out:
            continue
        out.add(n)
        stack.extend(deps.get(n, ()))
    return out


@dataclass
class DataFlow:
    """The flow-insensitive data flow of a procedure's assignments (shared by the value
    abstraction and ``abstraction.relevant_arrays``).

    ``deps``: assigned name (local or map) -> names its assigned values are computed from;
    ``sinks``: names read by an address (the index of any map access), an assertion or
    assumption, a call argument or a specification; ``writes``: ``(map, index reads,
    value reads)`` of every map write, in program order."""
    deps: dict[str, set[str]] = field(default_factory=dict)
    sinks: set[str] = field(default_factory=set)
    writes: list[tuple[str, set[str], set[str]]] = field(default_factory=list)


def data_flow(proc: il.ProcedureDecl, inert: Callable[[il.Assume | il.Assert], bool]) -> DataFlow:
    """The ``DataFlow`` of ``proc``'s body; assumptions and assertions for which ``inert``
    holds are no sinks (partition assumes, initializer facts)."""
    out = DataFlow()
    for s in proc.specs:
        out.sinks |= il.free_vars(s.expr)
    for b in proc.body():
        for c in b.cmds:
            if isinstance(c, il.Assign):
                for l, r in zip(c.lhss, c.rhss):
                    out.deps.setdefault(l.name, set()).update(il.free_vars(r))
                    if isinstance(l, il.MapLhs):
                        idx = il.free_vars(l.index)
                        out.sinks |= idx
                        out.writes.append((l.name, idx, il.free_vars(r)))
                    for x in il.subexprs(r):
                        if isinstance(x, il.MapSelect):
                            out.sinks |= il.free_vars(x.index)
            elif isinstance(c, (il.Assume, il.Assert)) and not inert(c):
                out.sinks |= il.free_vars(c.expr)
            elif isinstance(c, il.Call):
                for a in c.args:
                    out.sinks |= il.free_vars(a)
    return out


def relevant_names(proc: il.ProcedureDecl, arrays: set, group_shared: frozenset) -> set[str]:
    """Locals and arrays whose values may matter (module docstring).  ``arrays``: the
    global (logged) map variables; ``group_shared``: those one per group."""
    memory = set(arrays)
    flow = data_flow(proc, _is_partition)
    deps, sinks = flow.deps, set(flow.sinks)
    for array, idx, value in flow.writes:
        if array in memory and not _separated(array, idx, deps, group_shared):
            sinks |= value
    branches = _branches(proc, memory)
    relevant = dependency_closure(deps, sinks)
    mattering: set = set()
    changed = True
    while changed:
        changed = False
        for br in branches:
            if br.label in mattering:
                continue
            if br.effect or br.assigned & relevant or br.branches & mattering:
                mattering.add(br.label)
                relevant = dependency_closure(deps, relevant | br.cond_vars)
                changed = True
    return relevant


def _separated(array: str, index_vars: set, deps: dict, group_shared: frozenset) -> bool:
    """Does a write's index (reading ``index_vars``) read a local id -- and, for a global
    array, a group id -- through assignments, so that the two threads of a pair are taken
    to write different elements (module docstring)?"""
    reads = dependency_closure(deps, index_vars)
    if not reads & _LOCAL_IDS:
        return False
    return array in group_shared or bool(reads & _GROUP_IDS)


def abstract_values(prog: il.Program) -> il.Program:
    """``prog`` with the kernel's irrelevant uninterpreted-function results havocked
    (module docstring).  Programs without a kernel are returned unchanged."""
    try:
        kernel = prog.kernel()
    except ValueError:
        return prog
    if kernel.blocks is None:
        return prog
    funs = uninterpreted_functions(prog)
    if not funs:
        return prog
    arrays = {d.name for d in prog.globals() if isinstance(d.type, il.MapType)}
    shared = frozenset(d.name for d in prog.globals() if d.name in arrays and il.has_attr(d.attrs, "group_shared"))
    scalars = {v.name for v in kernel.locals if not isinstance(v.type, il.MapType)}
    relevant = relevant_names(kernel, arrays, shared)

    def havocked(lhs: il.Lhs, rhs: il.Expr) -> bool:
        return isinstance(lhs, il.VarLhs) and lhs.name in scalars and lhs.name not in relevant \
            and any(isinstance(x, il.FunApp) and x.name in funs for x in il.subexprs(rhs))

    def abstracted(c: il.Cmd) -> list[il.Cmd]:
        """``c``, or its kept assignments (still one parallel assignment) and then a havoc
        of the others: their old values are what the kept right-hand sides read."""
        if not isinstance(c, il.Assign):
            return [c]
        gone = [havocked(l, r) for l, r in zip(c.lhss, c.rhss)]
        if not any(gone):
            return [c]
        kept = [(l, r) for (l, r), g in zip(zip(c.lhss, c.rhss), gone) if not g]
        out: list[il.Cmd] = [il.Assign(tuple(l for l, _ in kept), tuple(r for _, r in kept))] if kept else []
        return out + [il.Havoc(tuple(l.name for l, g in zip(c.lhss, gone) if g))]

    changed = False
    blocks = []
    for b in kernel.blocks:
        cmds = [x for c in b.cmds for x in abstracted(c)]
        changed = changed or len(cmds) != len(b.cmds) or any(x is not y for x, y in zip(cmds, b.cmds))
        blocks.append(replace(b, cmds=tuple(cmds)))
    if not changed:
        return prog
    new = replace(kernel, blocks=tuple(blocks))
    return il.Program(tuple(new if d is kernel else d for d in prog.decls))
