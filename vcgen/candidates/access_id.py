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
    offsets = list(dict.fromkeys(ctx.threads.ex(acc.offset, 1) for acc in ctx.accesses_of(name, kind)
                                 if not (il.free_vars(acc.offset) & ctx.mod)))
    out = [("id", il.implies(ho, il.BinOp("==", off, e))) for e in offsets]
    if len(offsets) > 1:
        out.append(("id", il.implies(ho, il.or_all(il.BinOp("==", off, e) for e in offsets))))
    return out
