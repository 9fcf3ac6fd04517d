"""Rules r1 (accessedOffsetsSatisfyPredicates) and r10 (loopCounterIsStrided), paper 003
appendix A.2 and A.10; paper 000 section 5.3 ("access thread id plus strided offset",
with and without strength reduction).

* r10, per thread: a counter ``v := init`` before the loop and ``v := v + s`` in it (``s``
  loop-invariant, not 1): ``BVW_UREM(BVW_SUB(v, init), s) == 0bvW``.
* r1, on the log of thread 1 (``HO`` = ``_K_HAS_OCCURRED_A``, ``OFF`` = ``_K_OFFSET_A``):
  for an access at one-thread offset ``e`` inside the loop, for every loop-modified ``x``
  with ``e == c * x + rest`` (``c``, ``rest`` loop-invariant):
  ``HO ==> BVW_UREM(BVW_SUB(OFF, rest$1), c$1) == 0bvW``; if ``x`` is an additive counter
  from ``x0`` by ``s``: the same modulo ``c * s`` around ``e[x := x0]``; and modulo the
  largest power of two dividing every literal coefficient of the modified atoms; and,
  through counters of nested loops started from an enclosing counter
  (``for (i = lo; ...; i += s) for (j = i; ...; j += s)``), modulo the common stride
  once every counter is replaced by its initial value, repeatedly (``chained_residue``:
  ``j + lid`` is ``lid`` modulo ``s``); and at a nested head, the residues the enclosing
  loops' heads state for their own accesses (``enclosing_accesses``).  A
  64-bit offset extending a narrower index (CUDA) gets the candidates on ``OFF[w:0]`` at
  the index width, plus ``OFF[64:w] == 0bv(64-w)`` for zero extension.  Offsets wider
  than ``DIVIDER_WIDTH`` get no residue modulo a constant that is not a power of two.
"""
from __future__ import annotations

from math import gcd

from .. import il
from .bvexpr import args_of, atoms, common_stride, fold, fold_literals, is_power_of_two, linear, low_bits, narrow_offset, op_of, replace
from .context import Candidate, LoopContext

RULES = ("r1", "r10")

# Widest offset that gets r1 residues modulo a constant other than a power of two.  At the
# head the residue is checked on the log update ``ite(logged, new, OFF)``: bit-blasted, a
# division of that multiplexer, which neither z3 nor yices decides within 60 s at 64 bits
# (``(ite(c, 17 * y + t, O) - t) urem 17`` with ``y, t`` 32-bit zero-extended), and which
# makes every Houdini round of the loop time out.  Powers of two are bit masks, and a
# 64-bit offset that extends a narrower index gets its residues at the index's width.
DIVIDER_WIDTH = 32


def counters(ctx: LoopContext) -> list[Candidate]:
    """r10 candidates for additive counters with a stride other than 1; none for a
    counter wider than ``DIVIDER_WIDTH`` whose stride is a constant not a power of two
    (as r1's offsets): MC_SingleAsianOptionP generatePaths' 64-bit pointer ``output +=
    numSims`` (``numSims`` pinned to 100000) had ``(output - ZEXT64(i)) urem 100000 ==
    0``, one-candidate queries over 10 s each, Houdini over 240 s.  Rule ``res`` states
    remainders by such strides, at any width (``symbolic_stride.superseded`` drops this
    rule's candidates modulo them)."""
    out = []
    for v, (init, s) in ctx.strides.items():
        w = ctx.counters[v].width
        if w > DIVIDER_WIDTH and _literal_not_power_of_two(ctx, s):
            continue
        if s != il.BvLit(1, w):
            residue = ctx.fun("UREM", w, ctx.fun("SUB", w, il.Var(v), init), s)
            out += ctx.per_thread("r10", il.BinOp("==", residue, il.BvLit(0, w)))
    return out


