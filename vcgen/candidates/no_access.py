"""Rules r12 (noread) and r13 (nowrite), paper 003 appendix A.12: no access is in flight
at the head of a loop containing a barrier.

For every log the loop fills (``HO`` = ``_READ_HAS_OCCURRED_A`` for r12, ``_WRITE_...`` and
``_ATOMIC_...`` for r13; ``bool``): ``!HO`` and, because barriers reset logs only for
threads of one group (docs/design.md 5.6), ``same_group ==> !HO``.

Each only where no logged access can reach the head with its entry still in the log
(``KernelFacts.logged_at``: for ``!HO`` a barrier resets only a group-shared array's
logs, for the one-group form any covering barrier does).  An access on such a path makes
the candidate fail as soon as the path runs; when it does not run (the enclosing tile
loop of a PolyBench kernel runs once) the candidate is true, but inductive only where
other invariants rule the path out (PolyBench gemm: loop bounds of the tile loop);
elsewhere Houdini paid a sat query of seconds to drop it (lu kernel1).
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
    head, accesses = ctx.loop.header, ctx.accesses_of(name, kind)
    out: list[Candidate] = []
    if not any(ctx.kf.logged_at(acc, head, any_group=True) for acc in accesses):
        out.append((rule, il.not_(ho)))
    if not any(ctx.kf.logged_at(acc, head) for acc in accesses):
        out.append((rule, il.implies(ctx.threads.same_group(), il.not_(ho))))
    return out
