"""Rule ``id`` (project rule; paper 000 section 5.3, "access thread id plus offset"): the
logged offset of thread 1 is one of the kernel's loop-invariant offsets of that log.

For a log the loop fills (``HO``, ``OFF`` of array ``A``, kind K), for every access of
kind K to ``A`` whose inlined one-thread offset ``e`` the loop does not modify:
``HO ==> OFF == e$1`` (``OFF`` and ``e`` in the array's domain type, e.g. ``bv64``), and,
with several such offsets, their disjunction.  When the loop also moves some offsets of
the log, the same per source: ``HO ==> (SRC == n ==> OFF == e$1)``, and the disjunction of
a source's offsets when it has several (``by_source``).  Only accesses whose offset no
path from the access back to the head changes with the entry still logged (``_fixed``).
"""
from __future__ import annotations

from .. import il
from .context import Candidate, LoopContext

RULES = ("id",)


def log_candidates(ctx: LoopContext, name: str, a, kind: str) -> list[Candidate]:
    ho, off, _ = ctx.log(a, kind)
    offsets = list(dict.fromkeys(ctx.kf.thread1_offset(acc) for acc in ctx.accesses_of(name, kind)
                                 if _fixed(ctx, acc)))
    out = [("id", il.implies(ho, il.BinOp("==", off, e))) for e in offsets]
    if len(offsets) > 1:
        out.append(("id", il.implies(ho, il.or_all(il.BinOp("==", off, e) for e in offsets))))
    if offsets and any(acc.offset_vars & ctx.mod for acc in ctx.accesses_of(name, kind)):
        out += by_source(ctx, name, a, kind)
    return out


def by_source(ctx: LoopContext, name: str, a, kind: str) -> list[Candidate]:
    """``HO ==> (SRC == n ==> OFF == e$1)`` for each access ``n`` at a loop-invariant
    offset ``e``, when the log also takes accesses whose offsets the loop moves (a read
    before the loop and reads in it): the plain ``HO ==> OFF == e$1`` cannot hold then.
    One source can log several offsets (a ``uchar4`` element is four byte accesses at
    ``e``, ``e + 1``, ...), where no single equality holds: such a source also gets their
    disjunction, ``HO ==> (SRC == n ==> OFF == e1 || OFF == e2 || ...)``."""
    ho, off, src = ctx.log(a, kind)
    by_num: dict[int, list] = {}
    for acc in ctx.accesses_of(name, kind):
        if _fixed(ctx, acc):
            n = ctx.builder.sourceloc_num(acc.loc).value
            by_num.setdefault(n, []).append(ctx.kf.thread1_offset(acc))
    out = []
    for n, offsets in by_num.items():
        offsets = list(dict.fromkeys(offsets))
        alternatives: list[il.Expr] = [il.BinOp("==", off, e) for e in offsets]
        if len(offsets) > 1:
            alternatives.append(il.or_all(alternatives))
        out += [("id", il.implies(ho, il.implies(il.BinOp("==", src, il.IntLit(n)), alt))) for alt in alternatives]
    return out


def _fixed(ctx: LoopContext, acc) -> bool:
    """Does ``acc``'s offset keep its value for as long as its log entry can stay: the loop
    does not modify it, and no path from the access to the head changes it with the
    entry still logged (``KernelFacts.stale_at``: an enclosing loop's counter; the entry
    of an earlier iteration of that loop is at the old offset)?"""
    return not (acc.offset_vars & ctx.mod) and not ctx.kf.stale_at(acc, ctx.loop.header, acc.offset_vars,
                                                                     any_group=True)
