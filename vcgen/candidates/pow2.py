"""Rules r14 (pow2) and r15 (pow2NotZero), paper 003 appendix A.13: variables that only
take power-of-two values (tree reductions, prefix sums).

For a ``bvW`` counter whose update in the loop multiplies, divides or shifts it
(``MUL``, ``UDIV``, ``SDIV``, ``SHL``, ``LSHR``, ``ASHR``), per thread:

* r14: ``v == 0bvW || BVW_AND(v, BVW_SUB(v, 1bvW)) == 0bvW`` (zero or a power of two; the
  paper's disjunction ``v == 0 || v == 1 || ... || v == 2**(W-1)``, as one bit trick);
* r15: ``v != 0bvW``.
"""
from __future__ import annotations

from .. import il
from .bvexpr import op_of
from .context import Candidate, Counter_, LoopContext

RULES = ("r14", "r15")
SCALING = ("SHL", "LSHR", "ASHR", "MUL", "UDIV", "SDIV")


def scaled_counters(ctx: LoopContext) -> list[Counter_]:
    """Counters (``context.Counter_``) scaled by their update, in variable order."""
    return [c for v, c in ctx.counters.items() if v not in ctx.strides and (op_of(c.step) or (0, ""))[1] in SCALING]


def is_pow2(ctx: LoopContext, v: il.Expr, w: int) -> il.Expr:
    """``BVW_AND(v, v - 1) == 0`` (v is zero or a power of two)."""
    return il.BinOp("==", ctx.fun("AND", w, v, ctx.fun("SUB", w, v, il.BvLit(1, w))), il.BvLit(0, w))


def candidates(ctx: LoopContext) -> list[Candidate]:
    out = []
    for c in scaled_counters(ctx):
        v, w = il.Var(c.var), c.width
        out += ctx.per_thread("r14", il.BinOp("||", il.BinOp("==", v, il.BvLit(0, w)), is_pow2(ctx, v, w)))
        out += ctx.per_thread("r15", il.BinOp("!=", v, il.BvLit(0, w)))
    return out
