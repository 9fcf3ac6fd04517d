"""Rules r12 (noread) and r13 (nowrite), paper 003 appendix A.12: no access is in flight
at the head of a loop containing a barrier.

For every log the loop fills (``HO`` = ``_READ_HAS_OCCURRED_A`` for r12, ``_WRITE_...`` and
``_ATOMIC_...`` for r13; ``bool``): ``!HO`` and, because barriers reset logs only for
threads of one group (docs/design.md 5.6), ``same_group ==> !HO``.
"""
from __future__ import annotations

from .. import il
from .context import Candidate, LoopContext

RULES = ("r12", "r13")


def log_candidates(ctx: LoopContext, name: str, a, kind: str) -> list[Candidate]:
    if not ctx.has_barrier:
        return []
    ho = ctx.log(a, kind)[0]
    rule = "r12" if kind == "READ" else "r13"
    return [(rule, il.not_(ho)), (rule, il.implies(ctx.threads.same_group(), il.not_(ho)))]
