"""Uniformity analysis of a one-thread kernel (paper 000, section 5.1; docs/design.md section 5.2).

A variable is *uniform* when it provably holds the same value in both threads of the
two-thread reduction; a block is *uniformly executed* when both threads reach it
together (neither is control dependent on a divergent branch).  The two are computed
together, to a greatest fixpoint:

* sources of non-uniformity: local ids, group ids (unless the analysis is told the two
  threads share a group), reads of memory shared between threads, ``havoc``, and private
  arrays (procedure-local maps): each thread's private memory starts with its own
  arbitrary contents, so what a thread reads from a cell it never wrote differs between
  the threads -- except a kernel's struct arguments passed by value (private maps named in
  ``{:source_params}``), which hold the same argument values in every thread;
* a variable is non-uniform if some assignment to it reads a non-uniform value or lies
  in a block that is not uniformly executed (after the merge the threads may disagree);
* a branch is divergent if its condition (the ``{:partition}`` assumes of its targets,
  docs/IL.md) is non-uniform, if it is a nondeterministic choice, or if its block is not
  uniformly executed;
* a block is not uniformly executed if it is control dependent (post-dominance based)
  on a divergent branch.

*Run-time constants* (``constant_vars``) are the exception to the block rule: a local
assigned once, from kernel parameters, launch sizes and other run-time constants, whose
every read comes after that assignment (the assignment dominates it), is uniform even when
its assignment lies in a block that is not uniformly executed.  Clang recomputes
``blockDim.x * gridDim.x`` in the body of a grid-stride loop (the loop's latch) this way.
Predicating such an assignment per thread (``v$t := if p$t then e else v$t``, paper 000
section 4, "predicated execution") would give the two threads copies that differ where a
thread is disabled and hide from the solver that both copies, and every later read, are
the one term ``e``.  The two-thread program executes it unpredicated into one shared
variable instead (``vcgen.twothread.transform``).  Sound because:

* ``e`` reads only names no command assigns (parameters and ``const``s other than the
  thread and group ids, the same in both threads) and run-time constants, so every
  evaluation of ``e`` after its operands were assigned has one value ``c``;
* a thread reads ``v`` only after executing the assignment itself (dominance), at which
  point the two-thread program executed it too and ``v == c``; an extra execution while
  neither thread is enabled assigns ``c`` again (its operands were assigned before, by
  dominance of their own assignments) or happens before any thread reads ``v``;
* so every read of ``v`` by either thread sees the value it sees in the one-thread
  program: the two-thread program's behaviour is unchanged (at loop heads ``v`` is
  havocked with the other modified variables, and re-assigned before any read).

A read before the assignment (a loop-carried use, an uninitialised value) is arbitrary in
the one-thread program and would be narrowed, so such a local is not a run-time constant.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import networkx as nx

from .. import il
from .cfg import control_flow_graph, dominators, successors

ID_CONSTS = tuple(f"local_id_{d}" for d in "xyz")
GROUP_CONSTS = tuple(f"group_id_{d}" for d in "xyz")


@dataclass
class Uniformity:
    nonuniform_vars: set  # one-thread variable names (locals, params, private maps)
    uniform_blocks: set  # labels of uniformly executed blocks
    divergent_branches: set  # labels of blocks whose branch is divergent
    constant_vars: set = field(default_factory=set)  # run-time constants: assigned unpredicated

    def is_uniform_expr(self, e: il.Expr, shared_arrays: set) -> bool:
        for x in il.subexprs(e):
            if isinstance(x, il.Var) and x.name in self.nonuniform_vars:
                return False
            if isinstance(x, il.MapSelect) and isinstance(x.map, il.Var) and x.map.name in shared_arrays:
                return False
        return True


def branch_condition(proc: il.ProcedureDecl, label: str) -> list[il.Expr] | None:
    """Partition conditions of the targets of ``label``'s goto, or None if some target lacks one."""
    blocks = {b.label: b for b in proc.body()}
    conds = []
    for t in successors(proc)[label]:
        first = blocks[t].cmds[0] if blocks[t].cmds else None
        if not (isinstance(first, il.Assume) and il.has_attr(first.attrs, "partition")):
            return None
        conds.append(first.expr)
    return conds


