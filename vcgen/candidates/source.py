"""Rule ``src`` (project rule): the logged source of thread 1 is one of the accesses that
may run before the loop head, so race reports name a real access after the loop's havoc.

For a log the loop fills (``HO``; ``SRC`` = ``_K_SOURCE_A``, an ``int`` source number):
``HO ==> SRC == n_1 || ... || SRC == n_k`` over the accesses of that log in blocks that
reach the head; with several, also ``HO ==> SRC == n_i`` and ``same_group ==> (HO ==>
SRC == n_i)`` for each (e.g. only the access before the loop can still be logged).
"""
from __future__ import annotations

from .. import il
from .context import Candidate, LoopContext

RULES = ("src",)


def log_candidates(ctx: LoopContext, name: str, a, kind: str) -> list[Candidate]:
    ho, _, src = ctx.log(a, kind)
    reach = ctx.kf.reaching(ctx.loop)
    srcs = ctx.sources(acc for acc in ctx.accesses_of(name, kind) if acc.block in reach)
    out = []
    if srcs:
        out.append(("src", il.implies(ho, ctx.source_in(src, srcs))))
    if len(srcs) > 1:
        for n in srcs:
            one = il.implies(ho, il.BinOp("==", src, il.IntLit(n)))
            out.append(("src", one))
            out.append(("src", il.implies(ctx.threads.same_group(), one)))
    return out
