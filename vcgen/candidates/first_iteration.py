"""Rule ``first`` (project rule, in the style of paper 003 appendix A): a loop with a
barrier clears, in its first iteration, the log entries made before it.

The lock-step transformer sets a ``bool`` ghost ``first$<header>`` to ``true`` on entry to
the loop and to ``false`` at the end of each iteration (``ghost``).  At the head:

* per log (``HO``, ``SRC``) the loop fills that may also hold an access from before the
  loop: ``same_group ==> (HO ==> first$<header> || SRC in S)`` where ``S`` are the sources
  of the accesses inside the loop (after one iteration the loop's barrier has reset the
  log, so only accesses of the loop can still be logged; a barrier resets logs only for
  threads of one group); when the loop does not modify the offsets ``O`` of its accesses
  also ``... || SRC in S && OFF in O``;
* per thread, for each counter ``v`` (``v := init`` before the loop, ``v := step`` in
  it): ``first$<header> ==> v == init`` (no iteration has changed it yet).

Together they rule out a pre-loop access at the loop's exit when the guard holds
initially (the loop runs at least once), e.g. a reduction ``for (s = n/2; s > 0; s >>= 1)
{ barrier; ... }`` after ``a[tid] = x``: without them the race report may name the write
before the loop instead of the one in it.
"""
from __future__ import annotations

from .. import il
from ..analysis.loops import Loop
from .context import Candidate, LoopContext

RULES = ("first",)


def ghost_name(lp: Loop) -> str:
    return f"first${lp.header}"


def _split_sources(ctx: LoopContext, name: str, kind: str) -> tuple[list[int], list[int]]:
    """(sources of ``name``/``kind`` accesses before the loop that reach its head, sources
    of those in the loop)."""
    reach = ctx.kf.reaching(ctx.loop)
    accs = [acc for acc in ctx.accesses_of(name, kind) if acc.block in reach]
    inside = ctx.sources(acc for acc in accs if acc.block in ctx.loop.blocks)
    before = ctx.sources(acc for acc in accs if acc.block not in ctx.loop.blocks)
    return [n for n in before if n not in inside], inside


def needed(ctx: LoopContext) -> bool:
    """The loop has a barrier and fills a log that may also hold an access from before it."""
    if not ctx.has_barrier:
        return False
    return any(all(_split_sources(ctx, name, kind)) for name, _, kind in ctx.logs())


def ghost(ctx: LoopContext) -> str | None:
    """The ghost's name when the loop needs it (the lock-step assigns it), else None."""
    return ghost_name(ctx.loop) if needed(ctx) else None


def loop_candidates(ctx: LoopContext) -> list[Candidate]:
    """``first ==> v == init`` per thread, for the loop's counters."""
    if not needed(ctx):
        return []
    first = il.Var(ghost_name(ctx.loop))
    out: list[Candidate] = []
    for v, c in sorted(ctx.counters.items()):
        out += [("first", il.implies(first, e)) for _, e in ctx.per_thread("first", il.BinOp("==", il.Var(v), c.init))]
    return out


def log_candidates(ctx: LoopContext, name: str, a, kind: str) -> list[Candidate]:
    """``same_group ==> (HO ==> first || SRC in S)``, and with the offsets ``O`` of the
    loop's accesses when the loop does not modify them ``... || SRC in S && OFF in O``,
    for a log holding accesses from before and in the loop."""
    if not ctx.has_barrier:
        return []
    before, inside = _split_sources(ctx, name, kind)
    if not (before and inside):
        return []
    ho, off, src = ctx.log(a, kind)
    first = il.Var(ghost_name(ctx.loop))
    after: list[il.Expr] = [ctx.source_in(src, inside)]
    offsets = [acc.offset for acc in ctx.accesses_of(name, kind) if acc.block in ctx.loop.blocks]
    if not any(il.free_vars(o) & ctx.mod for o in offsets):
        ins = il.or_all(il.BinOp("==", off, ctx.threads.ex(o, 1)) for o in dict.fromkeys(offsets))
        after.append(il.BinOp("&&", after[0], ins))
    same = ctx.threads.same_group()
    return [("first", il.implies(same, il.implies(ho, il.BinOp("||", first, e))) if same != il.TRUE
             else il.implies(ho, il.BinOp("||", first, e))) for e in after]
