"""Rule r18 (sameWarpNoaccess), paper 003 appendix A.16: two threads of one warp have no
access in flight at a loop head.

Under ``--warp-sync`` the lock-step clears the logs of warp-mates after every instruction
(``Warps.clear_after_instruction``, the warp extension paper 003 cites [40]); a ``__syncwarp`` in the
loop clears them too (``Warps.op``).  For every log the loop fills (``HO`` =
``_K_HAS_OCCURRED_A``, ``bool``): ``same_warp ==> !HO``, ``same_warp`` being "same group
and same linear local id divided by the warp size".
"""
from __future__ import annotations

from .. import il
from .context import Candidate, LoopContext

RULES = ("r18",)


def log_candidates(ctx: LoopContext, name: str, a, kind: str) -> list[Candidate]:
    if not (ctx.options.warp_sync or _has_syncwarp(ctx)):
        return []
    return [("r18", il.implies(ctx.warps.same_warp(), il.not_(ctx.log(a, kind)[0])))]


def _has_syncwarp(ctx: LoopContext) -> bool:
    """The loop calls a ``{:warp_op "sync"}`` procedure (``__syncwarp``)."""
    procs = {p.name for p in ctx.info.prog.procedures() if il.attr_args(p.attrs, "warp_op")[:1] == ("sync",)}
    return any(isinstance(c, il.Call) and c.proc in procs for lab in ctx.loop.blocks for c in ctx.info.src[lab].cmds)