def control_dependence(proc: il.ProcedureDecl) -> dict[str, set[str]]:
    """Branch block label -> set of labels control dependent on it (Ferrante et al.)."""
    g = control_flow_graph(proc)
    exit_node = "$$virtual_exit"
    rev = g.reverse(copy=True)
    rev.add_node(exit_node)
    for b in proc.body():
        if isinstance(b.transfer, il.Return):
            rev.add_edge(exit_node, b.label)
    # Blocks that cannot reach a return (infinite loops) hang off the virtual exit too.
    reach = nx.descendants(rev, exit_node)
    for b in proc.body():
        if b.label not in reach:
            rev.add_edge(exit_node, b.label)
    ipdom = nx.immediate_dominators(rev, exit_node)
    deps: dict = {}
    for b in g.nodes:
        succs = list(g.successors(b))
        if len(succs) < 2:
            continue
        stop = ipdom.get(b)
        for s in succs:
            x = s
            while x != stop and x != exit_node:
                deps.setdefault(b, set()).add(x)
                x = ipdom[x]
    return deps


def analyse(proc: il.ProcedureDecl, shared_arrays: set, same_group: bool = False,
            consts: frozenset[str] = frozenset()) -> Uniformity:
    """Uniformity of the kernel procedure ``proc`` of a one-thread program.

    ``shared_arrays``: names of global map variables holding memory shared by threads
    (reads of them are non-uniform).  ``same_group``: the threads are known to share a
    group, so group ids are uniform (``--only-intra-group``).  ``consts``: the names of
    the program's scalar ``const`` declarations (launch sizes, ids, ...), the operands of
    run-time constants besides the parameters (module docstring).
    """
    sources = set(ID_CONSTS) | (set() if same_group else set(GROUP_CONSTS))
    constant = constant_vars(proc, set(consts) - sources)
    deps = control_dependence(proc)
    labels = [b.label for b in proc.body()]
    conds = {l: branch_condition(proc, l) for l in labels if len(successors(proc)[l]) > 1}
    nonuni: set = set(sources) | uninitialised_private(proc)
    divergent: set = set()
    non_u_blocks: set = set()
    changed = True
    while changed:
        changed = False
        for b in proc.body():
            in_div = b.label in non_u_blocks
            for c in b.cmds:
                for name in _nonuniform_writes(c, in_div, nonuni, shared_arrays):
                    if name not in nonuni and name not in constant:
                        nonuni.add(name)
                        changed = True
        for l, cs in conds.items():
            if l in divergent:
                continue
            if cs is None or l in non_u_blocks or any(il.free_vars(c) & nonuni for c in cs) or \
                    any(isinstance(x, il.MapSelect) for c in cs for x in il.subexprs(c)):
                divergent.add(l)
                changed = True
                for x in deps.get(l, ()):
                    non_u_blocks.add(x)
    return Uniformity(nonuni - sources, set(labels) - non_u_blocks, divergent, constant)


def constant_vars(proc: il.ProcedureDecl, operands: set[str]) -> set[str]:
    """The run-time constants of ``proc`` (module docstring): scalar locals with a single
    assignment ``v := e`` that dominates every read of ``v``, where ``e`` reads no memory
    and only ``operands`` (``const``s the same in both threads), parameters no command
    assigns, and run-time constants (least fixpoint)."""
    defs = {n: e for n, (_, e) in dominating_definitions(proc).items()}
    base = operands | ({n for n, _ in proc.params} - _assigned(proc))
    out: set[str] = set()
    changed = True
    while changed:
        new = {n for n, e in defs.items() if n not in out and il.free_vars(e) <= base | out}
        out |= new
        changed = bool(new)
    return out


def once_vars(proc: il.ProcedureDecl, loop_blocks: set[str]) -> set[str]:
    """Scalar locals with a single pure assignment ``v := e`` that dominates every read of
    ``v`` and lies in a block of no loop (``loop_blocks``: the blocks of all loops): the
    two-thread program may assign them unpredicated, per thread (``v$t := e$t``, not ``if
    p$t then e$t else v$t``; ``vcgen.twothread.transform``).

    Sound (paper 000 section 4, predicated execution): outside loops the two-thread program
    runs the assignment exactly once, and a thread reads ``v`` only in blocks the
    assignment dominates, which it reaches only through that block, enabled: it then
    assigned ``e`` as the one-thread program does, its operands already its own (they are
    assigned before, by dominance of their own definitions, and a disabled thread's
    commands change none of its variables).  Where the thread is disabled the value of
    ``v$t`` is never read (every effect of a disabled thread is predicated), so the
    unconditional assignment changes no behaviour.  In a loop it would: a thread that left
    the loop keeps the value of its last iteration while the other one iterates on.

    Why: ``if p then e else v`` keeps the solver from seeing the index of a predicated
    access as the term ``e`` (an if-then-else of the previous incarnation is never
    inlined, ``vcgen.vc.encode.DefinitionInliner``), so the race checks of an access
    under ``if`` compare variables, not launch terms the ``CaseRefuter`` can decide."""
    return {n for n, (label, _) in dominating_definitions(proc).items() if label not in loop_blocks}


