"""Control-flow-graph helpers over IL procedures, for the VC generator.

Graphs are networkx ``DiGraph``s over block labels.  Natural loops come from
``vcgen.loopnest.natural_loops`` (dominator-based back edges; irreducible control flow is a
``ToolError`` with exit code GPUVERIFYVCGEN_ERROR), so lockstep and the VC generator agree
on what a loop is.
"""
from __future__ import annotations

import networkx as nx

from . import il
from .il.errors import ExitCode, ToolError
from .loopnest import Loop, control_flow_graph, natural_loops, successors

__all__ = ["Loop", "control_flow_graph", "natural_loops", "successors", "predecessors",
           "block_map", "back_edges", "dominators", "topological_order", "modified_vars",
           "INVARIANT_ATTRS", "is_invariant_assert", "header_invariants"]

# Attributes that make an ``assert`` at the start of a loop header a loop invariant.
INVARIANT_ATTRS = ("invariant", "user_invariant", "candidate")


def block_map(proc: il.ProcedureDecl) -> dict:
    """Label -> ``il.Block``.  ToolError on duplicate labels."""
    out: dict = {}
    for b in proc.blocks:
        if b.label in out:
            raise ToolError(f"{proc.name}: duplicate block label {b.label}",
                            ExitCode.GPUVERIFYVCGEN_ERROR)
        out[b.label] = b
    return out


def predecessors(proc: il.ProcedureDecl) -> dict:
    """Label -> list of predecessor labels (in block order, without duplicates)."""
    preds: dict = {b.label: [] for b in proc.blocks}
    for src, targets in successors(proc).items():
        for t in targets:
            if t in preds and src not in preds[t]:
                preds[t].append(src)
    return preds


def dominators(proc: il.ProcedureDecl) -> dict:
    """Immediate dominators (label -> label) of the blocks reachable from the entry."""
    g = control_flow_graph(proc)
    entry = proc.blocks[0].label
    return nx.immediate_dominators(g, entry)


def back_edges(loops: list) -> set:
    """``{(latch, header)}`` of a list of ``Loop``s."""
    return {(l, lp.header) for lp in loops for l in lp.latches}


def topological_order(labels: list, succ: dict) -> list:
    """Topological order of an acyclic graph, ties broken by position in ``labels``.

    Raises ToolError if the graph still has a cycle (a bug in loop cutting).
    """
    g = nx.DiGraph()
    pos = {l: i for i, l in enumerate(labels)}
    g.add_nodes_from(labels)
    g.add_edges_from((u, v) for u in labels for v in succ[u])
    try:
        return list(nx.lexicographical_topological_sort(g, key=lambda n: pos[n]))
    except nx.NetworkXUnfeasible:
        raise ToolError("internal error: control flow still cyclic after loop cutting",
                        ExitCode.GPUVERIFYVCGEN_ERROR) from None


def modified_vars(blocks) -> set:
    """Names of the variables (scalars and maps) written by the commands of ``blocks``."""
    out: set = set()
    for b in blocks:
        for c in b.cmds:
            out |= il.cmd_writes(c)
    return out


def is_invariant_assert(c: il.Cmd) -> bool:
    return isinstance(c, il.Assert) and any(il.has_attr(c.attrs, a) for a in INVARIANT_ATTRS)


def header_invariants(block: il.Block) -> tuple:
    """(invariant asserts, remaining commands) of a loop header block.

    The invariants are the maximal prefix of ``assert``s carrying ``{:invariant}``,
    ``{:user_invariant}`` or ``{:candidate}`` (docs/IL.md, "Two-thread programs");
    ``assume``s carrying only ``{:sourceloc}`` markers may be interleaved and are kept
    with the rest.
    """
    invs, rest = [], []
    cmds = list(block.cmds)
    i = 0
    while i < len(cmds):
        c = cmds[i]
        if is_invariant_assert(c):
            invs.append(c)
        elif _is_marker(c):
            rest.append(c)
        else:
            break
        i += 1
    return tuple(invs), tuple(rest + cmds[i:])


def _is_marker(c: il.Cmd) -> bool:
    return isinstance(c, il.Assume) and c.expr == il.TRUE
