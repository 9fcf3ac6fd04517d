"""The two threads of the reduction: which one-thread names get a copy per thread
(``x$1``, ``x$2``: non-uniform locals, thread ids, equality-abstracted arrays), each
thread's program counter ``cur$t`` and predicate ``p$t``, and "same group" (paper 000
section 4; docs/IL.md "Two-thread programs")."""
from __future__ import annotations

from .. import il
from .builder import ProgramBuilder
from .kernel import DIMS, KernelInfo

THREADS = (1, 2)


class Threads:
    """Per-thread naming of one-thread names.  A name is duplicated when it is a thread or
    group id, a non-uniform local (``vcgen.analysis.uniformity``) or an array under the
    equality abstraction; every other name is shared by both threads."""

    def __init__(self, info: KernelInfo, builder: ProgramBuilder):
        self.info = info
        self.builder = builder
        self.rename: dict[int, dict[str, il.Var]] = {t: self._renaming(t) for t in THREADS}

    def _renaming(self, t: int) -> dict[str, il.Var]:
        m = {}
        for n in self.info.dup_consts:
            m[n] = il.Var(f"{n}${t}")
        for n in self.info.local_types:
            if self.is_dup(n):
                m[n] = il.Var(f"{n}${t}")
        for a in self.info.arrays.values():
            if a.equality:
                m[a.name] = il.Var(f"{a.name}${t}")
        return m

    def is_dup(self, local: str) -> bool:
        """Is the one-thread local ``local`` duplicated per thread (non-uniform)?"""
        return local in self.info.uni.nonuniform_vars

    def name(self, n: str, t: int) -> str:
        """Thread ``t``'s name for the one-thread name ``n``."""
        v = self.rename[t].get(n)
        return v.name if v is not None else n

    def ex(self, e: il.Expr, t: int) -> il.Expr:
        """Thread ``t``'s copy of the one-thread expression ``e``."""
        return il.substitute(e, self.rename[t])

    def cur(self, t: int) -> il.Var:
        """Thread ``t``'s program counter (``int``: a block number of ``KernelInfo.block_id``)."""
        return self.builder.local(f"cur${t}", il.INT)

    def pred(self, t: int) -> il.Var:
        """Thread ``t``'s predicate: it executes the current block."""
        return self.builder.local(f"p${t}", il.BOOL)

    def same_group(self) -> il.Expr:
        """The two threads are in one group (``true`` when the program has no group ids)."""
        return il.and_all(il.BinOp("==", il.Var(f"group_id_{d}$1"), il.Var(f"group_id_{d}$2"))
                          for d in DIMS if f"group_id_{d}" in self.info.dup_consts)

    def havoc(self, v: str, preds: dict[int, il.Expr]) -> None:
        """Havoc the copies of the one-thread variable ``v`` of the threads enabled by
        ``preds`` (one copy when ``v`` is shared)."""
        b = self.builder
        ty = self.info.local_types.get(v)
        for t in THREADS if self.is_dup(v) else (1,):
            if preds[t] == il.TRUE:
                b.emit(il.Havoc((self.name(v, t),)))
            else:
                assert ty is not None
                h = b.tmp(ty, "havoc")
                b.emit(il.Havoc((h.name,)))
                b.emit(il.assign(self.name(v, t), il.ite(preds[t], h, il.Var(self.name(v, t)))))