def access(ctx: LoopContext, ho: il.Expr, off: il.Expr, e: il.Expr, dom_width: int) -> list[Candidate]:
    """r1 candidates for one access at inlined one-thread offset ``e`` (``dom_width`` bits)."""
    th = ctx.threads
    narrow, e2, w, zext = narrow_offset(off, e, dom_width)
    if w != dom_width:
        extra = [("r1", il.implies(ho, il.BinOp("==", il.BvExtract(off, dom_width, w),
                                                 il.BvLit(0, dom_width - w))))] if zext else []
        return extra + access(ctx, ho, narrow, e2, w)
    pairs = residue_pairs(ctx, e, w)
    if w > DIVIDER_WIDTH:
        pairs = [(m, b) for m, b in pairs if not _literal_not_power_of_two(ctx, m)]
    views = [(off, w, e, pairs)]
    narrow, e2, w2, _ = narrow_offset(off, e, w, mixed=True)
    if w2 != w:
        # ZEXT64(x) + SEXT64(y * width), SEXT64((r + i) * n) * 2: residues modulo powers of
        # two of the low bits, when none at full width is as strong (a power-of-two modulus
        # of the low bits is one of the whole offset)
        moduli = [_literal(ctx, m) for m, _ in pairs]
        full = max((k for k in moduli if k), default=0)
        low = [(m, b) for m, b in residue_pairs(ctx, e2, w2)
               if all(moduli) and _power_of_two(ctx, m) and (_literal(ctx, m) or 0) > full]
        views.append((narrow, w2, e2, low))
    out: list[Candidate] = []
    for view, width, expr, pairs in views:
        for m, base in pairs:
            residue = ctx.fun("UREM", width, ctx.fun("SUB", width, view, th.ex(base, 1)), th.ex(m, 1))
            cand = ("r1", il.implies(ho, il.BinOp("==", residue, il.BvLit(0, width))))
            if cand not in out:
                out.append(cand)
        out += [c for c in field_band(ctx, ho, view, expr, width, pow2=view is not off) if c not in out]
    return out


def field_band(ctx: LoopContext, ho: il.Expr, off: il.Expr, e: il.Expr, w: int, pow2: bool) -> list[Candidate]:
    """r1 for a field of an array element, ``e == E + k`` where every term of ``E`` is a
    multiple of the power of two ``c > k > 0`` (the second float of a ``float2``, a member
    of a struct in an array of structs, a field at byte ``k`` of a row ``y * pitch + x *
    8``): the element's residue ``E - base`` modulo ``m`` (a multiple of ``c``) is exact
    for the field at ``k == 0`` only, so the candidate every field of the element
    satisfies is ``HO ==> BVw_ULT(BVw_UREM(BVw_SUB(OFF, base$1), m$1), c)``.  ``pow2``:
    ``OFF`` is the low bits of a wider offset, where only power-of-two moduli are
    residues."""
    elem, lit = args_of(e) if op_of(e) == (w, "ADD") else (None, None)
    if elem is None or not isinstance(lit, il.BvLit):
        return []
    k = lit.value
    conc = fold_literals(ctx.concrete_sizes(elem))
    c = common_stride(conc, atoms(conc, il.free_vars(conc), w), w).multiple
    if not 0 < k < c:
        return []
    out = []
    for m, base in residue_pairs(ctx, elem, w):
        mv = _literal(ctx, m)
        if mv is None or mv <= c or mv % c or ((pow2 or w > DIVIDER_WIDTH) and not is_power_of_two(mv)):
            continue
        residue = ctx.fun("UREM", w, ctx.fun("SUB", w, off, ctx.threads.ex(base, 1)), ctx.threads.ex(m, 1))
        out.append(("r1", il.implies(ho, ctx.fun("ULT", w, residue, il.BvLit(c, w)))))
    return out


def _literal(ctx: LoopContext, m: il.Expr) -> int | None:
    k = fold_literals(ctx.concrete_sizes(m))
    return k.value if isinstance(k, il.BvLit) else None


def _literal_not_power_of_two(ctx: LoopContext, m: il.Expr) -> bool:
    k = _literal(ctx, m)
    return k is not None and not is_power_of_two(k)


def _power_of_two(ctx: LoopContext, m: il.Expr) -> bool:
    k = _literal(ctx, m)
    return k is not None and is_power_of_two(k)


