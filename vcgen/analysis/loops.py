"""Loop nesting forest and the loop-aware linear block order used by lock-step predication.

The two-thread program executes the blocks of a (partly) predicated kernel in one fixed
order in which (a) every forward edge goes to a later block and (b) the blocks of each
natural loop are contiguous, header first.  Such an order exists iff the CFG is
reducible; it is what lets each natural loop of the kernel stay exactly one loop of the
two-thread program with the same header (paper 000, section 4, figures 2 and 9;
docs/design.md section 5.3).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import networkx as nx

from .. import il
from ..il.errors import ExitCode, ToolError
from .cfg import control_flow_graph, successors


@dataclass
class Loop:
    header: str
    blocks: set  # labels, header included, nested loops' blocks included
    latches: set  # sources of back edges to the header
    children: list = field(default_factory=list)
    parent: "Loop | None" = None

    def exits(self, succ: dict) -> set[str]:
        """Targets outside the loop of edges leaving it."""
        return {t for b in self.blocks for t in succ[b] if t not in self.blocks}


@dataclass
class LoopItem:
    """A loop in the linear order: its header's block first, then its body items."""
    loop: Loop
    items: list


def natural_loops(proc: il.ProcedureDecl) -> list[Loop]:
    """The natural loops (back edges grouped by header), nested into a forest.

    Returns the list of all loops, outermost first.  Raises ToolError
    (GPUVERIFYVCGEN_ERROR) on irreducible control flow.
    """
    g = control_flow_graph(proc)
    entry = proc.body()[0].label
    reachable = nx.descendants(g, entry) | {entry}  # one search, not one per block
    g.remove_nodes_from([n for n in list(g) if n not in reachable])
    idom = nx.immediate_dominators(g, entry)

    def dominates(a: str, b: str) -> bool:
        while True:
            if a == b:
                return True
            if b == entry:
                return False
            b = idom[b]

    back = [(u, v) for u, v in g.edges if dominates(v, u)]
    forward = g.copy()
    forward.remove_edges_from(back)
    if not nx.is_directed_acyclic_graph(forward):
        cyc = nx.find_cycle(forward)
        raise ToolError(f"{proc.name}: irreducible control flow (cycle through {cyc[0][0]} "
                        f"without a dominating header)", ExitCode.GPUVERIFYVCGEN_ERROR)
    loops: dict = {}
    for u, h in back:
        lp = loops.setdefault(h, Loop(h, {h}, set()))
        lp.latches.add(u)
        stack = [u]
        while stack:
            x = stack.pop()
            if x not in lp.blocks:
                lp.blocks.add(x)
                stack.extend(g.predecessors(x))
    ordered = sorted(loops.values(), key=lambda l: -len(l.blocks))
    for i, lp in enumerate(ordered):
        for outer in reversed(ordered[:i]):
            if lp.header in outer.blocks and lp is not outer:
                lp.parent = outer
                outer.children.append(lp)
                break
    return ordered


def back_edges(loops: list) -> set[tuple[str, str]]:
    """``{(latch, header)}`` of a list of ``Loop``s."""
    return {(l, lp.header) for lp in loops for l in lp.latches}


def linear_order(proc: il.ProcedureDecl, loops: list) -> list[LoopItem | str]:
    """The loop-aware topological order as a nested item list.

    Items are block labels (``str``) and ``LoopItem``s.  Unreachable blocks are dropped.
    Ties are broken by the blocks' order in the procedure, so the result follows source order.
    """
    succ = successors(proc)
    position = {b.label: i for i, b in enumerate(proc.body())}
    entry = proc.body()[0].label
    reachable = nx.descendants(control_flow_graph(proc), entry) | {entry}
    innermost: dict = {}
    for lp in loops:  # outermost first, so inner loops overwrite
        for b in lp.blocks:
            innermost[b] = lp

    def top_loop_below(b: str, enclosing: Loop | None) -> Loop | None:
        lp = innermost.get(b)
        if lp is None or lp is enclosing:
            return None
        while lp.parent is not enclosing:
            lp = lp.parent
        return lp

    def order(nodes: set, enclosing: Loop | None) -> list[LoopItem | str]:
        rep = {}
        for b in nodes:
            lp = top_loop_below(b, enclosing)
            rep[b] = lp.header if lp else b
        dag = nx.DiGraph()
        dag.add_nodes_from(set(rep.values()))
        for u in nodes:
            for v in succ[u]:
                if v in nodes and rep[u] != rep[v] and not (enclosing and v == enclosing.header):
                    dag.add_edge(rep[u], rep[v])
        items: list[LoopItem | str] = []
        for r in nx.lexicographical_topological_sort(dag, key=lambda n: position[n]):
            lp = innermost.get(r)
            if lp is not None and lp.header == r and lp is not enclosing:
                items.append(LoopItem(lp, [lp.header] + order(lp.blocks - {lp.header}, lp)))
            else:
                items.append(r)
        return items

    return order(reachable, None)


def flatten(items: list) -> list[str]:
    """Block labels of a nested item list, in order."""
    out = []
    for it in items:
        if isinstance(it, LoopItem):
            out += flatten(it.items)
        else:
            out.append(it)
    return out
