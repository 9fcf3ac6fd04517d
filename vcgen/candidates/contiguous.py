"""Rules r2 (accessLowerBoundBlock) and r3 (accessUpperBoundBlock), paper 003 appendix
A.3: a group of threads is assigned a contiguous range of an array; and rule ``range``
(an extension in the same form): one thread is assigned a contiguous range by its loop.

Pattern: an access inside the loop at one-thread offset (``bvW`` after peeling a zero/sign
extension) ``e == sum(a_i * x_i) + c * g + r`` with ``x_i`` loop-modified atoms, ``g`` a
``group_id_*``, ``c`` loop-invariant and *not* a literal (literal block sizes are r0's
``OFF / c == g``), ``r`` loop-invariant; only for global arrays (group-shared ones never
race across groups).  With ``L = c * g + r`` (one-thread, thread 1):

* r2: ``HO ==> BVW_ULE(L$1, OFF)``;
* r3: ``HO ==> BVW_ULT(OFF, BVW_ADD(L$1, c$1))``.

Rule ``range``, the range one thread covers in a loop (``for (p = 0; p < lb; p++)
v[(row0 + p) * width + col]``: rows ``row0 .. row0 + lb - 1`` per thread; with the
column's r1 residue two threads' ranges separate them): an access linear in one modified
atom, a counter ``x`` from ``x0`` by 1 with a guard ``x < B`` (``x <= B``: ``B + 1``),
``e == c * x + r``, ``L = e[x := x0]`` (any array; group-shared ones for two threads of
one group only, as r1):

* ``HO ==> BVW_ULE(L$1, OFF)`` and
  ``HO ==> BVW_ULT(OFF, BVW_ADD(L$1, BVW_MUL(c$1, BVW_SUB(B$1, x0$1))))``.
"""
from __future__ import annotations

from .. import il
from .bvexpr import bv_op, atoms, linear, linear_terms, narrow_offset
from .context import Candidate, LoopContext

RULES = ("r2", "r3", "range")


def block_range(ctx: LoopContext, ho: il.Expr, off: il.Expr, e: il.Expr, width: int) -> list[Candidate]:
    off, e, w, _ = narrow_offset(off, e, width, mixed=True)
    loop_atoms = atoms(e, ctx.mod, w)
    lt = linear_terms(e, loop_atoms, w) if loop_atoms else None
    if lt is None or il.free_vars(lt[1]) & ctx.mod or any(il.free_vars(c) & ctx.mod for c in lt[0]):
        return []
    low = lt[1]
    out = []
    for g in (f"group_id_{d}" for d in "xyz"):
        lin = linear(low, g, w) if g in il.free_vars(low) else None
        if lin is None or isinstance(lin[0], il.BvLit) or g in il.free_vars(lin[0]):
            continue
        lo1, c1 = ctx.threads.ex(low, 1), ctx.threads.ex(lin[0], 1)
        out.append(("r2", il.implies(ho, ctx.fun("ULE", w, lo1, off))))
        out.append(("r3", il.implies(ho, ctx.fun("ULT", w, off, ctx.fun("ADD", w, lo1, c1)))))
    return out


def counter_bound(ctx: LoopContext, x: str) -> il.Expr | None:
    """``B`` with ``x < B`` where the loop's accesses run, from the first comparison of ``x``
    with a loop-invariant ``E`` in a branch of the loop: ``x < E`` gives ``E``, ``x <= E``
    gives ``E + 1`` (signed or unsigned; a guess for Houdini, like every candidate); None
    without one."""
    for g in ctx.guards():
        w, op = bv_op(g.name) or (0, "")
        a, b = g.args
        if a == il.Var(x) and not il.free_vars(b) & ctx.mod and op in ("SLT", "ULT", "SLE", "ULE"):
            return b if op.endswith("LT") else ctx.fun("ADD", w, b, il.BvLit(1, w))
    return None


def counter_range(ctx: LoopContext, ho: il.Expr, off: il.Expr, e: il.Expr, width: int) -> list[Candidate]:
    """Rule ``range``: the range one thread's accesses cover as its counter runs (module doc)."""
    off, e, w, _ = narrow_offset(off, e, width, mixed=True)
    loop_atoms = atoms(e, ctx.mod, w)
    if len(loop_atoms) != 1 or not isinstance(loop_atoms[0], il.Var):
        return []
    x = loop_atoms[0].name
    if x not in ctx.strides or ctx.strides[x][1] != il.BvLit(1, w):
        return []
    init = ctx.strides[x][0]
    lin = linear(e, x, w)
    bound = counter_bound(ctx, x)
    if lin is None or bound is None or il.free_vars(lin.coeff) & ctx.mod or il.free_vars(init) & ctx.mod:
        return []
    th = ctx.threads
    low = th.ex(il.substitute(e, {x: init}), 1)
    span = ctx.fun("MUL", w, th.ex(lin.coeff, 1), th.ex(ctx.fun("SUB", w, bound, init), 1))
    return [("range", il.implies(ho, ctx.fun("ULE", w, low, off))),
            ("range", il.implies(ho, ctx.fun("ULT", w, off, ctx.fun("ADD", w, low, span))))]


def log_candidates(ctx: LoopContext, name: str, a, kind: str) -> list[Candidate]:
    if not isinstance(a.dom, il.BvType):
        return []
    ho, off, _ = ctx.log(a, kind)
    out: list[Candidate] = []
    for acc in ctx.accesses_of(name, kind):
        if acc.block in ctx.loop.blocks and acc.offset_vars & ctx.mod:
            if a.space == "global":  # group-shared: no inter-group races
                out += block_range(ctx, ho, off, acc.offset, a.dom.width)
            out += [c for c in counter_range(ctx, ho, off, acc.offset, a.dom.width) if c not in out]
    if a.space == "group_shared":
        # as for r1 (strided.accesses): threads of two groups may enter a loop nested in a
        # barrier loop with any earlier offset logged
        same = ctx.threads.same_group()
        out = [(rule, il.implies(same, e)) for rule, e in out]
    return out
