"""Offsets-first proof: a strengthened, sliced passive program for the final check.

Benign write-write tolerance (docs/design.md 5.8) makes each write-write race check
``!(C && D)``: ``C`` says the logged write of thread 1 and thread 2's write hit the same
cell, ``D`` that their values differ.  The values are whole floating-point computations
(uninterpreted ``FMUL32``... over bit-vectors), which the solver bit-blasts even when the
offsets alone rule the collision out (SHOC s3d: tens of seconds per final check).

``offsets_first`` strengthens every such check (``{:benign_value}``, vcgen.twothread.logs)
to ``!C`` and then drops every definition no assertion or assumption can observe
(cone-of-influence slicing).  Sound as a *proof* only:

- ``!C`` implies ``!(C && D)``, so if every assertion of the strengthened program holds
  (each is assumed after it is checked, as in the original), every assertion of the
  original holds on every execution: the strengthened program's executions that reach an
  assertion include all the original's executions that satisfy the earlier (original)
  assertions, because the original's assumptions are weaker.  Houdini run on the
  strengthened program yields invariants that are inductive together with the
  strengthened assertions, which the final check then proves.
- A definition ``assume x@k == e`` (``passify.DEFINITION``, or a join copy
  ``passify.JOIN_COPY``) whose incarnation ``x@k`` occurs in no kept command constrains
  only ``x@k``: ``F && x@k == e`` is satisfiable iff ``F`` is, so dropping it keeps the VC
  equisatisfiable.  Uses of ``x@k`` come after its definitions in the topological block
  order, so one backward pass decides liveness.

A failed proof says nothing about the original program (a real benign race fails ``!C``),
so callers fall back to the full program for errors, reports and vacuity answers other
than "reachable".
"""
from __future__ import annotations

from dataclasses import replace

import networkx as nx

from .. import il
from .passify import DEFINITION_ATTRS, PassiveAssert, PassiveBlock, PassiveProgram


def _offsets_only(a: PassiveAssert) -> PassiveAssert:
    """``!(C && D)`` -> ``!C`` for a ``{:benign_value}`` check; other assertions unchanged."""
    e = a.expr
    if il.has_attr(a.attrs, "benign_value") and isinstance(e, il.UnOp) and e.op == "!" \
            and isinstance(e.operand, il.BinOp) and e.operand.op == "&&":
        return replace(a, expr=il.not_(e.operand.left))
    return a


def _is_definition(c) -> bool:
    return isinstance(c, il.Assume) and any(il.has_attr(c.attrs, n) for n in DEFINITION_ATTRS) \
        and isinstance(c.expr, il.BinOp) and c.expr.op == "==" and isinstance(c.expr.left, il.Var)


def _attr_vars(attrs: il.Attrs) -> set[str]:
    return {v for a in attrs for x in a.args if not isinstance(x, str) for v in il.free_vars(x)}


def slice_dead_definitions(passive: PassiveProgram) -> tuple[PassiveProgram, int]:
    """``(sliced program, definitions dropped)``: ``passive`` without the definitions of
    incarnations that no assertion (expression or attribute), ordinary assumption or kept
    definition reads."""
    live: set[str] = set()
    kept_blocks: list[PassiveBlock] = []
    dropped = 0
    for b in reversed(passive.blocks):
        kept: list = []
        for c in reversed(b.cmds):
            if _is_definition(c):
                if c.expr.left.name not in live:
                    dropped += 1
                    continue
                live |= il.free_vars(c.expr.right)
            elif isinstance(c, PassiveAssert):
                live |= il.free_vars(c.expr) | _attr_vars(c.attrs)
            else:
                live |= il.free_vars(c.expr)
            kept.append(c)
        kept_blocks.append(replace(b, cmds=kept[::-1]))
    return replace(passive, blocks=kept_blocks[::-1]), dropped


def offsets_first(passive: PassiveProgram) -> PassiveProgram | None:
    """The strengthened, sliced program (module docstring), or None when it would equal
    ``passive`` (no value comparison to drop and nothing dead)."""
    strengthened = 0
    blocks = []
    asserts = []
    for b in passive.blocks:
        cmds = []
        for c in b.cmds:
            if isinstance(c, PassiveAssert):
                s = _offsets_only(c)
                strengthened += s is not c
                asserts.append(s)
                c = s
            cmds.append(c)
        blocks.append(replace(b, cmds=cmds))
    sliced, _ = slice_dead_definitions(replace(passive, blocks=blocks, asserts=asserts))
    return sliced if strengthened else None