def residue_pairs(ctx: LoopContext, e: il.Expr, w: int) -> list[tuple[il.Expr, il.Expr]]:
    """The (modulus, base) pairs of r1 for one-thread offset ``e`` (``w`` bits): ``e - base``
    is a multiple of the modulus at every iteration."""
    mod = ctx.mod
    if isinstance(e, il.BvExtract) and e.lo == 0 and e.hi == w:
        e = low_bits(e.operand, w)  # a wider (``long``) index truncated to the offset width
    pairs: list[tuple[il.Expr, il.Expr]] = []  # (modulus, base): OFF - base$1 is a multiple of it
    atom_list = atoms(e, mod, w)
    multiple, rest0 = common_stride(e, atom_list, w)
    if multiple > 1 and not (il.free_vars(rest0) & mod):
        pairs.append((il.BvLit(multiple, w), rest0))
    for atom in atom_list:
        x = atom.name if isinstance(atom, il.Var) else "$$atom"
        t = ctx.info.local_types.get(x)
        if isinstance(atom, il.Var) and (not isinstance(t, il.BvType) or t.width != w):
            continue
        lin = linear(replace(e, atom, il.Var(x)), x, w)
        if lin is None or il.free_vars(lin[0]) & mod or il.free_vars(lin[1]) & mod:
            continue
        c, rest = lin
        moduli = [] if c in (il.BvLit(0, w), il.BvLit(1, w)) else [(c, rest)]
        if isinstance(atom, il.Var) and (x in ctx.strides or x in ctx.nested_strides):
            init, step = ctx.strides[x] if x in ctx.strides else ctx.nested_strides[x]
            moduli.append((fold("MUL", w, c, step), il.substitute(e, {x: init})))
        else:
            k = ctx.concrete_sizes(c)  # a literal, a launch size, a pinned parameter
            if isinstance(k, il.BvLit):
                moduli += extended_counter_moduli(ctx, atom, k.value, e, w)
                moduli += truncated_counter_moduli(ctx, atom, k.value, e, w)
        pairs += [(m, base) for m, base in moduli if m not in (il.BvLit(0, w), il.BvLit(1, w))]
    chained = chained_residue(ctx, e, w)
    if chained is not None:
        pairs.append(chained)
    return pairs


def _common_modulus(ctx: LoopContext, a: il.Expr | None, b: il.Expr, w: int) -> il.Expr | None:
    if a is None:
        return b
    a2, b2 = ctx.concrete_sizes(a), ctx.concrete_sizes(b)
    if isinstance(a2, il.BvLit) and isinstance(b2, il.BvLit):
        return il.BvLit(gcd(a2.value, b2.value), w)
    return a if a2 == b2 else None


def chained_residue(ctx: LoopContext, e: il.Expr, w: int) -> tuple[il.Expr, il.Expr] | None:
    """``(m, base)`` with ``e == base (mod m)`` whenever the loop's and its nested loops'
    additive counters hold values reached from their initial values by their steps:
    every modified variable of ``e`` is such a counter, replaced by its initial value
    (which may name an enclosing counter, replaced in turn), ``m`` the common stride of
    the replaced terms.  None when some modified variable is not a counter, ``e`` is not
    linear in it, or the strides have no common modulus above 1."""
    strides = {**ctx.restarted_strides, **ctx.nested_strides, **ctx.strides}
    m: il.Expr | None = None
    cur = e
    for _ in range(8):
        free = sorted(il.free_vars(cur) & ctx.mod)
        if not free:
            break
        x = free[0]
        lin = linear(cur, x, w) if x in strides else None
        if lin is None or il.free_vars(lin.coeff) & ctx.mod:
            return None
        init, step = strides[x]
        m = _common_modulus(ctx, m, fold("MUL", w, lin.coeff, step), w)
        if m is None:
            return None
        cur = il.substitute(cur, {x: init})
    if il.free_vars(cur) & ctx.mod or m is None or ctx.concrete_sizes(m) in (il.BvLit(0, w), il.BvLit(1, w)):
        return None
    return m, cur


def extended_counter_moduli(ctx: LoopContext, atom: il.Expr, c: int, e: il.Expr, w: int) -> list[tuple]:
    """``(modulus, base)`` pairs for an atom that widens an index holding an additive
    counter, ``c * EXT(k * x + r)`` (a 2-D array ``tile[ty + i][tx]`` indexed at 64 bits):
    ``OFF - e[x := init]`` is ``c * (EXT(k * x + r) - EXT(k * init + r))``, a multiple of
    ``c * k * step`` modulo ``2**w`` whether or not the narrow sum wraps (the wrap adds
    ``c * 2**n``, a multiple of every power-of-two modulus up to ``c * 2**n``), so the
    candidate is the r1 residue with that modulus.  Literal ``k`` and step only."""
    op = op_of(atom)
    if op is None or op[1] not in (f"ZEXT{w}", f"SEXT{w}") or len(args_of(atom)) != 1:
        return []
    inner, n = args_of(atom)[0], op[0]
    out = []
    for x in sorted(il.free_vars(inner) & set(ctx.strides)):
        init, step = ctx.strides[x]
        lin = linear(inner, x, n)
        if lin is None or not isinstance(lin[0], il.BvLit) or not isinstance(step, il.BvLit) \
                or il.free_vars(lin[1]) & ctx.mod:
            continue
        m = (c * ((lin[0].value * step.value) % (1 << n))) % (1 << w)
        if is_power_of_two(m) and m <= c << n:  # a power of two the wrap keeps
            out.append((il.BvLit(m, w), il.substitute(e, {x: init})))
    return out


