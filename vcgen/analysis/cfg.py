"""Control-flow graphs of IL procedures: successors, predecessors, dominators, the CFG as
a networkx ``DiGraph`` over block labels, topological order of acyclic graphs.

Natural loops are ``vcgen.analysis.loops`` (dominator-based back edges; irreducible control
flow is a ``ToolError`` with exit code GPUVERIFYVCGEN_ERROR), so lockstep and the VC
generator agree on what a loop is.
"""
from __future__ import annotations

import networkx as nx

from .. import il
from ..il.errors import ExitCode, ToolError


def successors(proc: il.ProcedureDecl) -> dict[str, list[str]]:
    """Label -> list of successor labels (``return`` has none)."""
    return {b.label: list(b.transfer.targets) if isinstance(b.transfer, il.Goto) else []
            for b in proc.body()}


def control_flow_graph(proc: il.ProcedureDecl) -> nx.DiGraph:
    """The CFG as a networkx DiGraph over block labels.  ToolError on a goto to an unknown label."""
    g = nx.DiGraph()
    labels = {b.label for b in proc.body()}
    for b in proc.body():
        g.add_node(b.label)
    for src, targets in successors(proc).items():
        for t in targets:
            if t not in labels:
                raise ToolError(f"{proc.name}: goto to unknown label {t}", ExitCode.GPUVERIFYVCGEN_ERROR)
            g.add_edge(src, t)
    return g


def block_map(proc: il.ProcedureDecl) -> dict[str, il.Block]:
    """Label -> ``il.Block``.  ToolError on duplicate labels."""
    out: dict = {}
    for b in proc.body():
        if b.label in out:
            raise ToolError(f"{proc.name}: duplicate block label {b.label}",
                            ExitCode.GPUVERIFYVCGEN_ERROR)
        out[b.label] = b
    return out


def predecessors(proc: il.ProcedureDecl) -> dict[str, list[str]]:
    """Label -> list of predecessor labels (in block order, without duplicates)."""
    preds: dict = {b.label: [] for b in proc.body()}
    for src, targets in successors(proc).items():
        for t in targets:
            if t in preds and src not in preds[t]:
                preds[t].append(src)
    return preds


def dominators(proc: il.ProcedureDecl) -> dict[str, str]:
    """Immediate dominators (label -> label) of the blocks reachable from the entry."""
    g = control_flow_graph(proc)
    entry = proc.body()[0].label
    return nx.immediate_dominators(g, entry)


def topological_order(labels: list, succ: dict) -> list[str]:
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


def modified_vars(blocks) -> set[str]:
    """Names of the variables (scalars and maps) written by the commands of ``blocks``."""
    out: set = set()
    for b in blocks:
        for c in b.cmds:
            out |= il.cmd_writes(c)
    return out
