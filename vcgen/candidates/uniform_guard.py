"""Rule r7 (guardMinusInitialsUniform), paper 003 appendix A.7: in a loop containing a
barrier, a counter started at a non-uniform value (e.g. the thread id) and incremented by
a uniform one (e.g. the block size) has a uniform distance from its initial value, so the
loop guard can be proved uniform (no barrier divergence).

Pattern: a per-thread ``bvW`` counter ``v := init`` (init differs between threads),
``v := v + s`` (``s`` uniform, loop-invariant) in a loop with a barrier.  Candidate (one,
relating both threads): ``BVW_SUB(v$1, init$1) == BVW_SUB(v$2, init$2)``.
"""
from __future__ import annotations

from .. import il
from .context import Candidate, LoopContext

RULES = ("r7",)


def candidates(ctx: LoopContext) -> list[Candidate]:
    if not ctx.has_barrier:
        return []
    th = ctx.threads
    out: list[Candidate] = []
    for v, (init, s) in ctx.strides.items():
        if not th.is_dup(v) or th.ex(init, 1) == th.ex(init, 2) or th.ex(s, 1) != th.ex(s, 2):
            continue
        w = ctx.counters[v].width
        dist = [ctx.fun("SUB", w, th.ex(il.Var(v), t), th.ex(init, t)) for t in (1, 2)]
        out.append(("r7", il.BinOp("==", dist[0], dist[1])))
    return out
