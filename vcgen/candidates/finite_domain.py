"""Rule ``fd`` (finite domain): variables that only ever hold one of a few literals.

NOT one of paper 003's 19 rules (appendix A): an extension in the spirit of paper 003
section 4 (a syntactic guess, refuted by Houdini when wrong), made for pointers.  Paper 000
section 5.1 ("Modeling Pointers") represents a pointer as a (base array, offset) pair and a
dereference as a case split over the possible bases ending in ``assert false`` (null or
uninitialised); it notes such loops "require loop invariants that narrow down the
permissible arrays".  Our bugle keeps the base in an ``int`` local ``$p$base`` (array
number, 0 = null; ``bugle/translate.py``).  After loop cutting nothing bounds a base that
the loop swaps (ping-pong buffers: ``t = src; src = dst; dst = t;``), so every
dereference would look like a possible null access and the two buffers could alias.

Domain analysis (one-thread kernel, flow-insensitive): a local of type ``int`` or ``bvW``
has a finite domain when every assignment to it gives a literal, a copy of another such
local, or an ``if c then a else b`` of those (bugle's pointer ``select``); domains are closed
over copies (the swap ``src, dst := dst, src`` keeps both in the union of their initial
values).  Havocs, call results and any other expression make the domain unknown.  Offsets
of pointers into one array (``src = buf; dst = buf + 64``) have no ``$base`` and are such
``bvW`` locals.  Candidates at a loop head, for the loop-modified variables with a domain
(one copy per thread where duplicated):

* membership: ``v == k1 || v == k2 || ...`` (one literal: ``v == k``);
* distinct buffers: ``v != w`` for two variables of one type with the same domain of at
  least two values (the write ``dst[i]`` and the reads ``src[j]`` of one iteration hit
  different arrays, or different halves of one array);
* uniformity: ``v$1 == v$2`` for a duplicated ``int`` variable, predicated on both
  threads being at the head when the loop is not uniform (rule r16 covers ``bvW``).
"""
from __future__ import annotations

from itertools import combinations
from .. import il
from ..twothread.kernel import KernelInfo
from .context import Candidate, LoopContext

RULES = ("fd",)
MAX_VALUES = 8  # larger literal sets are not pointer bases (a switch-like counter, say)
MAX_PAIRS = 16  # distinctness candidates per loop


def _is_lit(e: il.Expr) -> bool:
    return isinstance(e, (il.IntLit, il.BvLit))


def _sources(e: il.Expr, locals_: set) -> list | None:
    """Literals and copied locals ``e`` may evaluate to, or None when it may be anything else."""
    if _is_lit(e) or (isinstance(e, il.Var) and e.name in locals_):
        return [e]
    if isinstance(e, il.IfThenElse):
        a, b = _sources(e.then, locals_), _sources(e.els, locals_)
        return None if a is None or b is None else a + b
    return None


def _candidate_vars(info: KernelInfo) -> set[str]:
    """The ``int`` and ``bvW`` locals (bool ones are finite anyway; maps are memory)."""
    return {v for v, t in info.local_types.items() if isinstance(t, (il.IntType, il.BvType))}


def domains(info: KernelInfo) -> dict[str, frozenset[il.Expr]]:
    """name -> frozenset of literals (``IntLit``/``BvLit``) for the locals of the one-thread
    kernel ``info.kernel`` whose every assignment yields one of those literals (see module doc).
    Only ``info.kernel`` and ``info.local_types`` are used."""
    cands = _candidate_vars(info)
    srcs: dict = {v: [] for v in cands}
    for b in info.kernel.body():
        for c in b.cmds:
            if isinstance(c, il.Assign):
                pairs = [(l.name, r) for l, r in zip(c.lhss, c.rhss) if isinstance(l, il.VarLhs)]
            else:
                pairs = [(n, None) for n in il.cmd_writes(c)]
            for n, r in pairs:
                if n in srcs and srcs[n] is not None:
                    s = None if r is None else _sources(r, cands)
                    srcs[n] = None if s is None else srcs[n] + s
    dom: dict[str, set[il.Expr]] = {v: set() for v, s in srcs.items() if s is not None and s}
    changed = True
    while changed:  # least fixpoint; a copy of an unknown variable is unknown
        changed = False
        for v in list(dom):
            new: set[il.Expr] = set()
            known = True
            for s in srcs[v]:
                if _is_lit(s):
                    new.add(s)
                elif isinstance(s, il.Var) and s.name in dom:
                    new |= dom[s.name]
                else:
                    known = False
                    break
            if not known or len(new) > MAX_VALUES:
                del dom[v]
                changed = True
            elif new != dom[v]:
                dom[v] = new
                changed = True
    return {v: frozenset(d) for v, d in dom.items() if d}


def _live_at_head(ctx: LoopContext, v: str) -> bool:
    """Not an SSA temporary of the loop used only inside it (recomputed before any use)."""
    return v not in ctx.kf.defs or v in ctx.read_outside


def _order(lit: il.Expr) -> int:
    assert isinstance(lit, (il.IntLit, il.BvLit))
    return lit.value


def candidates(ctx: LoopContext) -> list[Candidate]:
    """fd candidates (membership, distinct bases, uniform bases) at the head of ``ctx.loop``."""
    dom = {v: d for v, d in ctx.kf.domains.items() if v in ctx.mod and _live_at_head(ctx, v)}
    out: list = []
    for v in sorted(dom):
        lits = sorted(dom[v], key=_order)
        out += ctx.per_thread("fd", il.or_all(il.BinOp("==", il.Var(v), k) for k in lits))
    multi = [v for v in sorted(dom) if len(dom[v]) > 1]
    pairs = [(v, w) for v, w in combinations(multi, 2) if dom[v] == dom[w]][:MAX_PAIRS]
    for v, w in pairs:
        out += ctx.per_thread("fd", il.BinOp("!=", il.Var(v), il.Var(w)))
    both = il.BinOp("&&", ctx.at_head(1), ctx.at_head(2))
    for v in multi:
        if isinstance(ctx.info.local_types[v], il.IntType) and ctx.threads.is_dup(v):
            eq = il.BinOp("==", il.Var(ctx.threads.name(v, 1)), il.Var(ctx.threads.name(v, 2)))
            out.append(("fd", eq if ctx.uniform else il.implies(both, eq)))
    return out
