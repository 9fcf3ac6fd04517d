"""Rules r11 (loopPredicateEquality) and r16 (predicatedEquality), paper 003 appendix A.11
and A.14: uniformity of control flow and of variables across the two threads.

* r11: the loop predicate is the same in both threads.  In the lock-step program a
  thread's predicate at a loop head is its program counter (``cur$t``, an ``int``), so the
  candidates are ``(cur$1 == lo) == (cur$2 == lo)`` (both in the loop or neither) and
  ``cur$1 == cur$2`` (also outside it: they left by the same exit).
* r16: a non-uniform (per-thread) ``bvW`` variable modified in the loop (except SSA
  temporaries used only inside the loop, dead at the head) has the same value in both
  threads: ``v$1 == v$2``; in loops the threads may leave at different times (not
  uniformly executed), also predicated on both being in it:
  ``cur$1 == lo && cur$2 == lo ==> v$1 == v$2``.  A counter that starts at a value of
  the group (``for (c = 32 * get_group_id(1); ...)`` in a loop the threads of other groups
  may have left, PolyBench) needs both guards: ``same_group ==> (both in it ==> equal)``
  (outside the loop its value is stale, or undefined before the first entry).

With several groups, in a loop holding a barrier, both rules also give their candidates
guarded by ``same_group``: control flow and values that depend on the group id
(``for (i = 0; i < get_group_id(0); i++) barrier(...)``) or on shared memory read after a
barrier are the same for two threads of one group only, and only those must reach the
barriers together (barrier divergence is a property of one group, paper 000 section 2).
"""
from __future__ import annotations

from .. import il
from .context import Candidate, LoopContext

RULES = ("r11", "r16")


def loop_predicate(ctx: LoopContext) -> list[Candidate]:
    """r11 candidates (booleans over ``cur$1``, ``cur$2``)."""
    return _also_per_group(ctx, [("r11", il.BinOp("==", ctx.at_head(1), ctx.at_head(2))),
                                 ("r11", il.BinOp("==", ctx.threads.cur(1), ctx.threads.cur(2)))])


def _also_per_group(ctx: LoopContext, cands: list[Candidate]) -> list[Candidate]:
    """``cands`` and, in a loop with a barrier when there are several groups, each of them
    guarded by ``same_group``."""
    same = ctx.threads.same_group()
    if same == il.TRUE or not ctx.has_barrier:
        return cands
    return cands + [(r, il.implies(same, e)) for r, e in cands]


def _dead_at_head(ctx: LoopContext, v: str) -> bool:
    """A single-definition (SSA) temporary of the loop used only inside it: its value at the
    head is recomputed before any use, so its equality cannot matter."""
    return v in ctx.kf.defs and v not in ctx.read_outside


def variable_equality(ctx: LoopContext) -> list[Candidate]:
    """r16 candidates for the per-thread ``bvW`` variables the loop modifies."""
    out: list[Candidate] = []
    dup = [v for v in ctx.scalars if ctx.threads.is_dup(v) and not _dead_at_head(ctx, v)
           and v not in ctx.kf.adversarial_data]
    for v in dup:
        out.append(("r16", il.BinOp("==", il.Var(f"{v}$1"), il.Var(f"{v}$2"))))
    out = _also_per_group(ctx, out)
    if not ctx.uniform:
        both = il.BinOp("&&", ctx.at_head(1), ctx.at_head(2))
        out += _also_per_group(ctx, [("r16", il.implies(both, il.BinOp("==", il.Var(f"{v}$1"), il.Var(f"{v}$2"))))
                                     for v in dup])
    return out
