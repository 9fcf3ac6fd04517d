"""Rule ``once`` (project rule, in the style of paper 003 appendix A.9 loopBound): a tile
loop whose step exceeds its range runs at most once per entry.

Pattern: a loop enclosing another loop, with an additive counter ``v`` (``v := init``
before it, ``v := v + s`` in it, ``s`` loop-invariant: ``LoopContext.strides``) that a
comparison of the loop's branches reads (``LoopContext.guards``).  Candidate, per thread
(``LoopContext.per_thread``): ``v == init || v == init + s`` -- the counter took at most
one step since the loop was entered.  Inductive exactly when ``init + s`` fails the
guard, i.e. the loop runs at most once for the launch and preconditions it is verified
at: the tile loops of PolyBench's code generator (``for (c1 = 32 * b0; c1 <= min(n - 1,
c0); c1 += 8192)`` with ``n == 64``).  Stated without the guard's bound, which is often
recomputed in the loop header (``min``/``max`` branches) and has no meaningful value at
the head.  Inside the loop it pins the counter to its initial value (the guard rules out
``init + s``), where r10 only gives ``(v - init) % s == 0``.

Only loops enclosing loops: a flat loop gains nothing from running once, and the
candidates of grid-stride loops that run several times are false (DYN's runs drop them
without a query).  On PolyBench covariance kernel3 (tile loops c0, c1 run once around a
loop of 16 iterations) 6 of 16 are proved, and in two runs beside main's on a loaded
machine Houdini asked 120 and 126 queries instead of 166 and 234 (3 splits instead of 5
and 7; 302 s instead of 359 s, 360 s instead of 400 s).

Not done (measured on lu kernel1; docs/design.md section 5, log paths): leaving the paths through a
second iteration of such a loop out of ``KernelFacts.stale_at``/``logged_at_entry``,
which brings back r4, ``moved`` and ``id`` candidates at the nested loops.  They fail
anyway, in states where thread 1 is not in the tile loop (the lock-step's frame of a
disabled thread), and Houdini paid a sat query for each (lu kernel1: 432 -> 483
candidates, its first 60 queries in 125 s against 57 s; gemm kernel0: 14 more proved,
40 -> 60 queries, same Houdini time).
"""
from __future__ import annotations

from .. import il
from .context import Candidate, LoopContext

RULES = ("once",)


def guard_counters(ctx: LoopContext) -> dict[str, tuple[il.Expr, il.Expr]]:
    """``v -> (init, step)`` for the additive counters (``LoopContext.strides``) that a
    comparison in the loop's branches reads, in name order."""
    compared: set[str] = set()
    for g in ctx.guards():
        compared |= il.free_vars(g)
    return {v: st for v, st in sorted(ctx.strides.items()) if v in compared}


def applies(ctx: LoopContext) -> bool:
    """Does rule ``once`` state anything about this loop: does it enclose another loop
    and have a guard counter?  A loop without nested loops gains nothing from running
    once (no inner loop entered twice per entry), so none of its (mostly false,
    grid-stride) candidates is made."""
    return bool(ctx.loop.children) and bool(guard_counters(ctx))


def at_most_one_step(ctx: LoopContext, v: str, init: il.Expr, step: il.Expr) -> il.Expr:
    """The one-thread expression ``v == init || v == init + step`` (``bvW`` arithmetic)."""
    w = ctx.counters[v].width
    var = il.Var(v)
    return il.BinOp("||", il.BinOp("==", var, init), il.BinOp("==", var, ctx.fun("ADD", w, init, step)))


def candidates(ctx: LoopContext) -> list[Candidate]:
    """``once`` candidates of the loop's guard counters, per thread."""
    out: list[Candidate] = []
    if not applies(ctx):
        return out
    for v, (init, step) in guard_counters(ctx).items():
        out += ctx.per_thread("once", at_most_one_step(ctx, v, init, step))
    return out
