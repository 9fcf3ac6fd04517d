"""Rule ``moved`` (project rule, in the style of paper 003 appendix A.12): a log the loop
fills holds an access only once an additive counter of the loop has left its initial
value.

For every log the loop fills (``HO`` = ``_K_HAS_OCCURRED_A``, thread 1's log; ``bool``) and
every additive counter ``v`` (``v := init`` before the loop, ``v := v + s`` in it,
``LoopContext.strides``): ``HO ==> v$1 != init$1`` and, because barriers reset logs only
for threads of one group (docs/design.md 5.6), ``same_group ==> (HO ==> v$1 != init$1)``.

It holds when the log is empty on entry (r12/r13 at an enclosing barrier loop's head) and
the loop's first iteration moves the counter.  Tiled kernels whose tile loops run once
for the launch they are verified at (``for (i = 0; i < TILE; i += ROWS)`` with ``TILE ==
ROWS``) then need no offset arithmetic at all to rule out a race with an earlier
iteration: in the only iteration the log is empty.  The r1 residue that would prove the
same for 64-bit offsets of a padded 2-D shared tile (``tile[ty + i][tx]``, row of 17
elements) is a 64-bit division the solvers do not decide within a minute (``strided``).
"""
from __future__ import annotations

from .. import il
from .context import Candidate, LoopContext

RULES = ("moved",)


def log_candidates(ctx: LoopContext, name: str, a, kind: str) -> list[Candidate]:
    """``HO ==> v$1 != init$1`` (plain and for one group) per additive counter ``v``."""
    ho = ctx.log(a, kind)[0]
    same = ctx.threads.same_group()
    accesses = ctx.accesses_of(name, kind)
    # Base case: on entry the counter is at its initial value, so the log must be empty.
    plain = not any(ctx.kf.logged_at_entry(acc, ctx.loop, any_group=True) for acc in accesses)
    group = same != il.TRUE and not any(ctx.kf.logged_at_entry(acc, ctx.loop) for acc in accesses)
    out: list[Candidate] = []
    for v, (init, _) in sorted(ctx.strides.items()):
        moved = il.implies(ho, il.BinOp("!=", ctx.threads.ex(il.Var(v), 1), ctx.threads.ex(init, 1)))
        if plain:
            out.append(("moved", moved))
        if group:
            out.append(("moved", il.implies(same, moved)))
    return out
