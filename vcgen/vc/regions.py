"""Region queries: a check of a loop-cut VC asked first over the part of the VC after the
cut point that owns it (docs/design.md section 6).

After loop cutting (``loopcut.cut_loops``) the state at a loop's cut point is "the
variables the loop modifies arbitrary, its invariants assumed"; the checks a cut point
owns (``slicing.check_owners``: those it dominates with no other cut point in between)
read the rest of the state from the prefix before it, through the facts of the blocks
that dominate the cut point (launch constraints, preconditions, outer invariants and loop
conditions) and, rarely, through paths that do not dominate it (join copies of an ``if``
before the loop).  One VC holds every loop of a kernel, and the solver's work per query
grew with the whole prefix (``make bench-scaling``, loop nest of depth 50: Houdini's and
the final check's per-loop queries 0.02 s at depth 10, 0.09 s at depth 50, searching the
outer loops' terms).  A *region* of a set of owners ``O`` is

* the blocks on paths from a block of ``O`` to a check owned by ``O``, with their
  constraints as in the VC (``encode.BlockEncoding``);
* for each such block with no predecessor in the region (a *root*), ``reach`` true
  instead of its definition, and the facts of every block that strictly dominates it;
* the axioms, and the goal over the region's checks.

Sound as a proof: a model of the whole query is a path from the entry to a failing
enabled check; the path passes its owner and every dominator of it, whose facts it
satisfies, and the region's block Booleans recomputed along it make the same check fail
in the region (its other constraints are definitions of fresh names, or the same
constraints over the same values).  So region unsat implies the whole query unsat.  A
region model may be spurious (it dropped non-dominating prefix facts): region sat never
decides anything; the whole query is asked then (``solvers.regional``).
"""
from __future__ import annotations

from typing import NamedTuple

import networkx as nx
import z3

from .. import il
from .encode import VC
from .slicing import DEFINITION_ATTRS
from .slicing import check_owners, cut_blocks


# A region is used only when it has at most this share of the VC's constraints: a region
# query saves the most on unsat answers, and before a sat one it is wasted work, which a
# large region makes dear (PolyBench gemm kernel0, a sat-heavy Houdini over 5 loops: its
# regions are 40-74% of the VC; at a share of 0.5 its one region queried 12.1 -> 17.1 s
# CPU loaded).  The regions of bench-scaling's depth-50 nests are at most 24%.
REGION_MAX_SHARE = 1 / 3

# How far ``_dominator_facts`` follows shared variables from the region: facts that read
# a variable of the region (one hop), not the facts those read in turn.  A loop's cut
# invariants relate the variables it modifies to their values at its entry, which are its
# parent's cut variables, and so on up the nest: following that chain made the region of
# the loop at depth d hold the facts of every enclosing loop (bench-scaling sync-loop,
# program counters and access logs: +23 constraints per level, 1243 at depth 50; one hop:
# 358-507 at every depth, every region query still unsat).  Fewer facts only weaken the
# region (module docstring): a query a far fact would decide goes to the whole VC.
FACT_HOPS = 1


class Region(NamedTuple):
    """A region's formula (module docstring): ``constraints`` including its goal;
    ``checks``: the VC check indices it can falsify; ``size``: its constraints;
    ``guards``: the Houdini guard names its constraints read (the others' literals name
    nothing in it)."""
    constraints: list
    checks: frozenset
    size: int
    guards: frozenset = frozenset()