def _assigned(proc: il.ProcedureDecl) -> set[str]:
    return {n for b in proc.body() for c in b.cmds for n in il.cmd_writes(c)}


def dominating_definitions(proc: il.ProcedureDecl) -> dict[str, tuple[str, il.Expr]]:
    """Scalar locals of ``proc`` with a single assignment ``v := e`` (``e`` reads no memory)
    that dominates every read of ``v``: ``{v: (label of its block, e)}``."""
    writes: dict[str, list[tuple[str, int, il.Cmd]]] = {}
    reads: dict[str, list[tuple[str, int]]] = {}
    for b in proc.body():
        for i, c in enumerate(b.cmds):
            for n in il.cmd_writes(c):
                writes.setdefault(n, []).append((b.label, i, c))
            for n in _cmd_reads(c):
                reads.setdefault(n, []).append((b.label, i))
    scalars = {v.name for v in proc.locals if not isinstance(v.type, il.MapType)}
    entry = proc.body()[0].label
    idom = {**dominators(proc), entry: entry}
    defs: dict[str, tuple[str, il.Expr]] = {}
    for n, ws in writes.items():
        if n not in scalars or len(ws) != 1:
            continue
        label, i, c = ws[0]
        if isinstance(c, il.Assign) and len(c.lhss) == 1 and isinstance(c.lhss[0], il.VarLhs) \
                and _pure(c.rhss[0]) and all(_dominates(idom, entry, (label, i), u) for u in reads.get(n, ())):
            defs[n] = (label, c.rhss[0])
    return defs


def _cmd_reads(c: il.Cmd) -> set[str]:
    """Names a command reads, in its expressions and in its attributes' expression arguments."""
    out: set[str] = set()
    for e in il.cmd_exprs(c):
        out |= il.free_vars(e)
    for a in getattr(c, "attrs", ()):
        for x in a.args:
            if not isinstance(x, str):
                out |= il.free_vars(x)
    return out


def _pure(e: il.Expr) -> bool:
    """No memory, ``old`` or quantifier: the value depends on the free variables only."""
    return not any(isinstance(x, (il.MapSelect, il.MapStore, il.Old, il.Quantifier)) for x in il.subexprs(e))


def _dominates(idom: dict[str, str], entry: str, d: tuple[str, int], u: tuple[str, int]) -> bool:
    """Does command ``d`` (label, index) run before command ``u`` on every path from the
    ``entry``?  ``idom``: immediate dominators of the reachable blocks, the entry's itself."""
    (dl, di), (ul, ui) = d, u
    if dl not in idom or ul not in idom:
        return False
    if dl == ul:
        return di < ui
    x = ul
    while x != entry:
        x = idom[x]
        if x == dl:
            return True
    return False


def uninitialised_private(proc: il.ProcedureDecl) -> set[str]:
    """Private arrays whose initial contents differ between threads: every procedure-local
    map except a kernel's by-value struct arguments (named in ``{:source_params}``; a
    function checked on its own, ``{:function_entry}``, gets them from arbitrary callers)."""
    maps = {v.name for v in proc.locals if isinstance(v.type, il.MapType)}
    params = il.attr(proc.attrs, "source_params")
    if params is None or il.has_attr(proc.attrs, "function_entry"):
        return maps
    return maps - {str(x) for x in params.args}


def _nonuniform_writes(c: il.Cmd, in_divergent_block: bool, nonuni: set, shared: set):
    if isinstance(c, il.Havoc):
        yield from (v for v in c.vars if v not in shared)  # havoc of memory: bugle.bodiless
    elif isinstance(c, il.Call):
        yield from c.outs
    elif isinstance(c, il.Assign):
        for lhs, rhs in zip(c.lhss, c.rhss):
            if lhs.name in shared:
                continue  # memory itself is not a variable of the uniformity analysis
            reads = [rhs] + ([lhs.index] if isinstance(lhs, il.MapLhs) else [])
            if in_divergent_block or any(_reads_nonuniform(e, nonuni, shared) for e in reads):
                yield lhs.name


def _reads_nonuniform(e: il.Expr, nonuni: set, shared: set) -> bool:
    for x in il.subexprs(e):
        if isinstance(x, il.Var) and x.name in nonuni:
            return True
        if isinstance(x, il.MapSelect) and isinstance(x.map, il.Var) and x.map.name in shared:
            return True
    return False