# ------------------------------------------------------------- per-loop check groups


def _is_cut_point(c) -> bool:
    return isinstance(c, il.Assume) and il.has_attr(c.attrs, "cut_point")


def cut_blocks(passive: PassiveProgram) -> set[str]:
    """Labels of the blocks holding a cut point (``loopcut.CUT_POINT``)."""
    return {b.label for b in passive.blocks if any(_is_cut_point(c) for c in b.cmds)}


def check_owners(passive: PassiveProgram) -> dict[int, str]:
    """The cut point that owns each assertion of ``passive`` (``PassiveAssert.index`` ->
    the label of the block holding the cut point, or of the entry block): a cut point
    (``loopcut.CUT_POINT``, a loop's state after its havoc and assumed invariants; or the
    kernel entry) owns the assertions it dominates with no other cut point in between,
    except that the checks of an ``H$entry`` block before its cut point (invariants on
    loop entry) belong to the enclosing loop.  So the assertions of one owner are one loop
    body's race and divergence checks and the checks of the invariants it reaches (entry
    of inner loops, its own back edges)."""
    entry = passive.blocks[0].label
    g = nx.DiGraph()
    g.add_nodes_from(b.label for b in passive.blocks)
    g.add_edges_from((b.label, t) for b in passive.blocks for t in b.succs)
    idom = nx.immediate_dominators(g, entry)
    marker = {b.label: i for b in passive.blocks for i, c in enumerate(b.cmds) if _is_cut_point(c)}
    cut: dict[str, str] = {}
    owners: dict[int, str] = {}
    for b in passive.blocks:  # topological: a block's dominators come first
        cut[b.label] = b.label if b.label == entry or b.label in marker else cut[idom[b.label]]
        for i, c in enumerate(b.cmds):
            if isinstance(c, PassiveAssert):
                before_cut = b.label in marker and i < marker[b.label]
                owners[c.index] = cut[idom[b.label]] if before_cut else cut[b.label]
    return owners


def loop_check_groups(passive: PassiveProgram) -> list[set[int]]:
    """The assertions of ``passive`` (``PassiveAssert.index``) grouped by the cut point
    that owns them (``check_owners``), in program order.

    The final check queries one group at a time on the same VC (the others assumed):
    the goal is the disjunction of the groups' goals, so every group unsat is the whole
    query unsat; on loop nests the solver's cost for the whole query grew quadratically in
    the depth (``make bench-scaling``, loop families: 67 s at depth 50, 5 s by groups),
    as for Houdini's per-loop queries (``vcgen.inference.houdini.loop_slices``)."""
    groups: dict[str, set[int]] = {}
    for index, owner in check_owners(passive).items():
        groups.setdefault(owner, set()).add(index)
    return list(groups.values())


# ------------------------------------------------------------- per-check cone of influence


def cone_constraints(vc, checks) -> list[int]:
    """Indices into ``vc.constraints`` (a ``encode.VC``) of the constraints a query over
    the checks ``checks`` (VC check indices) can depend on, in VC order: every fact (axioms,
    the entry's ``reach``) and the definitions of the named Booleans ``fail_k`` of those
    checks read, transitively (``VC.definitions``): the path conditions of the blocks
    that can reach them and the checks assumed on the way.  Empty when ``vc`` records no
    definitions.

    Why: after a split (``solvers.split``) each check is its own query, yet the solver
    still gets every block's definitions, and neither yices nor z3 drops those it cannot
    use (parboil sad, one race check of the loop body: yices 3.4 -> 1.0 s CPU, z3 3.2 ->
    1.4 s, on its cone: 91 of 241 definitions).

    Sound (``solvers.sliced``): the cone is a subset of the constraints, so the cone and
    ``fail_k`` unsat implies the whole query over ``checks`` unsat; and as each dropped
    constraint defines a fresh Boolean no kept constraint reads, any model of the cone
    extends to one of the whole query (no spurious models: the slice is exact)."""
    defs = vc.definitions
    if not defs:
        return []
    defined = {i for i, _ in defs.values()}
    keep = [i for i in range(len(vc.constraints)) if i not in defined]
    seen: set[str] = set()
    todo = [vc.checks[k].label for k in checks]
    while todo:
        name = todo.pop()
        if name in seen or name not in defs:
            continue
        seen.add(name)
        index, reads = defs[name]
        keep.append(index)
        todo += [r for r in reads if r not in seen]
    return sorted(keep)
