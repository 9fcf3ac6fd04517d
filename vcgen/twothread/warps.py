"""Warp-level operations of the two-thread program.

* ``--warp-sync=N`` (pre-Volta CUDA): warp-mates run in lock-step, so they synchronise
  after each instruction (paper 003 appendix A.16 and the warp extension it cites);
* ``__syncwarp``, shuffles and votes (``{:warp_op}`` procedures, docs/IL.md): collective
  operations of the threads of one warp, divergence-checked like a barrier.
"""
from __future__ import annotations

from .. import il
from ..il.attributes import sourceloc_attrs
from .builder import ProgramBuilder
from .kernel import DIMS, ArrayInfo, KernelInfo
from .logs import AccessLogs
from .options import LockstepOptions
from .part import TransformPart
from .threads import THREADS, Threads


class Warps(TransformPart):
    """Warp ids, ``--warp-sync`` log clearing and warp collectives."""

    def __init__(self, info: KernelInfo, builder: ProgramBuilder, threads: Threads, logs: AccessLogs,
                 opts: LockstepOptions):
        super().__init__(info, builder, threads, logs, opts)
        self.warp_havocked: set[str] = set()  # equality arrays havocked for warp-mates in this instruction

    @property
    def warp_size(self) -> int:
        """Threads per warp: ``--warp-sync=N``, else 32 (for ``__syncwarp`` and friends)."""
        return self.opts.warp_sync or 32

    def linear_local_id(self, t: int) -> il.Expr:
        """Thread ``t``'s linear local id ``x + sx*y + sx*sy*z`` (bv32); dimensions of size 1
        (id 0 by the launch axioms) are left out.  A symbolic size is its constant
        ``group_size_d`` (a multiplication then, but only where the launch is
        multi-dimensional and symbolic)."""
        ls = self.opts.launch.local_size
        e: il.Expr | None = None
        mult: list[il.Expr] = []  # the sizes of the lower dimensions
        for d, size in zip(DIMS, ls):
            if f"local_id_{d}" in self.info.dup_consts and size != 1:
                x: il.Expr = il.Var(f"local_id_{d}${t}")
                for m in self._fold(mult):
                    x = il.FunApp(self.builder.bvfun("MUL", 32), (x, m))
                e = x if e is None else il.FunApp(self.builder.bvfun("ADD", 32), (e, x))
            mult.append(il.Var(f"group_size_{d}") if size is None else il.BvLit(size, 32))
        return e if e is not None else il.BvLit(0, 32)

    @staticmethod
    def _fold(sizes: list[il.Expr]) -> list[il.Expr]:
        """The factors of a product of sizes: the numbers multiplied into one literal (left
        out when 1), then the symbolic sizes."""
        k = 1
        for s in sizes:
            k *= s.value if isinstance(s, il.BvLit) else 1
        syms = [s for s in sizes if not isinstance(s, il.BvLit)]
        return ([il.BvLit(k % 2 ** 32, 32)] if k != 1 else []) + syms

    def lane(self, t: int) -> il.Expr:
        """Thread ``t``'s lane: linear local id modulo the warp size (bv32)."""
        return il.FunApp(self.builder.bvfun("UREM", 32), (self.linear_local_id(t), il.BvLit(self.warp_size, 32)))

    def same_warp(self) -> il.Expr:
        """Both threads in one group and one warp (linear local id divided by the warp size)."""
        def warp(t: int) -> il.Expr:
            return il.FunApp(self.builder.bvfun("UDIV", 32), (self.linear_local_id(t), il.BvLit(self.warp_size, 32)))
        return il.BinOp("&&", self.threads.same_group(), il.BinOp("==", warp(1), warp(2)))

    def clear_after_instruction(self, next_loc: tuple | None, end: bool = False) -> None:
        """Under ``--warp-sync``, end the instruction whose accesses were just logged when the
        next one (source location ``next_loc``) starts or the block ``end``s: warp-mates run
        in lock-step, so they synchronise after each instruction and their logs are cleared
        (paper 003 A.16 and the warp extension it cites [40]).  Warp-mates thus race only
        within one instruction (thread 1 is logged before thread 2 is checked); the cells of
        a multi-cell access share one source location and stay one instruction."""
        if not self.logs.recent or (next_loc == self.logs.recent_loc and not end):
            return
        self.warp_havocked = set()
        sw = self.same_warp()
        # Only the logs this instruction filled: every other log was cleared for warp-mates
        # after the instruction that filled it.  Clearing it again would be a no-op that
        # makes the log look modified by every loop around the instruction (havocked at
        # the head with nothing to say it is empty: a false race after the loop).
        for name, kind in sorted(self.logs.take_recent()):
            v = self.logs.var(self.info.arrays[name], kind, "HAS_OCCURRED")
            self.builder.emit(il.assign(v.name, il.ite(sw, il.FALSE, v)))

    def mates_wrote(self, a: ArrayInfo) -> None:
        """Under ``--warp-sync``, at the first write (or atomic) of the equality-abstracted
        array ``a`` in an instruction: the warp-mates of each thread execute it too (in
        lock-step) and their writes are visible to the next instruction without a race, so
        each thread's copy becomes arbitrary -- the same for two threads of one warp, who
        share one view of memory after the instruction.  Only the writes of the two
        threads themselves are then put back (``write``).  Without this a thread would
        keep reading its own stale copy of cells a warp-mate overwrote (GPUVerify's
        warp-sync equality abstraction issue)."""
        if a.name in self.warp_havocked:
            return  # one instruction: the cells of a multi-cell write share one havoc
        self.warp_havocked.add(a.name)
        b = self.builder
        h1 = b.glob(f"_HAVOC_{a.name}$1", a.decl.type)
        h2 = b.glob(f"_HAVOC_{a.name}$2", a.decl.type)
        b.emit(il.Havoc((h1.name, h2.name)))
        b.emit(il.Assign((il.VarLhs(f"{a.name}$1"), il.VarLhs(f"{a.name}$2")),
                         (h1, il.ite(self.same_warp(), h1, h2))))

    def write(self, a: ArrayInfo, index: il.Expr, value: il.Expr, preds: dict[int, il.Expr]) -> None:
        """A write ``a[index] := value`` under ``--warp-sync`` to an equality-abstracted
        array: after ``mates_wrote``, each enabled thread's write goes to its own copy
        and, for two threads of one warp, to the other's copy too (in the same order in
        both copies, so they stay equal; equal cells with different values are a
        write-write race, reported by the race check)."""
        self.mates_wrote(a)
        sw = self.same_warp()
        th = self.threads
        for w in THREADS:  # the writing thread
            i, v = th.ex(index, w), th.ex(value, w)
            for t in THREADS:  # the copy
                m = il.Var(th.name(a.name, t))
                cond = preds[w] if t == w else il.and_all(x for x in (preds[w], sw) if x != il.TRUE)
                self.builder.emit(il.Assign((il.MapLhs(m.name, i),), (il.ite(cond, v, il.MapSelect(m, i)),)))

    def _in_mask(self, mask: il.Expr, lane: il.Expr) -> il.Expr:
        """Bit ``lane`` of the bv32 ``mask`` is set (``true`` for a literal covering the warp)."""
        full = (1 << min(self.warp_size, 32)) - 1
        if isinstance(mask, il.BvLit) and self.warp_size <= 32 and mask.value & full == full:
            return il.TRUE
        bit = il.FunApp(self.builder.bvfun("AND", 32), (il.FunApp(self.builder.bvfun("LSHR", 32), (mask, lane)), il.BvLit(1, 32)))
        return il.BinOp("==", bit, il.BvLit(1, 32))

    def op(self, c: il.Call, kind: str, preds: dict[int, il.Expr]) -> None:
        """A warp operation ``call $bugle_{syncwarp,shuffle,vote}(mask)`` (docs/IL.md).

        Every kind is warp-collective (CUDA ``*_sync`` rule): for two threads of one warp,
        if one executes it with the other's lane in its mask, the other must execute it too
        with the same mask -- asserted with ``{:barrier_divergence}`` (a full mask: both
        enabled or both disabled).  Volta lets *different* ``__syncwarp`` sites meet: that
        is reported here, a sound false alarm.  Threads are *together* when in one warp,
        both enabled, with equal masks holding both lanes (a thread outside its own mask is
        undefined behaviour in CUDA: it synchronises with nobody here, which is sound).
          * ``sync`` (``__syncwarp``): for threads together, as a barrier for one group
            (paper 000 section 4, docs/design.md 5.6-5.7, at warp scope): every log is reset and
            the equality-abstracted copies become arbitrary but equal; otherwise each
            thread's copies are havocked alone (warp-mates may have written them);
          * ``shuffle``: the result (another lane's value) is arbitrary per thread;
          * ``vote``: arbitrary, the same for threads together (ballot/any/all are).
        """
        m = {t: self.threads.ex(c.args[0], t) for t in THREADS}
        lane = {t: self.lane(t) for t in THREADS}
        sw = self.same_warp()
        same_mask = il.TRUE if m[1] == m[2] else il.BinOp("==", m[1], m[2])
        # As for a barrier: in a uniform block the check guards the uniformity analysis.
        en: dict[int, il.Expr] = preds if preds[1] != il.TRUE else \
            {1: il.TRUE, 2: il.BinOp("==", self.threads.cur(2), self.threads.cur(1))}

        def conj(*xs: il.Expr) -> il.Expr:
            return il.and_all(x for x in xs if x != il.TRUE)

        def waits_for_other(t: int) -> il.Expr:
            return il.implies(conj(en[t], self._in_mask(m[t], lane[3 - t])), conj(en[3 - t], same_mask))
        srcloc = sourceloc_attrs(c.attrs)
        self.builder.emit(il.Assert(il.implies(sw, conj(waits_for_other(1), waits_for_other(2))),
                            (il.Attr("barrier_divergence"),) + srcloc))
        together = conj(sw, preds[1], preds[2], same_mask, self._in_mask(m[1], lane[1]), self._in_mask(m[1], lane[2]))
        if kind == "sync":
            self._sync_memory(together, preds)
        for out in c.outs:
            if kind == "vote" and self.threads.is_dup(out):
                h1, h2 = self.builder.tmp(il.BV32, "vote"), self.builder.tmp(il.BV32, "vote")
                self.builder.emit(il.Havoc((h1.name, h2.name)))
                o1, o2 = (self.threads.name(out, t) for t in THREADS)
                self.builder.emit(il.Assign((il.VarLhs(o1), il.VarLhs(o2)),
                                    (il.ite(preds[1], h1, il.Var(o1)),
                                     il.ite(preds[2], il.ite(together, h1, h2), il.Var(o2)))))
            else:
                self.threads.havoc(out, preds)

    def _sync_memory(self, together: il.Expr, preds: dict[int, il.Expr]) -> None:
        """``__syncwarp`` for threads ``together``: reset every log, equal copies (see ``op``)."""
        for a in self.info.arrays.values():
            if a.logged:
                for kind in self.logs.kinds(a):
                    v = self.logs.var(a, kind, "HAS_OCCURRED")
                    self.builder.emit(il.assign(v.name, il.ite(together, il.FALSE, v)))
            if a.equality and a.space != "constant":
                h1 = self.builder.glob(f"_HAVOC_{a.name}$1", a.decl.type)
                h2 = self.builder.glob(f"_HAVOC_{a.name}$2", a.decl.type)
                self.builder.emit(il.Havoc((h1.name, h2.name)))
                m1, m2 = il.Var(f"{a.name}$1"), il.Var(f"{a.name}$2")
                self.builder.emit(il.Assign((il.VarLhs(m1.name), il.VarLhs(m2.name)),
                                    (il.ite(preds[1], h1, m1), il.ite(preds[2], il.ite(together, h1, h2), m2))))
