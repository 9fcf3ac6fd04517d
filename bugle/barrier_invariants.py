"""Barrier invariants: ``__barrier_invariant_N`` / ``__barrier_invariant_binary_N`` -> IL
(docs/IL.md "Annotations", "Barrier invariants").

Barrier invariants are the shared-state abstraction of Chong, Donaldson, Kelly, Ketema and
Qadeer, "Barrier Invariants: A Shared State Abstraction for the Analysis of Data-Dependent
GPU Kernels" (OOPSLA 2013, sections 3 and 4): an invariant ``e`` written just before a
barrier is a property of the shared state and of one work item (unary) or of a pair of
work items (binary, through ``__other_int``) that must hold for every work item of the
group when the barrier is reached; after the barrier, where the equality abstraction makes
the shared state arbitrary, ``e`` is assumed for the instantiations given with it (work
items named by their local id), which keeps the two-thread program quantifier-free.

The header (``bugle/include/annotations.h``) turns ``__barrier_invariant_N(e, i1, ..., iN)``
into ``__bugle_barrier_invariant(e)`` followed by ``__bugle_barrier_invariant_instance(ik)``
calls (``_binary``: 2N of them, pairs).  Here:

* the values ``e`` is computed from are *rebuilt* as one expression (as for the other
  annotations, ``bugle.annotations``): its loads become reads ``$$A[i]`` of the array
  inside the expression -- not accesses of the work item (they are not logged nor
  race-checked) -- and the instructions used only by the invariant are not emitted;
* ``e`` and the instantiations may use ids, sizes, kernel arguments, constants, memory,
  the two-thread queries and local values (a loop counter) that lockstep finds uniform:
  the invariant is instantiated for other work items, whose non-uniform locals are unknown;
* at the next barrier, just before it:
  ``assert {:sourceloc ...} {:barrier_invariant} {:instances i1, ..., iN} e;`` (or
  ``{:barrier_invariant_binary}``); lockstep (``vcgen.twothread.barrier_invariants``)
  checks it there and assumes its instantiations after the barrier.  An invariant not
  followed by a barrier is a BugleError.
"""
from __future__ import annotations

from typing import Any

import llvmlite.binding as llvm

from vcgen import il

from . import BugleError
from .irtext import IntT
from .memory_model import Ptr
from .steensgaard import NULL

VK = llvm.ValueKind

INVARIANT_CALLS = {"__bugle_barrier_invariant": "barrier_invariant",
                   "__bugle_barrier_invariant_binary": "barrier_invariant_binary"}
INSTANCE_CALL = "__bugle_barrier_invariant_instance"
SNAPSHOT_CALL = "__bugle_array_snapshot"
NAMES = tuple(INVARIANT_CALLS) + (INSTANCE_CALL, SNAPSHOT_CALL)
_PTR_COPIES = ("bitcast", "addrspacecast")


class _Pending:
    """An invariant read before its barrier: IL kind, expression, location, instances."""

    def __init__(self, kind: str, expr: il.Expr, loc, block: str):
        self.kind = kind
        self.expr = expr
        self.loc = loc
        self.block = block  # the IL block of the call: its barrier must be in the same block
        self.instances: list[il.Expr] = []


