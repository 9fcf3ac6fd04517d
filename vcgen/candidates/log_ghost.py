"""Rule ``log`` (project rule): a log the loop never fills only shrinks in it (its barriers
reset it), so ``HO ==> ghost`` where the ``bool`` ghost ``_K_HAS_OCCURRED_A$entry<header>``
holds ``HO`` at loop entry (assigned by the lock-step transformer before the loop).  This
keeps the offset and source candidates meaningful after the loop's havoc.
"""
from __future__ import annotations

from .. import il
from ..analysis.loops import Loop
from .context import Candidate, LoopContext

RULES = ("log",)


def ghost_name(kind: str, array: str, lp: Loop) -> str:
    return f"_{kind}_HAS_OCCURRED_{array}$entry{lp.header}"


def ghosts(ctx: LoopContext) -> list[tuple[str, il.Type, il.Expr]]:
    """(ghost name, bool, HAS_OCCURRED var) for logs the loop's barriers reset but it never fills."""
    if not ctx.has_barrier:
        return []
    out: list[tuple[str, il.Type, il.Expr]] = []
    for name, a in ctx.info.arrays.items():
        for kind in ctx.access_logs.kinds(a):
            if a.logged and not ctx.accessed_in(name, kind):
                out.append((ghost_name(kind, name, ctx.loop), il.BOOL, ctx.access_logs.var(a, kind, "HAS_OCCURRED")))
    return out


def candidates(ctx: LoopContext) -> list[Candidate]:
    return [("log", il.implies(ho, il.Var(g)))
            for g, _, ho in ghosts(ctx)]
