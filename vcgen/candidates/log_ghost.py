"""Rule ``log`` (project rule): a log the loop never fills only shrinks in it (its barriers
reset it), so ``HO ==> ghost`` where the ``bool`` ghost ``_K_HAS_OCCURRED_A$entry<header>``
holds ``HO`` at loop entry (assigned by the lock-step transformer before the loop).  This
keeps the offset and source candidates meaningful after the loop's havoc.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import il

if TYPE_CHECKING:
    from ..lockstep import Lockstep
    from ..analysis.loops import Loop
    from .context import LoopContext

RULES = ("log",)


def ghost_name(kind: str, array: str, lp: "Loop") -> str:
    return f"_{kind}_HAS_OCCURRED_{array}$entry{lp.header}"


def ghosts(ls: "Lockstep", lp: "Loop", has_barrier: bool, accessed_in) -> list:
    """(ghost name, HAS_OCCURRED var) for logs the loop's barriers reset but it never fills."""
    if not has_barrier:
        return []
    out = []
    for name, a in ls.arrays.items():
        for kind in ls.log_kinds(a):
            if a.logged and not accessed_in(name, kind):
                out.append((ghost_name(kind, name, lp), ls.log_var(a, kind, "HAS_OCCURRED")))
    return out


def candidates(ctx: "LoopContext") -> list:
    return [("log", il.implies(ho, il.Var(g)))
            for g, ho in ghosts(ctx.ls, ctx.loop, ctx.has_barrier, ctx.accessed_in)]