class BarrierInvariants:
    """The barrier invariants of one kernel translation (``annots``: its ``Annotations``)."""

    def __init__(self, annots):
        self.annots = annots
        self.tr = annots.tr
        self.pending: list[_Pending] = []
        self.snapshot_targets: set[str] = set()

    # ----------------------------------------------------------------- prescan
    def exclusive(self, calls: list, users: dict, eligible) -> set[str]:
        """Names of the instructions computing the arguments of ``calls`` (the invariant
        and instance calls) that nothing else uses: not emitted, rebuilt in the invariant.
        ``users``: value name -> [(inst, it)]; ``eligible(inst)``: may it be rebuilt."""
        tr = self.tr
        ids = {id(c) for c in calls}
        part: set[str] = set()
        work = [list(c.operands)[0] for c in calls]
        while work:
            v = work.pop()
            if v.value_kind != VK.instruction or not v.name or v.name in part or v.name not in tr.defs:
                continue
            inst = tr.defs[v.name][0]
            if not eligible(inst):
                continue
            part.add(v.name)
            work.extend(inst.operands)
        for n in [n for n in part if tr.defs[n][0].opcode == "load"]:
            if not self._reaches_call_unchanged(n, ids, eligible):
                part.discard(n)  # the load reads memory as it was before: a local value
        changed = True
        while changed:
            changed = False
            for n in list(part):
                if any(not (id(u) in ids or (u.name and u.name in part)) for u, _ in users.get(n, ())):
                    part.discard(n)
                    changed = True
        return part

    def _reaches_call_unchanged(self, name: str, ids: set, harmless) -> bool:
        """Does every path from the load ``name`` reach one of the calls ``ids`` through
        instructions that change no memory (``harmless(inst)``)?  Then the load is part of
        the invariant's expression and may be evaluated where the invariant is."""
        tr = self.tr
        blocks = dict(tr.walk)
        label = self.annots.block_of[name]
        pairs = blocks[label]
        start = next(k for k, (i, _) in enumerate(pairs) if i.name == name) + 1
        work: list[tuple[str, int]] = [(label, start)]
        seen: set[str] = set()
        while work:
            label, k = work.pop()
            for inst, _ in blocks[label][k:]:
                if id(inst) in ids:
                    break
                if inst.opcode == "br":
                    succ = list(tr.cfg.successors(label))
                    if not succ or len(seen) > 64:
                        return False
                    work += [(b, 0) for b in succ if b not in seen]
                    seen.update(succ)
                    break
                if not harmless(inst):
                    return False
            else:
                return False
        return True

    # ------------------------------------------------------------------- calls
    def call(self, callee: str, args: list, loc) -> None:
        """``__bugle_barrier_invariant[_binary](e)`` or ``..._instance(i)`` reached in the walk."""
        if len(args) != 1:
            raise BugleError(f"{callee} expects one argument", loc)
        leaf = self._leaf
        if callee in INVARIANT_CALLS:
            e = self.annots.expr(args[0], loc, leaf=leaf, eager=True)
            self.pending.append(_Pending(INVARIANT_CALLS[callee], e, loc, self.tr.cur_label))
            return
        if not self.pending:
            raise BugleError("barrier invariant instantiation without a barrier invariant", loc)
        self.pending[-1].instances.append(self.annots.expr(args[0], loc, leaf=leaf, eager=True, value=True))

    def snapshot(self, args: list, loc) -> None:
        """``__array_snapshot(dst, src)``: ``$$dst := $$src;`` (the whole map: the work
        item's view of ``src`` copied into its view of the ghost array ``dst``; lockstep
        copies each thread's copy).  Both must be whole arrays (offset 0) of one cell size;
        ``dst`` may not be written by the kernel (its contents are ghost state)."""
        tr = self.tr
        if len(args) != 2:
            raise BugleError("__array_snapshot expects two arrays", loc)
        dst, src = (self._whole_array(a, loc) for a in args)
        if dst.cell != src.cell:
            raise BugleError("__array_snapshot: the arrays have different cell sizes", loc)
        if dst.name in tr.written or dst.name in self.snapshot_targets:
            raise BugleError(f"__array_snapshot: {dst.name[2:]} must be a ghost array, written only by one "
                             "snapshot", loc)
        self.snapshot_targets.add(dst.name)
        tr.marker(loc)
        tr.emit(il.Assign((il.VarLhs(dst.name),), (il.Var(src.name),)))

    def _whole_array(self, v, loc):
        tr = self.tr
        p = tr.pointer(v, None)
        arrays = [tr.arrays[o] for o in tr.targets(p.cls) if o != NULL]
        if len(arrays) != 1 or p.offset != il.BvLit(0, tr.P) or arrays[0].space == "private":
            raise BugleError("__array_snapshot takes two shared arrays (their names)", loc)
        return arrays[0]

    def check_snapshots(self) -> None:
        """End of the kernel: a snapshot destination was not written by the kernel (then
        it counts as written, for the kernel's ``modifies``)."""
        for name in self.snapshot_targets & self.tr.written:
            raise BugleError(f"__array_snapshot: the ghost array {name[2:]} is written by the kernel", None)
        self.tr.written |= self.snapshot_targets

    def _leaf(self, v) -> il.Expr:
        """A value the invariant does not rebuild: its expression of ids, sizes, arguments
        and constants, else its local (lockstep accepts only uniform ones)."""
        return self.annots.fixed_leaf(v)

    def flush(self) -> None:
        """At a barrier: emit the invariants written before it (see the module docstring)."""
        tr = self.tr
        for p in self.pending:
            if p.block != tr.cur_label:
                raise BugleError("a barrier invariant must be followed by a barrier (in the same block)", p.loc)
            if not p.instances:
                raise BugleError("a barrier invariant needs at least one instantiation", p.loc)
            if p.kind == "barrier_invariant_binary" and len(p.instances) % 2:
                raise BugleError("a binary barrier invariant is instantiated by pairs", p.loc)
            tr.marker(p.loc)
            tr.emit(il.Assert(p.expr, (tr.sourceloc(p.loc), il.Attr(p.kind),
                                       il.Attr("instances", tuple(p.instances)))))
        self.pending = []

    def finish(self) -> None:
        """End of the kernel: an invariant never followed by a barrier is an error."""
        self.check_snapshots()
        if self.pending:
            raise BugleError("a barrier invariant must be followed by a barrier", self.pending[0].loc)

    # ------------------------------------------------------------------ memory
    def load(self, inst, rec, loc) -> il.Expr:
        """The value of the load ``inst`` as a read of its array inside the expression
        (``rec``: rebuilds operands); also used for annotation reads at query-dependent
        addresses (``bugle.annotations``)."""
        tr = self.tr
        p = self._pointer(list(inst.operands)[0], rec, loc)
        arrays = [tr.arrays[o] for o in tr.targets(p.cls) if o != NULL]
        if len(arrays) != 1:
            raise BugleError("a barrier invariant may only read through pointers into exactly one array", loc)
        arr = arrays[0]
        if arr.space == "private":
            raise BugleError("a barrier invariant may not read private memory", loc)
        t = tr.result_type(inst)
        if not isinstance(t, IntT) and tr.layout.bits(t) not in (16, 32, 64):
            raise BugleError(f"a barrier invariant may not read values of type {t}", loc)
        bits = tr.layout.bits(t)
        if arr.cell > 1:
            if 8 * arr.cell != max(bits, 8) and not (isinstance(t, IntT) and t.width == 1):
                raise BugleError(f"a barrier invariant reads {arr.name[2:]} at another width than its cells", loc)
            e: il.Expr = il.MapSelect(il.Var(arr.name), p.offset)
            if isinstance(t, IntT) and t.width == 1:
                return il.BinOp("!=", e, il.BvLit(0, 8 * arr.cell))
            return e
        n = tr.layout.size(t)
        parts = [il.MapSelect(il.Var(arr.name), tr.plus(p.offset, k)) for k in range(n)]
        e = parts[-1]
        for b in reversed(parts[:-1]):
            e = il.BvConcat(e, b)
        if isinstance(t, IntT) and t.width == 1:
            return il.BinOp("!=", e, il.BvLit(0, 8 * n))
        return il.BvExtract(e, bits, 0) if bits < 8 * n else e

    def reads_shared(self, inst) -> bool:
        """Is the load ``inst`` from shared (non-private) memory through array indexing of
        an argument or a global (what ``load`` can rebuild)?"""
        tr = self.tr
        v = list(inst.operands)[0]
        while v.value_kind == VK.instruction:
            if v.name in tr.allocas or v.name not in tr.defs:
                return False
            d = tr.defs[v.name][0]
            if d.opcode not in ("getelementptr",) + _PTR_COPIES:
                return False
            v = list(d.operands)[0]
        try:
            p = tr.pointer(v, None)
        except BugleError:
            return False
        arrays = [tr.arrays[o] for o in tr.targets(p.cls) if o != NULL]
        return len(arrays) == 1 and arrays[0].space != "private"

    def _pointer(self, v, rec, loc) -> Ptr:
        """(base, offset) of a pointer the invariant reads through, its ``getelementptr``s
        rebuilt from ids, arguments and constants."""
        tr = self.tr
        if v.value_kind == VK.instruction and v.name not in tr.allocas:
            inst, it = tr.defs[v.name]
            ops: list[Any] = list(inst.operands)
            if inst.opcode == "getelementptr":
                base = self._pointer(ops[0], rec, loc)
                off = tr.gep_offset(inst, it, base.offset, rec, loc)
                return Ptr(base.base, off, tr.pts.class_of(("v", inst.name)))
            if inst.opcode in _PTR_COPIES:
                return self._pointer(ops[0], rec, loc)
            raise BugleError(f"a barrier invariant may only read through array indexing (not {inst.opcode})", loc)
        if v.value_kind == VK.instruction:
            raise BugleError("a barrier invariant may not read private memory", loc)
        return tr.pointer(v, None)
