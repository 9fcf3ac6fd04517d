"""Rule r17 (relationalPow2), paper 003 appendix A.15: a pair of power-of-two variables of
one loop, one doubling and one halving, in lock-step: their product is invariant.

Pattern: ``bvW`` counters ``u := u0``, ``u := u * f`` (or ``u << k``, ``f = 2**k``) and
``d := d0``, ``d := d >> k`` (logical or arithmetic: ``int`` counters shift with
``ASHR``, which halves them while they are non-negative, as the product ``C`` forces) or ``d / f``
(unsigned or signed division) of the same loop, ``f > 1`` the same power of
two, ``u0``, ``d0`` loop-invariant.  With ``C = u0 * d0`` (one-thread, folded when both
are literals), per thread:

* ``d != 0bvW ==> BVW_MUL(u, d) == C`` (the lock-step relation while ``d`` is non-zero);
* ``d == 0bvW ==> u == BVW_MUL(C, f)`` (``d`` reached zero from 1: ``u`` doubled once more),
  which carries ``u`` (e.g. Blelloch's ``offset``) exactly past the loop.

Together with r14 (both are powers of two) this bounds ``u <= C`` inside the loop, so
offsets like ``u * (2 * tid + 1) - 1`` do not wrap (``corpus/cuda/blelloch_scan.cu``).
"""
from __future__ import annotations

from typing import NamedTuple

from .. import il
from .bvexpr import args_of, fold, is_power_of_two, op_of
from .context import Candidate, Counter_, LoopContext
from .pow2 import scaled_counters

RULES = ("r17",)


def _pow2_literal(e: il.Expr) -> int | None:
    return e.value if isinstance(e, il.BvLit) and is_power_of_two(e.value) else None


class Scaling(NamedTuple):
    """A counter's update multiplies (``up``) or divides (``down``) it by ``factor``, a power
    of two."""
    direction: str
    factor: int


def scaling(c: Counter_) -> Scaling | None:
    """``("up" | "down", f)`` when the counter's update multiplies / divides it by the power of
    two ``f``; None otherwise."""
    op, v = op_of(c.step), il.Var(c.var)
    if op is None or op[0] != c.width or len(args_of(c.step)) != 2:
        return None
    a, b = args_of(c.step)
    if op[1] == "MUL" and v in (a, b):
        f = _pow2_literal(b if a == v else a)
        return Scaling("up", f) if f else None
    if op[1] in ("UDIV", "SDIV") and a == v:  # SDIV: ``int offset; offset /= 2``
        f = _pow2_literal(b)
        return Scaling("down", f) if f else None
    if a != v or not isinstance(b, il.BvLit) or not 0 < b.value < c.width:
        return None
    if op[1] == "SHL":
        return Scaling("up", 1 << b.value)
    if op[1] in ("LSHR", "ASHR"):  # ASHR: a signed ``int d; d >>= 1`` (equal to LSHR while d >= 0)
        return Scaling("down", 1 << b.value)
    return None


def candidates(ctx: LoopContext) -> list[Candidate]:
    scaled = [(c, scaling(c)) for c in scaled_counters(ctx)]
    ups = [(c, s[1]) for c, s in scaled if s and s[0] == "up"]
    downs = [(c, s[1]) for c, s in scaled if s and s[0] == "down"]
    out = []
    for u, fu in ups:
        for d, fd in downs:
            if u.width != d.width or fu != fd:
                continue
            w = u.width
            zero = il.BvLit(0, w)
            const = fold("MUL", w, u.init, d.init)
            uv, dv = il.Var(u.var), il.Var(d.var)
            out += ctx.per_thread("r17", il.implies(il.BinOp("!=", dv, zero),
                                                    il.BinOp("==", ctx.fun("MUL", w, uv, dv), const)))
            out += ctx.per_thread("r17", il.implies(il.BinOp("==", dv, zero),
                                                    il.BinOp("==", uv, fold("MUL", w, const, il.BvLit(fu, w)))))
    return out
