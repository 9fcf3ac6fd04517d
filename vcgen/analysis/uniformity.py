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
"""
from __future__ import annotations

from dataclasses import dataclass

import networkx as nx

from .. import il
from .cfg import control_flow_graph, successors

ID_CONSTS = tuple(f"local_id_{d}" for d in "xyz")
GROUP_CONSTS = tuple(f"group_id_{d}" for d in "xyz")


@dataclass
class Uniformity:
    nonuniform_vars: set  # one-thread variable names (locals, params, private maps)
    uniform_blocks: set  # labels of uniformly executed blocks
    divergent_branches: set  # labels of blocks whose branch is divergent

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


def analyse(proc: il.ProcedureDecl, shared_arrays: set, same_group: bool = False) -> Uniformity:
    """Uniformity of the kernel procedure ``proc`` of a one-thread program.

    ``shared_arrays``: names of global map variables holding memory shared by threads
    (reads of them are non-uniform).  ``same_group``: the threads are known to share a
    group, so group ids are uniform (``--only-intra-group``).
    """
    sources = set(ID_CONSTS) | (set() if same_group else set(GROUP_CONSTS))
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
                    if name not in nonuni:
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
    return Uniformity(nonuni - sources, set(labels) - non_u_blocks, divergent)


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
