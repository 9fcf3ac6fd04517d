"""Rules r2 (accessLowerBoundBlock) and r3 (accessUpperBoundBlock), paper 003 appendix
A.3: a group of threads is assigned a contiguous range of an array.

Pattern: an access inside the loop at one-thread offset (``bvW`` after peeling a zero/sign
extension) ``e == sum(a_i * x_i) + c * g + r`` with ``x_i`` loop-modified atoms, ``g`` a
``group_id_*``, ``c`` loop-invariant and *not* a literal (literal block sizes are r0's
``OFF / c == g``), ``r`` loop-invariant; only for global arrays (group-shared ones never
race across groups).  With ``L = c * g + r`` (one-thread, thread 1):

* r2: ``HO ==> BVW_ULE(L$1, OFF)``;
* r3: ``HO ==> BVW_ULT(OFF, BVW_ADD(L$1, c$1))``.
"""
from __future__ import annotations

from .. import il
from .bvexpr import atoms, linear, linear_terms, narrow_offset
from .context import Candidate, LoopContext

RULES = ("r2", "r3")


def block_range(ctx: LoopContext, ho: il.Expr, off: il.Expr, e: il.Expr, width: int) -> list[Candidate]:
    off, e, w, _ = narrow_offset(off, e, width, mixed=True)
    loop_atoms = atoms(e, ctx.mod, w)
    lt = linear_terms(e, loop_atoms, w) if loop_atoms else None
    if lt is None or il.free_vars(lt[1]) & ctx.mod or any(il.free_vars(c) & ctx.mod for c in lt[0]):
        return []
    low = lt[1]
    out = []
    for g in (f"group_id_{d}" for d in "xyz"):
        lin = linear(low, g, w) if g in il.free_vars(low) else None
        if lin is None or isinstance(lin[0], il.BvLit) or g in il.free_vars(lin[0]):
            continue
        lo1, c1 = ctx.threads.ex(low, 1), ctx.threads.ex(lin[0], 1)
        out.append(("r2", il.implies(ho, ctx.fun("ULE", w, lo1, off))))
        out.append(("r3", il.implies(ho, ctx.fun("ULT", w, off, ctx.fun("ADD", w, lo1, c1)))))
    return out


def log_candidates(ctx: LoopContext, name: str, a, kind: str) -> list[Candidate]:
    if not isinstance(a.dom, il.BvType) or a.space != "global":  # group-shared: no inter-group races
        return []
    ho, off, _ = ctx.log(a, kind)
    out = []
    for acc in ctx.accesses_of(name, kind):
        if acc.block in ctx.loop.blocks and il.free_vars(acc.offset) & ctx.mod:
            out += block_range(ctx, ho, off, acc.offset, a.dom.width)
    return out
