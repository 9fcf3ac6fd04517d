"""Rule ``src`` (project rule): the logged source of thread 1 is one of the accesses that
may run before the loop head, so race reports name a real access after the loop's havoc.

For a log the loop fills (``HO``; ``SRC`` = ``_K_SOURCE_A``, an ``int`` source number):
``HO ==> SRC == n_1 || ... || SRC == n_k`` over the accesses of that log in blocks that
reach the head; with several, also single sources where they can be inductive:

* ``HO ==> SRC == n`` when ``n`` is the only source of the log's accesses in the loop (an
  access of the loop that may be logged on the back edge keeps any other single source
  from being inductive);
* ``same_group ==> (HO ==> SRC == n)`` when the loop has a barrier and the entry of ``n``
  can still be in the log at the head (``KernelFacts.logged_at``: no barrier resets it on
  some path), e.g. only the access before a barrier loop can still be logged.

Generating every single source at every head instead made the count quadratic in the
nesting depth (each access reaches every enclosing head) and Houdini's rounds with it.
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
        accs = [acc for acc in ctx.accesses_of(name, kind) if acc.block in reach]
        inside = ctx.sources(acc for acc in accs if acc.block in ctx.loop.blocks)
        sole = inside if len(inside) == 1 else []
        live = ctx.sources(acc for acc in accs if ctx.kf.logged_at(acc, ctx.loop.header)) if ctx.has_barrier else []
        for n in srcs:
            one = il.implies(ho, il.BinOp("==", src, il.IntLit(n)))
            if n in sole:
                out.append(("src", one))
            if n in live:
                out.append(("src", il.implies(ctx.threads.same_group(), one)))
    return out
