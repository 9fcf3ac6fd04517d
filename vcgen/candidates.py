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
* ``r4``  uniform enabledness: both threads are in the loop or neither;
* ``src`` the logged source is one of the accesses that may precede the head;
* ``log`` a log the loop never fills only shrinks (barriers reset it).
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
       "UREM": "bvurem", "AND": "bvand", "ADD": "bvadd", "MUL": "bvmul", "SHL": "bvshl"}


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


def _fold(op: str, w: int, a: il.Expr, b: il.Expr) -> il.Expr:
    """``BVw_op(a, b)``, computed when both are literals (ADD, SUB, MUL, SHL)."""
    if isinstance(a, il.BvLit) and isinstance(b, il.BvLit):
        m = (1 << w) - 1
        v = {"ADD": a.value + b.value, "SUB": a.value - b.value, "MUL": a.value * b.value,
             "SHL": a.value << b.value if b.value < w else 0}[op]
        return il.BvLit(v & m, w)
    zero, one = il.BvLit(0, w), il.BvLit(1, w)
    if op == "ADD" and a == zero:
        return b
    if op in ("ADD", "SUB", "SHL") and b == zero:
        return a
    if op == "MUL" and one in (a, b):
        return b if a == one else a
    return il.FunApp(f"BV{w}_{op}", (a, b))


def _atoms(e: il.Expr, mod: set, w: int) -> list:
    """Maximal sub-terms of ``e`` that mention ``mod`` and are not w-bit +, -, * or << nodes."""
    out: list = []

    def walk(x: il.Expr) -> None:
        if not (il.free_vars(x) & mod):
            return
        op = _bv_op(x.name) if isinstance(x, il.FunApp) else None
        if op and op[0] == w and op[1] in ("ADD", "SUB", "MUL", "SHL") and len(x.args) == 2:
            for a in x.args:
                walk(a)
        elif x not in out:
            out.append(x)
    walk(e)
    return out


def _replace(e: il.Expr, old: il.Expr, new: il.Expr) -> il.Expr:
    """``e`` with every occurrence of the sub-term ``old`` (under function applications) replaced."""
    if e == old:
        return new
    if isinstance(e, il.FunApp):
        return il.FunApp(e.name, tuple(_replace(a, old, new) for a in e.args))
    return e


def _common_stride(e: il.Expr, atoms: list, w: int) -> tuple:
    """``(m, rest)``: ``e == sum(c_i * atom_i) + rest`` with every literal ``c_i`` a multiple of
    the power of two ``m`` (so ``e - rest`` is a multiple of ``m`` modulo ``2**w``); m = 0 if
    some coefficient is not a literal."""
    from math import gcd
    g = 0
    for i, atom in enumerate(atoms):
        x = f"$$atom{i}"
        lin = _linear(_replace(e, atom, il.Var(x)), x, w)
        if lin is None or not isinstance(lin[0], il.BvLit):
            return 0, e
        g = gcd(g, lin[0].value)
        e = lin[1]
    if g == 0:
        return 0, e
    return g & -g, e  # largest power of two dividing every coefficient


