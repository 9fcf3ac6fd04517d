"""Candidate invariants at two-thread loop heads (paper 003, appendix A; paper 000, 5.3).

Every candidate is an ``assert {:candidate "rN"} _bK ==> e;`` guarded by an existential
constant ``_bK``; nothing here is trusted: Houdini (``vcgen.houdini``) keeps only those
it proves inductive.  Rule names follow paper 003, appendix A:

* ``r8``  loop bound: for a loop guard ``v < e`` (``<=``), the candidate ``v <= e``;
* ``r9``  guard non-negative: ``v >= 0`` for counters in signed guards;
* ``r7``  counter at least its (loop-invariant) initial value;
* ``r10`` strided loop counter: ``(v - v0) mod s == 0`` for ``v := v + s``;
* ``r1``  strided access: ``HAS_OCCURRED ==> (OFFSET - e[v := v0]) mod s == 0``;
* ``r14``/``r15`` power-of-two counters: ``v & (v - 1) == 0`` (or ``v == 0``), ``v != 0``;
* ``r12``/``r13`` no read / no write in flight at heads of loops containing a barrier;
* ``r11`` equality of a non-uniform variable in both threads (predicate equality);
* ``id``  access at thread id plus constant (paper 000, 5.3): ``HAS_OCCURRED ==>
  OFFSET == e`` for every loop-invariant offset expression ``e`` of the kernel;
* ``r4``  uniform enabledness: both threads are in the loop or neither.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import il

if TYPE_CHECKING:
    from .lockstep import Lockstep
    from .loopnest import Loop

CMP_TO_BOUND = {"SLT": "SLE", "SLE": "SLE", "ULT": "ULE", "ULE": "ULE",
                "SGT": "SGE", "SGE": "SGE", "UGT": "UGE", "UGE": "UGE"}
SMT = {"SLE": "bvsle", "ULE": "bvule", "SGE": "bvsge", "UGE": "bvuge", "SUB": "bvsub",
       "UREM": "bvurem", "AND": "bvand", "ADD": "bvadd"}


@dataclass
class LoopFacts:
    ls: "Lockstep"
    loop: "Loop"
    lo: int
    hi: int


def _bv_op(name: str) -> tuple | None:
    """``BV32_SLT`` -> (32, "SLT")."""
    if not name.startswith("BV") or "_" not in name:
        return None
    w, op = name[2:].split("_", 1)
    return (int(w), op) if w.isdigit() else None


class CandidateFactory:
    """Generates candidates for the loops of one lock-step transformation."""

    def __init__(self, ls: "Lockstep"):
        self.ls = ls
        self.count = 0
        self.rules: list = []
        self.defs = self._single_definitions()
        self.accesses = self._accesses()
        self._reach_cache: dict = {}

    # -------------------------------------------------------------- helpers

    def declarations(self) -> list:
        return [il.ConstDecl(f"_b{i + 1}", il.BOOL, attrs=(il.Attr("existential", (il.TRUE,)),))
                for i in range(self.count)]

    def _make(self, rule: str, e: il.Expr) -> il.Assert:
        self.count += 1
        self.rules.append(rule)
        return il.Assert(il.implies(il.Var(f"_b{self.count}"), e), (il.Attr("candidate", (rule,)),))

    def _fun(self, op: str, w: int, *args) -> il.Expr:
        ret_bool = op in ("SLE", "ULE", "SGE", "UGE")
        return il.FunApp(self.ls.bvfun(op, w, SMT[op], len(args), ret_bool), tuple(args))

    def _single_definitions(self) -> dict:
        """Locals assigned exactly once, by a memory-free expression: name -> defining expression."""
        k = self.ls.kernel
        counts: Counter = Counter()
        rhs: dict = {}
        for b in k.blocks:
            for c in b.cmds:
                for n in il.cmd_writes(c):
                    counts[n] += 1
                if isinstance(c, il.Assign):
                    for l, r in zip(c.lhss, c.rhss):
                        if isinstance(l, il.VarLhs):
                            rhs[l.name] = r
        memory = set(self.ls.arrays) | {n for n, t in self.ls.local_types.items() if isinstance(t, il.MapType)}
        defs = {n: e for n, e in rhs.items() if counts[n] == 1 and not (il.free_vars(e) & memory)}
        resolved: dict = {}

        def resolve(n: str, depth: int = 0) -> il.Expr:
            if n in resolved:
                return resolved[n]
            e = defs[n]
            if depth < 50:
                e = il.substitute(e, {v: resolve(v, depth + 1) for v in il.free_vars(e) if v in defs})
            resolved[n] = e
            return e

        for n in defs:
            resolve(n)
        return resolved

    def inline(self, e: il.Expr) -> il.Expr:
        return il.substitute(e, {v: self.defs[v] for v in il.free_vars(e) if v in self.defs})

    def _accesses(self) -> list:
        """(array, "READ"|"WRITE", inlined one-thread offset, block, source key) per logged access."""
        from .lockstep import _loc_key
        out = []
        for b in self.ls.kernel.blocks:
            loc = None
            for c in b.cmds:
                if isinstance(c, il.Assume) and il.has_attr(c.attrs, "sourceloc"):
                    loc = _loc_key(c.attrs)
                if not isinstance(c, il.Assign) or len(c.lhss) != 1:
                    continue
                l, r = c.lhss[0], c.rhss[0]
                if isinstance(l, il.MapLhs) and l.name in self.ls.arrays:
                    out.append((l.name, "WRITE", self.inline(l.index), b.label, loc))
                elif isinstance(r, il.MapSelect) and isinstance(r.map, il.Var) and r.map.name in self.ls.arrays:
                    out.append((r.map.name, "READ", self.inline(r.index), b.label, loc))
        return [a for a in out if self.ls.arrays[a[0]].logged]

    def _reaching(self, lp: "Loop") -> set:
        """Blocks from which the loop header is reachable (they may run before the head)."""
        import networkx as nx
        from .loopnest import control_flow_graph
        if lp.header not in self._reach_cache:
            g = control_flow_graph(self.ls.kernel)
            self._reach_cache[lp.header] = nx.ancestors(g, lp.header) | {lp.header}
        return self._reach_cache[lp.header]

    # ------------------------------------------------------------- loop facts

    def _modified(self, lp: "Loop") -> set:
        mod = set()
        for lab in lp.blocks:
            for c in self.ls.src[lab].cmds:
                mod |= il.cmd_writes(c)
        return mod

    def _assignments(self, v: str, lp: "Loop") -> tuple:
        inside, outside = [], []
        for b in self.ls.kernel.blocks:
            for c in b.cmds:
                if isinstance(c, il.Assign):
                    for l, r in zip(c.lhss, c.rhss):
                        if isinstance(l, il.VarLhs) and l.name == v:
                            (inside if b.label in lp.blocks else outside).append(self.inline(r))
        return inside, outside

    def _has_barrier(self, lp: "Loop") -> bool:
        return any(isinstance(c, il.Call) for lab in lp.blocks for c in self.ls.src[lab].cmds)

    def _guards(self, lp: "Loop") -> list:
        """Comparisons (FunApp) in the partition conditions of branches inside the loop."""
        out = []
        for lab in lp.blocks:
            for t in self.ls.succ[lab]:
                cmds = self.ls.src[t].cmds
                if cmds and isinstance(cmds[0], il.Assume) and il.has_attr(cmds[0].attrs, "partition"):
                    for x in il.subexprs(self.inline(cmds[0].expr)):
                        if isinstance(x, il.FunApp) and len(x.args) == 2 and (_bv_op(x.name) or (0, ""))[1] in CMP_TO_BOUND:
                            out.append(x)
        return out

    # -------------------------------------------------------------- the rules

    def at_loop_head(self, f: LoopFacts) -> list:
        ls, lp = self.ls, f.loop
        mod = self._modified(lp)
        out: list = []
        both = (1, 2)

        def per_thread(rule: str, e: il.Expr) -> None:
            for t in both:
                out.append((rule, ls.ex(e, t)))

        scalars = [v for v in sorted(mod) if isinstance(ls.local_types.get(v), il.BvType)]
        for v in scalars:
            if ls.is_dup(v):
                out.append(("r11", il.BinOp("==", il.Var(f"{v}$1"), il.Var(f"{v}$2"))))
        for g in self._guards(lp):
            w, op = _bv_op(g.name)
            a, b = g.args
            for x, y, o in ((a, b, op), (b, a, {"S": "S", "U": "U"}[op[0]] + {"LT": "GT", "LE": "GE", "GT": "LT", "GE": "LE"}[op[1:]])):
                if isinstance(x, il.Var) and x.name in mod and not (il.free_vars(y) & mod):
                    per_thread("r8", self._fun(CMP_TO_BOUND[o], w, x, y))
                    if o[0] == "S":
                        per_thread("r9", self._fun("SGE", w, x, il.BvLit(0, w)))
        strides = {}
        for v in scalars:
            w = ls.local_types[v].width
            inside, outside = self._assignments(v, lp)
            if len(inside) != 1 or len(outside) != 1 or il.free_vars(outside[0]) & mod:
                continue
            step, init = inside[0], outside[0]
            if isinstance(step, il.FunApp) and _bv_op(step.name) == (w, "ADD") and step.args[0] == il.Var(v) \
                    and not (il.free_vars(step.args[1]) & mod):
                s = step.args[1]
                strides[v] = (init, s)
                if s != il.BvLit(1, w):
                    per_thread("r10", il.BinOp("==", self._fun("UREM", w, self._fun("SUB", w, il.Var(v), init), s),
                                                il.BvLit(0, w)))
                per_thread("r7", self._fun("SGE", w, il.Var(v), init))
                per_thread("r7", self._fun("UGE", w, il.Var(v), init))
            elif isinstance(step, il.FunApp) and (_bv_op(step.name) or (0, ""))[1] in ("SHL", "LSHR", "ASHR", "MUL", "UDIV", "SDIV"):
                pow2 = il.BinOp("==", self._fun("AND", w, il.Var(v), self._fun("SUB", w, il.Var(v), il.BvLit(1, w))),
                                il.BvLit(0, w))
                per_thread("r14", il.BinOp("||", il.BinOp("==", il.Var(v), il.BvLit(0, w)), pow2))
                per_thread("r15", il.BinOp("!=", il.Var(v), il.BvLit(0, w)))
        barrier = self._has_barrier(lp)
        for name, a in ls.arrays.items():
            if not a.logged:
                continue
            for kind in ("READ", "WRITE"):
                if not any(acc[0] == name and acc[1] == kind and acc[3] in lp.blocks for acc in self.accesses):
                    continue
                ho, off = ls.log_var(a, kind, "HAS_OCCURRED"), ls.log_var(a, kind, "OFFSET")
                # The logged source is one of the accesses that can precede this head, so
                # reports name a real access of thread 1 after the loop's havoc.
                srcs = sorted({ls.sourceloc_num(acc[4]).value for acc in self.accesses
                               if acc[0] == name and acc[1] == kind and acc[3] in self._reaching(lp)})
                if srcs:
                    out.append(("src", il.implies(ho, il.or_all(
                        il.BinOp("==", ls.log_var(a, kind, "SOURCE"), il.IntLit(n)) for n in srcs))))
                if barrier:
                    # Barriers reset logs only for threads of one group (DESIGN.md 5.6).
                    rule = "r12" if kind == "READ" else "r13"
                    out.append((rule, il.not_(ho)))
                    out.append((rule, il.implies(ls.same_group(), il.not_(ho))))
                offsets = []
                for arr, k, e, _, _ in self.accesses:
                    if arr != name or k != kind:
                        continue
                    if not (il.free_vars(e) & mod):
                        offsets.append(ls.ex(e, 1))
                    for v, (init, s) in strides.items():
                        if v in il.free_vars(e) and not ((il.free_vars(e) - {v}) & mod) and isinstance(a.dom, il.BvType):
                            w = a.dom.width
                            if ls.local_types[v].width != w:
                                continue
                            base = ls.ex(il.substitute(e, {v: init}), 1)
                            out.append(("r1", il.implies(ho, il.BinOp(
                                "==", self._fun("UREM", w, self._fun("SUB", w, off, base), ls.ex(s, 1)), il.BvLit(0, w)))))
                for e in dict.fromkeys(offsets):
                    out.append(("id", il.implies(ho, il.BinOp("==", off, e))))
                if len(set(offsets)) > 1:
                    out.append(("id", il.implies(ho, il.or_all(il.BinOp("==", off, e) for e in dict.fromkeys(offsets)))))
        at = [il.BinOp("==", ls.cur(t), il.IntLit(f.lo)) for t in both]
        out.append(("r4", il.BinOp("==", at[0], at[1])))
        out.append(("r4", il.BinOp("==", ls.cur(1), ls.cur(2))))
        return self._dedupe(out)

    def _dedupe(self, cands: list) -> list:
        """Candidate asserts for (rule, expression) pairs, each expression once."""
        seen, out = set(), []
        for rule, e in cands:
            if e not in seen:
                seen.add(e)
                out.append(self._make(rule, e))
        return out
