"""Barrier invariants in the two-thread program (Chong, Donaldson, Kelly, Ketema and
Qadeer, "Barrier Invariants: A Shared State Abstraction for the Analysis of
Data-Dependent GPU Kernels", OOPSLA 2013, sections 3-4; bugle's IL form is in
``bugle.barrier_invariants`` and docs/IL.md "Barrier invariants").

A barrier invariant ``e`` holds for every work item of the group when the group reaches
the barrier (unary), or for every pair of distinct work items of the group (binary,
``__other_*`` naming the second one).  Here, for ``assert {:barrier_invariant}
{:instances i1, ...} e;`` just before a barrier:

* Local values in ``e`` or an instantiation must be uniform (equal in all work items, the
  uniformity analysis): the invariant is evaluated for other work items.
* **Check, before the barrier** (``{:barrier_invariant}`` asserts, "this barrier
  invariant might not hold"): unary, for each thread ``t`` that is at the barrier, ``e``
  of thread ``t``; binary, when both threads are in one group and at the barrier, ``e``
  for the pair (1, 2) and for (2, 1).  The pair is arbitrary, so this is the invariant
  for every work item (every pair) of the group.
* **Reads and permission** (``{:barrier_invariant_access_check}``, "insufficient
  permission ...", unless ``--no-barrier-access-checks``): each thread holds its own copy
  of an equality-abstracted array, exact at a location only if no *other* work item
  wrote it since the last barrier.  A read of the invariant is taken from the copy of the
  thread whose ids its index is computed from (the evaluating thread's when it depends on
  neither; a read indexed by both threads' values is an error), and every read from
  thread 2's copy is checked not to be at a location thread 1 has written (or updated
  atomically) since the barrier, per thread 1's access log.  The log picks any write of
  thread 1 and the pair is arbitrary, so together the checks of both orientations say
  that no work item other than the copy's owner wrote a location the invariant reads.
* **Assume, after the barrier**: for each thread ``t`` that passed it and each
  instantiation ``i`` (a local id, computed by thread ``t``): ``i < group_size_x ==>
  e[local_id_x := i]``; binary, for threads of one group, each pair ``(i, j)`` of
  distinct work items: ``e[local_id_x of t := i, local_id_x of the other := j]`` with the
  other's ``y``/``z`` ids taken from thread ``t``.  An invariant is only assumed at the
  barrier that checked it (soundness: nothing is assumed that was not proved).
"""
from __future__ import annotations

from dataclasses import dataclass

from .. import il
from ..il.attributes import sourceloc_attrs, where
from .kernel import error
from .part import TransformPart
from .queries import AnnotationQueries
from .threads import THREADS

KINDS = ("barrier_invariant", "barrier_invariant_binary")


def is_barrier_invariant(c: il.Cmd) -> bool:
    """Is ``c`` bugle's ``assert {:barrier_invariant[_binary]} ...``?"""
    return isinstance(c, il.Assert) and any(il.has_attr(c.attrs, k) for k in KINDS)


@dataclass(frozen=True)
class _Invariant:
    expr: il.Expr
    binary: bool
    instances: tuple[il.Expr, ...]
    attrs: il.Attrs