def _linear(e: il.Expr, x: str, w: int) -> tuple | None:
    """``(c, rest)`` with ``e == c * x + rest`` (w-bit, modular) and ``x`` in neither; else None."""
    zero = il.BvLit(0, w)
    if e == il.Var(x):
        return il.BvLit(1, w), zero
    if x not in il.free_vars(e):
        return zero, e
    op = _bv_op(e.name) if isinstance(e, il.FunApp) else None
    if not op or op[0] != w or len(e.args) != 2:
        return None
    a, b = e.args
    if op[1] in ("ADD", "SUB"):
        la, lb = _linear(a, x, w), _linear(b, x, w)
        if la is None or lb is None:
            return None
        return _fold(op[1], w, la[0], lb[0]), _fold(op[1], w, la[1], lb[1])
    if op[1] == "MUL":
        if x not in il.free_vars(b):
            la = _linear(a, x, w)
            return None if la is None else (_fold("MUL", w, la[0], b), _fold("MUL", w, la[1], b))
        if x not in il.free_vars(a):
            lb = _linear(b, x, w)
            return None if lb is None else (_fold("MUL", w, a, lb[0]), _fold("MUL", w, a, lb[1]))
    if op[1] == "SHL" and isinstance(b, il.BvLit):
        la = _linear(a, x, w)
        return None if la is None else (_fold("SHL", w, la[0], b), _fold("SHL", w, la[1], b))
    return None


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
        for x in il.subexprs(e):  # operations built by _fold must be declared
            op = _bv_op(x.name) if isinstance(x, il.FunApp) else None
            if op and op[1] in SMT:
                self.ls.bvfun(op[1], op[0], SMT[op[1]], len(x.args), op[1] in ("SLE", "ULE", "SGE", "UGE"))
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
                if isinstance(c, il.Call) and il.has_attr(c.attrs, "atomic"):
                    out.append((il.attr(c.attrs, "atomic").args[0], "ATOMIC", self.inline(c.args[0]), b.label, loc))
                    continue
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

    def _accessed_in(self, array: str, kind: str, lp: "Loop") -> bool:
        return any(acc[0] == array and acc[1] == kind and acc[3] in lp.blocks for acc in self.accesses)

    def log_ghosts(self, lp: "Loop") -> list:
        """(ghost name, HAS_OCCURRED var) for logs a loop's barriers reset but it never fills.

        Such a log only shrinks in the loop; the ghost holds its value at loop entry so
        the candidate ``HAS_OCCURRED ==> ghost`` keeps offset and source meaningful after
        the loop's havoc (rule ``log``).
        """
        if not self._has_barrier(lp):
            return []
        out = []
        for name, a in self.ls.arrays.items():
            for kind in self.ls.log_kinds(a):
                if a.logged and not self._accessed_in(name, kind, lp):
                    out.append((f"_{kind}_HAS_OCCURRED_{name}$entry{lp.header}",
                                self.ls.log_var(a, kind, "HAS_OCCURRED")))
        return out

    def _strided_access(self, ho, off, e, mod: set, strides: dict, dom_width: int) -> list:
        """Rule r1 for an access at offset ``e`` (one-thread, inlined) inside a loop.

        For every loop-modified ``x`` with ``e == c * x + rest`` (``c``, ``rest``
        loop-invariant): ``(OFF - rest) mod c == 0``; if ``x`` is a strided counter from
        ``x0`` by ``s``: ``(OFF - e[x := x0]) mod (c * s) == 0``.  A 64-bit offset that
        extends a narrower index (CUDA) gets the candidates at the index's width on
        ``OFF[w:0]``, plus ``OFF[64:w] == 0`` for zero extension.
        """
        ls = self.ls
        op = _bv_op(e.name) if isinstance(e, il.FunApp) else None
        if op and op[1] in (f"ZEXT{dom_width}", f"SEXT{dom_width}"):
            w = op[0]
            extra = []
            if op[1].startswith("ZEXT"):
                extra.append(("r1", il.implies(ho, il.BinOp("==", il.BvExtract(off, dom_width, w),
                                                             il.BvLit(0, dom_width - w)))))
            return extra + self._strided_access(ho, il.BvExtract(off, w, 0), e.args[0], mod, strides, w)
        w, out = dom_width, []
        atoms = _atoms(e, mod, w)
        m, rest0 = _common_stride(e, atoms, w)
        if m > 1 and not (il.free_vars(rest0) & mod):
            residue = self._fun("UREM", w, self._fun("SUB", w, off, ls.ex(rest0, 1)), il.BvLit(m, w))
            out.append(("r1", il.implies(ho, il.BinOp("==", residue, il.BvLit(0, w)))))
        for atom in atoms:
            x = atom.name if isinstance(atom, il.Var) else "$$atom"
            if isinstance(atom, il.Var) and (not isinstance(ls.local_types.get(x), il.BvType)
                                             or ls.local_types[x].width != w):
                continue
            lin = _linear(_replace(e, atom, il.Var(x)), x, w)
            if lin is None or il.free_vars(lin[0]) & mod or il.free_vars(lin[1]) & mod:
                continue
            c, rest = lin
            moduli = [] if c in (il.BvLit(0, w), il.BvLit(1, w)) else [(c, rest)]
            if isinstance(atom, il.Var) and x in strides:
                init, step = strides[x]
                moduli.append((_fold("MUL", w, c, step), il.substitute(e, {x: init})))
            for m, base in moduli:
                if m in (il.BvLit(0, w), il.BvLit(1, w)):
                    continue
                residue = self._fun("UREM", w, self._fun("SUB", w, off, ls.ex(base, 1)), ls.ex(m, 1))
                out.append(("r1", il.implies(ho, il.BinOp("==", residue, il.BvLit(0, w)))))
        return out

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
        for g, ho in self.log_ghosts(lp):
            out.append(("log", il.implies(ho, il.Var(g))))
        for name, a in ls.arrays.items():
            if not a.logged:
                continue
            for kind in ls.log_kinds(a):
                if not self._accessed_in(name, kind, lp):
                    continue
                ho, off = ls.log_var(a, kind, "HAS_OCCURRED"), ls.log_var(a, kind, "OFFSET")
                # The logged source is one of the accesses that can precede this head, so
                # reports name a real access of thread 1 after the loop's havoc.
                srcs = sorted({ls.sourceloc_num(acc[4]).value for acc in self.accesses
                               if acc[0] == name and acc[1] == kind and acc[3] in self._reaching(lp)})
                src_var = ls.log_var(a, kind, "SOURCE")
                if srcs:
                    out.append(("src", il.implies(ho, il.or_all(il.BinOp("==", src_var, il.IntLit(n)) for n in srcs))))
                if len(srcs) > 1:
                    for n in srcs:  # e.g. only the access before the loop can still be logged
                        one = il.implies(ho, il.BinOp("==", src_var, il.IntLit(n)))
                        out.append(("src", one))
                        out.append(("src", il.implies(ls.same_group(), one)))
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
                    if il.free_vars(e) & mod and isinstance(a.dom, il.BvType):
                        out += self._strided_access(ho, off, e, mod, strides, a.dom.width)
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
