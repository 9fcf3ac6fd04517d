"""Memory in the two-thread program: reads, writes, atomics and barriers of shared arrays
under their abstraction, with logging and race checks (paper 000 sections 4-5;
docs/design.md sections 5.4-5.9), and ``--check-array-bounds`` checks.

Adversarial arrays disappear (reads are ``havoc``); equality arrays keep one copy per
thread (``$$A$1``, ``$$A$2``).  Barriers check divergence, reset the logs of the arrays
their fence covers (threads of one group) and make the copies arbitrary (equal when the
fence covers the array and the threads share a group).
"""
from __future__ import annotations

from .. import il
from ..il.attributes import sourceloc_attrs
from .async_copies import AsyncCopies
from .builder import ProgramBuilder
from .kernel import ArrayInfo, KernelInfo, atomic_array, error
from .logs import AccessLogs
from .options import LockstepOptions
from .threads import THREADS, Threads
from .part import TransformPart
from .tickets import Tickets
from .warps import Warps


class MemoryOps(TransformPart):
    """Shared-array accesses and barriers, per thread under the predicates ``preds``
    (thread -> "enabled"); ``loc`` is the attributes of the access's ``{:sourceloc}``
    marker."""

    def __init__(self, info: KernelInfo, builder: ProgramBuilder, threads: Threads, logs: AccessLogs,
                 copies: AsyncCopies, warps: Warps, opts: LockstepOptions):
        super().__init__(info, builder, threads, logs, opts)
        self.copies = copies
        self.warps = warps
        self.tickets = Tickets(builder, threads)

    def init(self) -> None:
        """Kernel entry: logs empty, equality copies equal (group-shared ones only within a group)."""
        b = self.builder
        sg = self.threads.same_group()
        for a in self.info.arrays.values():
            if a.logged:
                for kind in self.logs.kinds(a):
                    b.emit(il.assign(self.logs.var(a, kind, "HAS_OCCURRED").name, il.FALSE))
            if a.equality:
                # Copies start equal (group-shared ones only within one group); an
                # assignment says so without a map equality for the solver.
                m1, m2 = il.Var(f"{a.name}$1"), il.Var(f"{a.name}$2")
                b.emit(il.assign(m2.name, m1 if a.space != "group_shared" else il.ite(sg, m1, m2)))

    def bounds_check(self, name: str, decl_attrs: il.Attrs, index: il.Expr, preds: dict[int, il.Expr],
                     loc: il.Attrs | None) -> None:
        """With ``check_array_bounds``: per enabled thread, assert the cell index is below
        the array's ``{:elem_count}`` (unsigned, so a negative index wraps and fails).
        Arrays of unknown size (kernel pointer arguments) are not checked."""
        n = il.attr(decl_attrs, "elem_count")
        if not self.opts.check_array_bounds or n is None or not n.args:
            return
        src = sourceloc_attrs(loc or ())
        info = self.info
        ty = info.arrays[name].dom if name in info.arrays else info.local_types[name].domain  # type: ignore[union-attr]
        for t in THREADS:
            i = self.threads.ex(index, t)
            below = il.FunApp(self.builder.bvfun("ULT", ty.width), (i, il.BvLit(n.args[0].value, ty.width))) \
                if isinstance(ty, il.BvType) else il.BinOp("<", i, il.IntLit(n.args[0].value))
            self.builder.emit(il.Assert(il.implies(preds[t], below), (il.Attr("array_bounds", (name,)),) + src + (
                il.Attr("thread", (il.IntLit(t),)), il.Attr("check_offset", (i,)))))

    def private_bounds(self, c: il.Assign, preds: dict[int, il.Expr], loc: il.Attrs | None) -> None:
        """Bounds checks for the accesses of ``c`` to private arrays (procedure-local maps)."""
        if not self.opts.check_array_bounds:
            return
        private = self.info.private_maps
        for l in c.lhss:
            if isinstance(l, il.MapLhs) and l.name in private:
                self.bounds_check(l.name, private[l.name].attrs, l.index, preds, loc)
        for e in c.rhss:
            for x in il.subexprs(e):
                if isinstance(x, il.MapSelect) and isinstance(x.map, il.Var) and x.map.name in private:
                    self.bounds_check(x.map.name, private[x.map.name].attrs, x.index, preds, loc)

    def read(self, a: ArrayInfo, target: str, index: il.Expr, preds: dict[int, il.Expr],
             loc: il.Attrs | None) -> None:
        """``target := A[index]``: logged for thread 1, checked for thread 2."""
        b, th = self.builder, self.threads
        self.bounds_check(a.name, a.decl.attrs, index, preds, loc)
        if a.logged:
            self.copies.check_own_copies(a, "READ", index, preds[1], loc)
            self.logs.log(a, "READ", index, None, preds[1], loc)
            self.logs.check(a, "WRITE", "READ", index, None, preds[2], loc)
            if a.name in self.info.atomic_arrays:
                self.logs.check(a, "ATOMIC", "READ", index, None, preds[2], loc)
        for t in THREADS if th.is_dup(target) else (1,):
            tgt = th.name(target, t)
            if a.equality:
                val: il.Expr = il.MapSelect(il.Var(th.name(a.name, t)), th.ex(index, t))
            else:
                val = b.tmp(self.info.local_types[target], "read")
                b.emit(il.Havoc((val.name,)))
            b.emit(il.assign(tgt, il.ite(preds[t], val, il.Var(tgt))))

    def write(self, a: ArrayInfo, index: il.Expr, value: il.Expr, preds: dict[int, il.Expr],
              loc: il.Attrs | None, width: int = 1) -> None:
        """``A[index] := value``: logged for thread 1, checked for thread 2; ``width``: the
        cells of the source access this cell write belongs to (``KernelInfo.write_widths``)."""
        th = self.threads
        if a.space == "constant":
            # CUDA lets device code name a __constant__ array as an lvalue; GPUVerify
            # reports the write as an error of the kernel, reached if a thread executes it
            src = sourceloc_attrs(loc or ())
            self.builder.emit(il.Assert(il.not_(preds[1]), (il.Attr("constant_write", (a.name,)),) + src
                                        + (il.Attr("thread", (il.IntLit(1),)),)))
            return
        self.bounds_check(a.name, a.decl.attrs, index, preds, loc)
        if a.logged:
            self.copies.check_own_copies(a, "WRITE", index, preds[1], loc)
            self.logs.log(a, "WRITE", index, value, preds[1], loc, width=width)
            self.logs.check(a, "READ", "WRITE", index, value, preds[2], loc)
            self.logs.check(a, "WRITE", "WRITE", index, value, preds[2], loc, width)
            if a.name in self.info.atomic_arrays:
                self.logs.check(a, "ATOMIC", "WRITE", index, None, preds[2], loc)
        if a.equality and self.opts.warp_sync:
            self.warps.write(a, index, value, preds)
        elif a.equality:
            for t in THREADS:
                m, i = th.name(a.name, t), th.ex(index, t)
                self.builder.emit(il.Assign((il.MapLhs(m, i),),
                                            (il.ite(preds[t], th.ex(value, t), il.MapSelect(il.Var(m), i)),)))

    def havoc_array(self, a: ArrayInfo, preds: dict[int, il.Expr]) -> None:
        """``havoc $$A`` (one-thread IL: a call to a function declared but not defined,
        ``bugle.bodiless``): the array's contents become arbitrary for each enabled thread.
        Under the equality abstraction each thread's copy is replaced (independently: the
        callee may leave each thread a different view); under the adversarial abstraction
        every read is arbitrary already (paper 000 section 4, the two abstractions).  The
        call's accesses are the logged read and write bugle emits before this."""
        if a.space == "constant":
            raise error(f"havoc of constant array {a.name}")
        if not a.equality:
            return
        if self.opts.warp_sync:
            self.warps.mates_wrote(a)
        b, th = self.builder, self.threads
        for t in THREADS:
            h = b.glob(f"_HAVOC_{a.name}${t}", a.decl.type)
            b.emit(il.Havoc((h.name,)))
            m = th.name(a.name, t)
            b.emit(il.assign(m, il.ite(preds[t], h, il.Var(m))))

    def snapshot(self, c: il.Assign, preds: dict[int, il.Expr]) -> None:
        """``$$dst := $$src;`` (``__array_snapshot``, ``bugle.barrier_invariants``): each
        enabled thread's copy of the ghost array ``dst`` becomes its copy of ``src``; not an
        access (nothing logged).  Both arrays need the equality abstraction."""
        th, arrays = self.threads, self.info.arrays
        lhs, rhs = c.lhss[0], c.rhss[0]
        if len(c.lhss) != 1 or not isinstance(rhs, il.Var) or rhs.name not in arrays:
            raise error("an array may only be assigned a whole other array (__array_snapshot)")
        dst, src = arrays[lhs.name], arrays[rhs.name]
        if not (dst.equality and src.equality):
            raise error(f"__array_snapshot of {src.name} into {dst.name} needs the equality abstraction for both")
        self.builder.emit(il.Assign(tuple(il.VarLhs(th.name(dst.name, t)) for t in THREADS),
                                    tuple(il.ite(preds[t], il.Var(th.name(src.name, t)), il.Var(th.name(dst.name, t)))
                                          for t in THREADS)))

    def atomic(self, c: il.Call, preds: dict[int, il.Expr], loc: il.Attrs | None) -> None:
        """An atomic read-modify-write (docs/design.md 5.9): logged and checked against plain
        accesses but never against other atomics; returns an arbitrary value and leaves
        that element of the thread's own copy arbitrary -- except that a ticket counter
        (``vcgen.twothread.tickets``) never returns one value to both threads."""
        b, th = self.builder, self.threads
        name = atomic_array(c)
        if name not in self.info.arrays:
            raise error(f"atomic on unknown array {name}")
        a, index = self.info.arrays[name], c.args[0]
        if a.space == "constant":
            raise error(f"atomic on constant array {a.name}")
        self.bounds_check(a.name, a.decl.attrs, index, preds, loc)
        if a.logged:
            self.copies.check_own_copies(a, "ATOMIC", index, preds[1], loc)
            self.logs.log(a, "ATOMIC", index, None, preds[1], loc)
            self.logs.check(a, "READ", "ATOMIC", index, None, preds[2], loc)
            self.logs.check(a, "WRITE", "ATOMIC", index, None, preds[2], loc)
        if a.equality and self.opts.warp_sync:
            self.warps.mates_wrote(a)
        for t in THREADS:
            if a.equality:
                h = b.tmp(a.rng, "atomic")
                b.emit(il.Havoc((h.name,)))
                m, i = th.name(a.name, t), th.ex(index, t)
                b.emit(il.Assign((il.MapLhs(m, i),), (il.ite(preds[t], h, il.MapSelect(il.Var(m), i)),)))
        for out in c.outs:
            th.havoc(out, preds)
            if name in self.info.ticket_arrays:
                self.tickets.after_atomic(a, out, preds)

    def barrier(self, c: il.Call, preds: dict[int, il.Expr]) -> None:
        """``call $bugle_barrier(LF, GF)``: divergence check (threads of one group both here
        or neither), logs of the covered arrays reset and equality copies havocked.  A
        ``{:grid_barrier}`` call (cooperative groups' grid sync) does the same for any two
        threads of the grid: every thread meets there, so the group condition drops and
        the threads' global memory is one after it.

        Fence bits computed at run time (``barrier(x)``, docs/IL.md "Barrier") are read per
        thread: the log holds thread 1's accesses, so it is reset when *thread 1's* fence
        covers the array -- an access before the barrier is ordered with the other threads'
        accesses after it when the accessing thread fenced its memory space (GPUVerify's
        reading of OpenCL 1.2 section 6.12.8).  Copies become equal only when both threads'
        fences cover the array."""
        b, th = self.builder, self.threads
        grid = il.has_attr(c.attrs, "grid_barrier")
        sg = il.TRUE if grid else th.same_group()
        srcloc = sourceloc_attrs(c.attrs)
        # In a uniformly executed block both threads are at the barrier together iff the
        # uniformity analysis is right: the check then guards that analysis too.
        both_here = il.BinOp("==", preds[1], preds[2]) if preds[1] != il.TRUE else \
            il.BinOp("==", th.cur(2), th.cur(1))
        b.emit(il.Assert(il.implies(sg, both_here), (il.Attr("barrier_divergence"),) + srcloc))
        for a in self.info.arrays.values():
            flag = c.args[0] if a.space == "group_shared" else c.args[1] if a.space == "global" else il.BvLit(0, 1)
            covered = {t: _fence_bit(th.ex(flag, t)) for t in THREADS}
            if covered[1] != il.FALSE and a.name in self.info.ticket_arrays:
                self.tickets.at_barrier(a)
            if a.logged and covered[1] != il.FALSE:
                # a group-shared log matters only for threads of one group (races on it
                # are checked within a group): reset it whatever the other thread's group,
                # so that log queries (__no_write(A)) read the same in every pair
                group = il.TRUE if a.space == "group_shared" else sg
                both = il.and_all(x for x in (preds[1], group, covered[1]) if x != il.TRUE)
                for kind in self.logs.kinds(a):
                    v = self.logs.var(a, kind, "HAS_OCCURRED")
                    b.emit(il.assign(v.name, il.ite(self.copies.not_in_flight(a, kind, both), il.FALSE, v)))
            if a.equality and a.name in self.info.written_arrays:  # unwritten arrays keep their contents
                h1 = b.glob(f"_HAVOC_{a.name}$1", a.decl.type)
                h2 = b.glob(f"_HAVOC_{a.name}$2", a.decl.type)
                b.emit(il.Havoc((h1.name, h2.name)))
                m1, m2 = il.Var(f"{a.name}$1"), il.Var(f"{a.name}$2")
                # a grid barrier makes global memory one for threads of any groups
                same = il.TRUE if grid and a.space == "global" else th.same_group()
                shared_copy = il.and_all(x for x in (same, covered[1], covered[2]) if x != il.TRUE) \
                    if il.FALSE not in covered.values() else il.FALSE
                b.emit(il.Assign((il.VarLhs(m1.name), il.VarLhs(m2.name)),
                                 (il.ite(preds[1], h1, m1),
                                  il.ite(preds[2], il.ite(shared_copy, h1, h2), m2))))


def _fence_bit(flag: il.Expr) -> il.Expr:
    """A barrier's fence bit (``bv1``) as a boolean: ``true``/``false`` for literals."""
    if isinstance(flag, il.BvLit):
        return il.BoolLit(flag.value == 1)
    return il.BinOp("==", flag, il.BvLit(1, 1))