class BarrierInvariantChecks(TransformPart):
    """Checks barrier invariants before their barrier and assumes them after it."""

    def __init__(self, info, builder, threads, logs, opts, queries: AnnotationQueries):
        super().__init__(info, builder, threads, logs, opts)
        self.queries = queries
        self.pending: list[_Invariant] = []

    # ------------------------------------------------------------------ check
    def check(self, c: il.Assert, preds: dict[int, il.Expr]) -> None:
        """At the invariant (just before its barrier): the checks of the module docstring."""
        binary = il.has_attr(c.attrs, "barrier_invariant_binary")
        inst = il.attr(c.attrs, "instances")
        inv = _Invariant(c.expr, binary, tuple(inst.args) if inst else (), c.attrs)
        for e in (inv.expr,) + inv.instances:
            for v in sorted(il.free_vars(e)):
                if v in self.info.local_types and self.threads.is_dup(v):
                    raise error(f"{where(c.attrs)}a barrier invariant may only use ids, sizes, arguments, "
                                f"constants, memory and uniform local values (not {v}, which may differ "
                                "between work items)")
        for x in il.subexprs(c.expr):
            if isinstance(x, il.MapSelect) and isinstance(x.map, il.Var) and x.map.name in self.info.arrays:
                a = self.info.arrays[x.map.name]
                if not a.equality:
                    raise error(f"{where(c.attrs)}a barrier invariant reads {a.name}, which is not under the equality "
                                "abstraction (drop --adversarial-abstraction / --only-divergence)")
        b, sg = self.builder, self.threads.same_group()
        src = sourceloc_attrs(c.attrs)
        for t in THREADS:
            e = self._thread_expr(inv.expr, t, preds)
            guard = il.and_all([preds[1], preds[2], sg]) if binary else preds[t]
            b.emit(il.Assert(il.implies(guard, e),
                             (il.Attr("barrier_invariant"),) + src + (il.Attr("thread", (il.IntLit(t),)),)))
            if not self.opts.no_barrier_access_checks:
                self._permission(e, guard, src)
        self.pending.append(inv)

    def _thread_expr(self, e: il.Expr, t: int, preds: dict[int, il.Expr]) -> il.Expr:
        """Thread ``t``'s copy of ``e``, each read taken from the copy of the thread whose
        values its index depends on (``AnnotationQueries.owner_reads``, strict)."""
        return self.queries.owner_reads(self.queries.ann(e, t, preds), t, strict=True)

    def _permission(self, e: il.Expr, guard: il.Expr, src: il.Attrs) -> None:
        """Reads of ``e`` from thread 2's copy are at no location thread 1 wrote since the
        barrier (thread 1's write and atomic logs)."""
        b = self.builder
        for x in il.subexprs(e):
            if not (isinstance(x, il.MapSelect) and isinstance(x.map, il.Var)):
                continue
            name = next((a for a in self.info.arrays if self.threads.name(a, 2) == x.map.name
                         and self.threads.name(a, 1) != x.map.name), None)
            if name is None:
                continue
            a = self.info.arrays[name]
            if name not in self.info.written_arrays:
                continue
            if not a.logged:
                raise error(f"a barrier invariant reads {name}, whose accesses are not logged "
                            "(--check-arrays / --only-divergence)")
            sg = self.threads.same_group()
            kinds = [k for k in self.logs.kinds(a) if k in ("WRITE", "ATOMIC")]
            wrote = il.or_all(il.and_all([self.logs.var(a, k, "HAS_OCCURRED"),
                                          il.BinOp("==", self.logs.var(a, k, "OFFSET"), x.index)])
                              for k in kinds)
            if a.space == "group_shared":
                wrote = il.and_all([sg, wrote])
            b.emit(il.Assert(il.implies(guard, il.not_(wrote)),
                             (il.Attr("barrier_invariant_access_check"),) + src + (il.Attr("thread", (il.IntLit(2),)),)))

    # ----------------------------------------------------------------- assume
    def after_barrier(self, preds: dict[int, il.Expr]) -> None:
        """After the barrier: assume the instantiations of the invariants checked before it."""
        for inv in self.pending:
            if inv.binary:
                self._assume_binary(inv, preds)
            else:
                self._assume_unary(inv, preds)
        self.pending = []

    def end_of_block(self) -> None:
        """A block ended with invariants whose barrier was not in it: an error."""
        if self.pending:
            raise error(f"{where(self.pending[0].attrs)}a barrier invariant must be followed by a barrier")

    def _lid(self, t: int, d: str = "x") -> str:
        return self.threads.name(f"local_id_{d}", t)

    def _below_size(self, i: il.Expr) -> il.Expr:
        """``i`` is a local id (x dimension) of the launch."""
        if "group_size_x" in self.info.consts:
            size: il.Expr = il.Var("group_size_x")
        elif self.opts.launch.local_size[0] is not None:
            size = il.BvLit(self.opts.launch.local_size[0], 32)
        else:
            raise error("a barrier invariant needs the group size (give --local_size)")
        return il.FunApp(self.builder.bvfun("ULT", 32), (i, size))

    def _assume_unary(self, inv: _Invariant, preds: dict[int, il.Expr]) -> None:
        b = self.builder
        for t in THREADS:
            e = self._thread_expr(inv.expr, t, preds)
            for i in inv.instances:
                v = self.queries.ann(i, t, preds)
                inst = il.substitute(e, {self._lid(t): v})
                b.emit(il.Assume(il.implies(il.and_all([preds[t], self._below_size(v)]), inst)))

    def _assume_binary(self, inv: _Invariant, preds: dict[int, il.Expr]) -> None:
        b, sg = self.builder, self.threads.same_group()
        ins = inv.instances
        for t in THREADS:
            u = 3 - t
            e = self._thread_expr(inv.expr, t, preds)
            for k in range(0, len(ins) - 1, 2):
                i, j = (self.queries.ann(x, t, preds) for x in (ins[k], ins[k + 1]))
                sub = {self._lid(t): i, self._lid(u): j}
                for d in ("y", "z"):
                    if self._lid(u, d) != self._lid(t, d):
                        sub[self._lid(u, d)] = il.Var(self._lid(t, d))
                inst = il.substitute(e, sub)
                ok = il.and_all([preds[1], preds[2], sg, self._below_size(i), self._below_size(j),
                                 il.BinOp("!=", i, j)])
                b.emit(il.Assume(il.implies(ok, inst)))
