"""Rules r4 (accessOnlyIfEnabledInEnclosingScopes), r5 (conditionsImpliesEnabledness) and
r6 (disabledMaintainsInstrumentation), paper 003 appendix A.4-A.6: enabledness of the
threads in the divergent scopes enclosing a loop.

An *enclosing condition* ``c`` is the ``bool`` partition condition of a block dominating
the loop header from outside the loop, memory-free, not modified by the loop, and
different in the two threads (``context.LoopContext.enclosing_conditions``).

* r4, per log (``HO``, ``SRC``) the loop fills: accesses logged in the scope were made by
  an enabled thread 1: ``HO ==> c$1``, or ``HO && SRC in S ==> c$1`` when accesses outside
  the scope (sources not in ``S``) may also be logged at the head.  Not when a scope
  access may still be logged at the head after a variable of ``c`` changed
  (``KernelFacts.stale_at``: an enclosing loop's guard at an inner loop's head): the
  log then holds an access made under the old value of ``c``: true when the enclosing
  loop runs once, as in tiled PolyBench kernels, but inductive only where other
  invariants rule that path out (loop bounds on a tile loop: PolyBench gemm).  Scopes inside the
  loop count too when their condition is loop-invariant (``if (tid == 0) a[bid] = ..``
  in a loop: the log at the head holds only thread-0 writes), an extension of the paper's
  enclosing scopes.
* r5, per thread: a thread at the head is enabled in the enclosing scopes:
  ``cur$t == lo ==> c$t``.  (Often implied by the lock-step's own ``cur$t$entry``
  invariants; kept for loops entered from several places.)
* r6, per log the loop fills, in loops the threads may run apart (not uniform): when
  thread 1 never entered the loop (``cur$1$entry<h> != lo``) its log only loses entries
  (barriers): ``cur$1$entry<h> != lo ==> (HO ==> ghost)``, the ``bool`` ghost holding
  ``HO`` at loop entry (assigned by the lock-step via ``ghosts``); and the entry it still
  holds is the one it held at entry: ``cur$1$entry<h> != lo ==> (HO ==> OFF == OFF$entry
  && SRC == SRC$entry ...)`` over ghosts of every field of the log (project extension).
  This is the frame of a loop in a divergent arm: at the head of a loop in an ``else``
  arm, the log of a thread that took the ``then`` arm holds a ``then``-arm access, which
  the facts proved after the ``then`` arm's loops describe through the ghosts -- a rule
  over the loop's own accesses cannot, as that access never reaches this head in the
  one-thread program.
"""
from __future__ import annotations

from .. import il
from ..analysis.loops import Loop
from .context import Candidate, LoopContext
from .log_ghost import ghost_name

RULES = ("r4", "r5", "r6")


def loop_candidates(ctx: LoopContext) -> list[Candidate]:
    """r5 candidates."""
    out = []
    for _, c in ctx.enclosing_conditions:
        for t in (1, 2):
            out.append(("r5", il.implies(ctx.at_head(t), ctx.threads.ex(c, t))))
    return out


def _scope_candidate(ctx: LoopContext, name: str, a, kind: str, lab: str, c: il.Expr) -> list:
    ho, _, src = ctx.log(a, kind)
    reach = ctx.kf.reaching(ctx.loop)
    scope = ctx.kf.dominated(lab)
    mine = [acc for acc in ctx.accesses_of(name, kind) if acc.block in reach]
    inside = [acc for acc in mine if acc.block in scope]
    if not inside:
        return []
    part = ctx.kf.divergent_partition(lab)
    names = part[1] if part is not None else frozenset(il.free_vars(c))
    if any(ctx.kf.stale_at(acc, ctx.loop.header, names, any_group=True) for acc in inside):
        return []  # the log may hold an access made when ``c`` had another value
    cond = ctx.threads.ex(c, 1)
    if len(inside) == len(mine):
        return [("r4", il.implies(ho, cond))]
    return [("r4", il.implies(il.BinOp("&&", ho, ctx.source_in(src, ctx.sources(inside))), cond))]


def log_candidates(ctx: LoopContext, name: str, a, kind: str) -> list[Candidate]:
    """r4 and r6 candidates for one log the loop fills."""
    out = []
    for lab, c in ctx.enclosing_conditions + ctx.inner_conditions:
        out += _scope_candidate(ctx, name, a, kind, lab, c)
    if not ctx.uniform:
        ho = ctx.log(a, kind)[0]
        disabled = il.BinOp("!=", ctx.entry_pc(1), il.IntLit(ctx.facts.lo))
        out.append(("r6", il.implies(disabled, il.implies(ho, il.Var(ghost_name(kind, name, ctx.loop))))))
        same = il.and_all(il.BinOp("==", v, il.Var(entry_name(v, ctx.loop))) for v, _ in _fields(ctx, a, kind))
        out.append(("r6", il.implies(disabled, il.implies(ho, same))))
    return out


def _fields(ctx: LoopContext, a, kind: str) -> list[tuple[il.Var, il.Type]]:
    """The log's variables besides HAS_OCCURRED (``AccessLogs.fields``), with their types."""
    logs = ctx.access_logs
    return [(logs.var(a, kind, w), logs.field_type(a, w)) for w in logs.fields(a, kind)]


def entry_name(v: il.Var, lp: Loop) -> str:
    """The ghost holding log variable ``v`` at entry to ``lp``."""
    return f"{v.name}$entry{lp.header}"


def ghosts(ctx: LoopContext) -> list[tuple[str, il.Type, il.Expr]]:
    """(ghost name, type, log variable) for the logs r6 speaks about: HAS_OCCURRED and the
    other fields."""
    if ctx.uniform:
        return []
    out: list[tuple[str, il.Type, il.Expr]] = []
    for name, a, kind in ctx.logs():
        out.append((ghost_name(kind, name, ctx.loop), il.BOOL, ctx.log(a, kind)[0]))
        out += [(entry_name(v, ctx.loop), ty, v) for v, ty in _fields(ctx, a, kind)]
    return out
