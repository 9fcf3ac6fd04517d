"""Rule r0 (accessBreak), paper 003 appendix A.1 and section 4.2: break a loop access
whose offset is built from thread components (local and group ids) into its components,
each of which identifies the thread.

Pattern: an access inside the loop at one-thread offset (``bvW`` after peeling a zero/sign
extension, see ``bvexpr.narrow_offset``)
``e == sum(k_j * comp_j) + sum(a_i * x_i) + r`` with ``comp_j`` among ``local_id_*`` /
``group_id_*``, ``x_i`` loop-modified atoms, literal coefficients ``k_j``, ``a_i`` and
loop-invariant ``r``, where some loop coefficient ``a_i`` is below some component's
``k_j`` (the loop part sits *between* components, as in ``A[lid * 4 + i]`` or the
transpose of section 4.2; otherwise r1's residue already separates threads).  For each
component, with ``B = OFF - r$1`` (``OFF`` the logged offset, narrowed likewise) and
``k'`` the next larger coefficient:

* ``HO ==> BVW_UDIV(B, k_j) == comp_j$1`` for the largest coefficient;
* ``HO ==> BVW_UREM(BVW_UDIV(B, k_j), k' / k_j) == comp_j$1`` otherwise (``k'`` a multiple
  of ``k_j``); ``UDIV`` by 1 is left out;
* none for a component whose digit a loop term reaches (a loop coefficient ``a >= k_j``
  that is not a multiple of ``k'``, as in ``(lid_x + c0) * n + lid_y + c1``): false
  whenever that term is not zero, so only a cost for Houdini.
"""
from __future__ import annotations

from .. import il
from .bvexpr import COMPONENTS, atoms, linear_terms, narrow_offset, peel_low_bits
from .context import Candidate, LoopContext

RULES = ("r0",)


def break_access(ctx: LoopContext, ho: il.Expr, off: il.Expr, e: il.Expr, width: int) -> list[Candidate]:
    """r0 candidates for one access at inlined one-thread offset ``e`` (launch sizes the
    configuration fixes count as literal coefficients: ``A[i + gid * W]``)."""
    off, e, w, _ = narrow_offset(off, ctx.concrete_sizes(e), width, mixed=True)
    e = peel_low_bits(e, w)
    comps = [il.Var(c) for c in COMPONENTS if c in il.free_vars(e)]
    loop_atoms = atoms(e, ctx.mod, w)
    if not comps or not loop_atoms:
        return []
    lt = linear_terms(e, comps + loop_atoms, w)
    if lt is None or il.free_vars(lt[1]) & ctx.mod or not all(isinstance(c, il.BvLit) for c in lt[0]):
        return []
    coeffs, rest = [c.value for c in lt.coeffs if isinstance(c, il.BvLit)], lt.rest
    kc = [(k, comp) for k, comp in zip(coeffs, comps) if k]
    ka = [k for k in coeffs[len(comps):] if k]
    if not kc or not ka or min(ka) >= max(k for k, _ in kc):
        return []
    base = off if rest == il.BvLit(0, w) else ctx.fun("SUB", w, off, ctx.threads.ex(rest, 1))
    out: list[Candidate] = []
    for k, comp in kc:
        above = [x for x in coeffs if x > k]
        nxt = min(above) if above else 0
        if any(a >= k and not (nxt and a % nxt == 0) for a in ka):
            continue  # a loop term lands in this component's digit: ``(t0 + c0) * n`` has no row t0
        q = base if k == 1 else ctx.fun("UDIV", w, base, il.BvLit(k, w))
        if above:
            if nxt % k:
                continue
            q = ctx.fun("UREM", w, q, il.BvLit(nxt // k, w))
        out.append(("r0", il.implies(ho, il.BinOp("==", q, ctx.threads.ex(comp, 1)))))
    return out


def log_candidates(ctx: LoopContext, name: str, a, kind: str) -> list[Candidate]:
    if not isinstance(a.dom, il.BvType):
        return []
    ho, off, _ = ctx.log(a, kind)
    out = []
    for acc in ctx.accesses_of(name, kind):
        if acc.block in ctx.loop.blocks and acc.offset_vars & ctx.mod:
            out += break_access(ctx, ho, off, acc.offset, a.dom.width)
    return out