def truncated_counter_moduli(ctx: LoopContext, atom: il.Expr, c: int, e: il.Expr, w: int) -> list[tuple]:
    """``(modulus, base)`` for an atom ``x[w:0]`` that truncates a wider additive counter
    ``x`` (from ``init`` by ``step``): ``x[w:0] - init[w:0]`` is a multiple of
    ``step[w:0]`` modulo ``2**w`` when that is a power of two, so ``OFF - e[x := init]`` is
    a multiple of ``c * step[w:0]`` (r1)."""
    if not (isinstance(atom, il.BvExtract) and atom.lo == 0 and atom.hi == w and isinstance(atom.operand, il.Var)):
        return []
    x = atom.operand.name
    init, step = ctx.strides.get(x) or ctx.nested_strides.get(x) or (None, None)
    if not isinstance(step, il.BvLit):
        return []
    m = (c * step.value) % (1 << w)
    if not is_power_of_two(m):
        return []
    return [(il.BvLit(m, w), low_bits(il.substitute(e, {x: init}), w))]


def mixed_sources(ctx: LoopContext, name: str, kind: str) -> tuple[list[int], list[int]] | None:
    """``(before, inside)`` source numbers when the log of (``name``, ``kind``) at this head
    may hold an access from before the loop (a block reaching the head outside the loop)
    as well as the loop's own accesses; None otherwise."""
    reach = ctx.kf.reaching(ctx.loop)
    accs = [acc for acc in ctx.accesses_of(name, kind) if acc.block in reach]
    inside = ctx.sources(acc for acc in accs if acc.block in ctx.loop.blocks)
    before = ctx.sources(acc for acc in accs if acc.block not in ctx.loop.blocks)
    return (before, inside) if before and inside else None


def enclosing_accesses(ctx: LoopContext, name: str, kind: str, ho: il.Expr, off: il.Expr,
                       w: int) -> list[Candidate]:
    """r1 at a nested loop's head for the accesses of its enclosing loops: the log there can
    hold an entry from an earlier iteration of an enclosing loop, whose offset moves with
    that loop's counters, not this loop's (``A[i * n + tid]`` inside ``for j``, nested in
    ``for i``): the residue the enclosing head's r1 states (over variables this loop does
    not modify) is a candidate here too (project extension of paper 003 appendix A.2)."""
    out: list[Candidate] = []
    lp = ctx.loop.parent
    while lp is not None:
        outer = ctx.kf.loop_context(lp)
        for acc in ctx.accesses_of(name, kind):
            if acc.block in lp.blocks and acc.offset_vars & outer.mod:
                out += [c for c in access(outer, ho, off, acc.offset, w)
                        if c not in out and not (il.free_vars(c[1]) & ctx.mod)]
        lp = lp.parent
    return out


def accesses(ctx: LoopContext, name: str, a, kind: str) -> list[Candidate]:
    """r1 candidates for the accesses of one log whose offsets the loop modifies."""
    ho, off, _ = ctx.log(a, kind)
    out: list[Candidate] = []
    if not isinstance(a.dom, il.BvType):
        return out
    for acc in ctx.accesses_of(name, kind):
        if acc.offset_vars & ctx.mod:
            out += access(ctx, ho, off, acc.offset, a.dom.width)
    out += [c for c in enclosing_accesses(ctx, name, kind, ho, off, a.dom.width) if c not in out]
    mixed = mixed_sources(ctx, name, kind)
    if out and mixed:
        # the log may also hold an access made before the loop (at another offset): the
        # residues are stated for the loop's own sources; rule ``id`` covers the others
        cond = ctx.source_in(ctx.log(a, kind)[2], mixed[1])
        out += [(rule, il.implies(ho, il.implies(cond, e.right)))
                for rule, e in out if isinstance(e, il.BinOp) and e.op == "==>" and e.left == ho]
    if a.space == "group_shared":
        # only threads of one group race on it, and only for them a barrier empties the
        # log: threads of two groups may enter a loop nested in a barrier loop with any
        # earlier offset logged, which would refute the candidate for everyone
        same = ctx.threads.same_group()
        out = [(rule, il.implies(same, e)) for rule, e in out]
    return out
