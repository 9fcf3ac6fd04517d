"""Rule ``id`` (project rule; paper 000 section 5.3, "access thread id plus offset"): the
logged offset of thread 1 is one of the kernel's loop-invariant offsets of that log.

For a log the loop fills (``HO``, ``OFF`` of array ``A``, kind K), for every access of
kind K to ``A`` whose inlined one-thread offset ``e`` the loop does not modify:
``HO ==> OFF == e$1`` (``OFF`` and ``e`` in the array's domain type, e.g. ``bv64``), and,
with several such offsets, their disjunction.
"""
from __future__ import annotations

from .. import il
from .context import Candidate, LoopContext

RULES = ("id",)


def log_candidates(ctx: LoopContext, name: str, a, kind: str) -> list[Candidate]:
    ho, off, _ = ctx.log(a, kind)
    offsets = list(dict.fromkeys(ctx.kf.thread1_offset(acc) for acc in ctx.accesses_of(name, kind)
                                 if not (acc.offset_vars & ctx.mod)))
    out = [("id", il.implies(ho, il.BinOp("==", off, e))) for e in offsets]
    if len(offsets) > 1:
        out.append(("id", il.implies(ho, il.or_all(il.BinOp("==", off, e) for e in offsets))))
    if offsets and any(acc.offset_vars & ctx.mod for acc in ctx.accesses_of(name, kind)):
        out += by_source(ctx, name, a, kind)
    return out


def by_source(ctx: LoopContext, name: str, a, kind: str) -> list[Candidate]:
    """``HO ==> (SRC == n ==> OFF == e$1)`` for each access ``n`` at a loop-invariant
    offset ``e``, when the log also takes accesses whose offsets the loop moves (a read
    before the loop and reads in it): the plain ``HO ==> OFF == e$1`` cannot hold then."""
    ho, off, src = ctx.log(a, kind)
    out = []
    for acc in ctx.accesses_of(name, kind):
        if not (acc.offset_vars & ctx.mod):
            n = ctx.builder.sourceloc_num(acc.loc).value
            out.append(("id", il.implies(ho, il.implies(il.BinOp("==", src, il.IntLit(n)),
                                                        il.BinOp("==", off, ctx.kf.thread1_offset(acc))))))
    return out
