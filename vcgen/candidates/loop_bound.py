"""Rules r8 (guardNonNeg) and r9 (loopBound), paper 003 appendix A.8 and A.9: ranges of
loop guard variables.  All candidates are per thread (one copy renamed for each thread)
over ``bvW`` variables with ``BVW_{S,U}{LE,GE}`` comparisons.

* r8: a guard variable compared signed is non-negative: ``BVW_SGE(v, 0bvW)``.
* r9: the initial value bounds the range of a counter (``v := init`` before the loop,
  ``v := v + s`` in it): ``BVW_SGE(v, init)`` and ``BVW_UGE(v, init)``; and the guard
  ``v < e`` (``<=``, ``>``, ``>=``; ``e`` loop-invariant) bounds it: ``BVW_SLE(v, e)`` etc.
  A counter that only shrinks (``v := v >> k``, ``v := v / c`` unsigned, ``c`` a non-zero
  literal: tree reductions counting strides down) stays at or below its initial value:
  ``BVW_ULE(v, init)`` (an extension of A.9 in the same spirit).
"""
from __future__ import annotations

from .. import il
from .bvexpr import CMP_TO_BOUND, args_of, bv_op, op_of
from .context import Candidate, LoopContext
from .pow2 import scaled_counters

RULES = ("r8", "r9")
FLIP = {"LT": "GT", "LE": "GE", "GT": "LT", "GE": "LE"}


def guard_bounds(ctx: LoopContext) -> list[Candidate]:
    """r9 guard bounds and r8 non-negativity for variables compared in loop branches."""
    out = []
    for g in ctx.guards():
        bop = bv_op(g.name)
        assert bop is not None  # guards() returns bit-vector comparisons
        w, op = bop
        a, b = g.args
        for x, y, o in ((a, b, op), (b, a, op[0] + FLIP[op[1:]])):
            if isinstance(x, il.Var) and x.name in ctx.mod and not (il.free_vars(y) & ctx.mod):
                out += ctx.per_thread("r9", ctx.fun(CMP_TO_BOUND[o], w, x, y))
                if o[0] == "S":
                    out += ctx.per_thread("r8", ctx.fun("SGE", w, x, il.BvLit(0, w)))
    return out


def initial_bounds(ctx: LoopContext) -> list[Candidate]:
    """r9: additive counters stay at or above their initial value (signed and unsigned)."""
    out = []
    for v, (init, _) in ctx.strides.items():
        w = ctx.counters[v].width
        out += ctx.per_thread("r9", ctx.fun("SGE", w, il.Var(v), init))
        out += ctx.per_thread("r9", ctx.fun("UGE", w, il.Var(v), init))
    return out


def shrinking_bounds(ctx: LoopContext) -> list[Candidate]:
    """r9: counters divided down in the loop (``LSHR`` by anything, ``UDIV`` by a non-zero
    literal: ``BVW_UDIV(v, 0)`` is all ones in SMT-LIB) stay at or below their initial
    value, unsigned."""
    out = []
    for c in scaled_counters(ctx):
        op, (x, k) = (op_of(c.step) or (0, ""))[1], args_of(c.step)
        if x != il.Var(c.var) or il.free_vars(k) & ctx.mod:
            continue
        if op == "LSHR" or (op == "UDIV" and isinstance(k, il.BvLit) and k.value):
            out += ctx.per_thread("r9", ctx.fun("ULE", c.width, il.Var(c.var), c.init))
    return out