class Regions:
    """The regions of a loop-cut VC, by owner set (cached)."""

    def __init__(self, vc: VC):
        self.vc = vc
        blocks = vc.passive.blocks
        self.by_label = {e.label: e for e in vc.blocks}
        self.by_label_passive = {b.label: b for b in blocks}
        self.graph = nx.DiGraph()
        self.graph.add_nodes_from(b.label for b in blocks)
        self.graph.add_edges_from((b.label, t) for b in blocks for t in b.succs)
        self.idom = nx.immediate_dominators(self.graph, blocks[0].label) if blocks else {}
        owner_of = check_owners(vc.passive)
        # VC check index -> owner block, for checks of an assertion of the passive program
        self.owner = {c.index: owner_of[c.site.index] for c in vc.checks
                      if c.site is not None and c.site.index in owner_of}
        self._owned: dict = {}  # owner -> blocks of its checks
        for i, o in self.owner.items():
            self._owned.setdefault(o, set()).add(vc.checks[i].site.block)
        self.checks_in: dict = {}  # block -> the VC check indices of its assertions
        for c in vc.checks:
            if c.site is not None:
                self.checks_in.setdefault(c.site.block, []).append(c.index)
        self.cuts = cut_blocks(vc.passive) | ({blocks[0].label} if blocks else set())
        self.axioms = vc.constraints[:vc.blocks[0].first] if vc.blocks else []
        self._cache: dict = {}
        # incarnation -> the value it was assigned (``passify.DEFINITION``, join copies)
        self.defs: dict = {}
        self.defined: set = set()  # assigned once (``passify.DEFINITION``), not a join
        for b in blocks:
            for c in b.cmds:
                if isinstance(c, il.Assume) and any(il.has_attr(c.attrs, a) for a in DEFINITION_ATTRS) \
                        and isinstance(c.expr, il.BinOp) and isinstance(c.expr.left, il.Var):
                    self.defs.setdefault(c.expr.left.name, []).append(c.expr.right)
                    if il.has_attr(c.attrs, "definition"):
                        self.defined.add(c.expr.left.name)
        self._leaves: dict = {}
        self._fact_names: dict = {}
        self._block_names: dict = {}
        self._consts: frozenset | None = None

    @property
    def consts(self) -> frozenset[str]:
        """The initial state: constants, and the names passification gives the initial
        incarnation of each variable (``x``, not ``x@k``), e.g. the kernel's parameters."""
        if self._consts is None:
            free = set().union(*[il.free_vars(c.expr) for b in self.vc.passive.blocks for c in b.cmds])
            self._consts = frozenset(self.vc.translator.program.consts()) | frozenset(
                n for n in free if "@" not in n)
        return self._consts

    def _names_in(self, label: str) -> frozenset:
        """The variables the commands of block ``label`` read (cached)."""
        hit = self._block_names.get(label)
        if hit is None:
            cmds = self.by_label_passive[label].cmds
            hit = self._block_names[label] = frozenset().union(*[self._names(c.expr) for c in cmds])
        return hit

    def owners(self) -> set[str]:
        """The blocks that own some check (the entry, loop cut points)."""
        return set(self.owner.values())

    def for_checks(self, enabled) -> Region | None:
        """The region of the owners of the checks ``enabled`` (VC indices), or None when
        one of them has no owner (the synthetic end check) or the region is more than
        ``REGION_MAX_SHARE`` of the VC."""
        try:
            owners = frozenset(self.owner[i] for i in enabled)
        except KeyError:
            return None
        if not owners:
            return None
        if owners not in self._cache:
            self._cache[owners] = self._region(owners)
        return self._cache[owners]

    def _region(self, owners: frozenset) -> Region | None:
        inside: set = set()
        for o in owners:
            inside |= self._between(self._enclosing(o), self._owned[o])
        # the region's blocks in VC order, found without scanning the VC (one region per
        # loop: a scan made building them quadratic in the nest's depth)
        encodings = sorted((self.by_label[b] for b in inside), key=lambda e: e.first)
        if not inside or sum(e.end - e.first for e in encodings) > REGION_MAX_SHARE * len(self.vc.constraints):
            return None
        constraints = list(self.axioms)
        read = set().union(*[self._names_in(b) for b in inside])
        for e in encodings:
            part = self.vc.constraints[e.first:e.end]
            if not any(p in inside for p in self.graph.predecessors(e.label)):
                constraints.append(e.reach)  # a root: reached, its dominators' facts hold
                facts = self._dominator_facts(e.label, inside)
                constraints += [term for term, _ in facts]
                read = read.union(*[names for _, names in facts])
                part = part[1:]  # the definition of ``reach``
            constraints += part
        checks = frozenset(i for b in inside for i in self.checks_in.get(b, ()))
        if len(constraints) > REGION_MAX_SHARE * len(self.vc.constraints):
            return None
        return Region(constraints + [self._goal(sorted(checks))], checks, len(constraints),
                      frozenset(read.intersection(self.vc.guards)))

    def _goal(self, checks: list[int]) -> z3.BoolRef:
        """``OR_i (enable_i AND fail_i)`` over the VC check indices ``checks`` (``false``
        for none).  Through z3's C API: a region of a loop nest has a hundred checks,
        and the Python wrappers' argument checks cost more than the terms (bench-scaling
        sync-loop 50: 12 000 conjunctions over 101 regions)."""
        ctx = self.vc.ctx
        ref = ctx.ref()
        fails = []
        for i in checks:
            c = self.vc.checks[i]
            pair = (z3.Ast * 2)(c.enable.as_ast(), c.fail.as_ast())
            fails.append(z3.BoolRef(z3.Z3_mk_and(ref, 2, pair), ctx))
        if not fails:
            return z3.BoolVal(False, ctx)
        if len(fails) == 1:
            return fails[0]
        arr = (z3.Ast * len(fails))(*[f.as_ast() for f in fails])
        return z3.BoolRef(z3.Z3_mk_or(ref, len(fails), arr), ctx)

    def _between(self, start: str, targets: set) -> set:
        """The blocks on paths from ``start`` to ``targets``, when every path from the
        entry to a target passes ``start`` (an owner's enclosing cut point dominates its
        checks): the targets' ancestors up to ``start``, found backwards without visiting
        the rest of the VC."""
        seen = set(targets) | {start}
        todo = list(targets - {start})
        while todo:
            for p in self.graph.predecessors(todo.pop()):
                if p not in seen:
                    seen.add(p)
                    todo.append(p)
        return seen

    def _enclosing(self, label: str) -> str:
        """The nearest cut point strictly dominating the block ``label`` (itself for the
        entry)."""
        d = label
        while self.idom.get(d, d) != d:
            d = self.idom[d]
            if d in self.cuts:
                return d
        return d

    def _dominator_facts(self, label: str, inside: set) -> list[tuple]:
        """The facts of the blocks strictly dominating ``label`` that may matter to the
        region ``inside``: those over the initial state alone (launch constraints,
        preconditions), and those sharing a variable with the region, or, up to
        ``FACT_HOPS`` steps, with such a fact (cone of influence over variables; the
        initial state shared by every loop, like the thread ids and the kernel's
        parameters, does not pull in an outer loop's facts).  Dropping a fact only
        weakens the region.  ``(term, every name it reads)`` per fact."""
        todo: list = []
        d = label
        while self.idom.get(d, d) != d:
            d = self.idom[d]
            todo += self._facts_of(d)
        names = set().union(*[self._names_in(b) for b in inside]) - self.consts
        out: list = []
        for _ in range(FACT_HOPS):
            reached: set = set()
            rest = []
            for term, used, read in todo:
                if used & names or not used:
                    out.append((term, read))
                    reached |= used
                else:
                    rest.append((term, used, read))
            todo = rest
            if not reached - names:
                break
            names |= reached
        return out

    def _facts_of(self, label: str) -> list:
        """``(term, variables other than the initial state, every name)`` of each fact of
        a block that reads some variable (cached; a fact over literals alone is skipped)."""
        hit = self._fact_names.get(label)
        if hit is None:
            hit = self._fact_names[label] = [(f.term, names - self.consts, names)
                                             for f in self.by_label[label].facts
                                             if (names := self._names(f.expr))]
        return hit

    def _names(self, e: il.Expr) -> frozenset:
        """The variables ``e`` reads, through the definitions of incarnations."""
        return frozenset().union(*[self._leaves_of(v) for v in il.free_vars(e)])

    def _leaves_of(self, name: str) -> frozenset:
        """``name``'s variables: for an incarnation assigned once, those of its value (the
        VC may inline it: ``encode.DefinitionInliner``; if not, its equation is a fact over
        the same variables); else ``name`` and those of its join copies' sources.
        Iterative: definition chains of straight-line code are deeper than Python's
        recursion limit (corpus conv2d)."""
        todo = [(name, False)]
        while todo:
            n, ready = todo.pop()
            if n in self._leaves:
                continue
            reads = set().union(*[il.free_vars(r) for r in self.defs.get(n, ())])
            if not ready:
                todo.append((n, True))
                todo += [(r, False) for r in reads if r not in self._leaves and r != n]
                continue
            own = frozenset() if n in self.defined else frozenset((n,))
            self._leaves[n] = own.union(*[self._leaves.get(r, frozenset((r,))) for r in reads])
        return self._leaves[name]
