"""Rule ``res``: residues modulo a symbolic loop stride (or a constant one not a power of
two), without bit-vector division (issue 13; the residue form of paper 003 appendix
A.2/A.10, rules r1 and r10, and paper 000 section 5.3, "access thread id plus strided
offset").

A grid-stride loop ``for (i = gid; i < n; i += S)`` with ``S = blockDim.x * gridDim.x``
(``get_global_size(0)``) under symbolic launch sizes has a stride that is a product of two
unknowns.  r10's ``BV32_UREM(i - gid, S) == 0`` is right but the solver bit-blasts a
32-bit divider with a symbolic divisor, a multiplier and the loop's multiplexers: minutes
per query.  A constant stride that is not a power of two (the same loop under concrete
sizes, 195 x 128 threads) is a divider too, by a constant: 12-59 s per query
(``symbolic_strides``); powers of two are bit masks and stay with r1/r10.  This rule
states the same facts over an uninterpreted function ``RESIDUEw(x, s)`` that stands for
``x urem s`` (``{:residue}``, declared by ``residue_fun``), so that the proofs are
congruence steps:

* candidates, per thread: ``RESIDUEw(v, s) == RESIDUEw(init, s)`` for every additive
  counter ``v := init; ...; v := v + s`` whose stride ``s`` is not a number (or a
  constant not a power of two, ``symbolic_strides``); and on the log of thread 1, for an
  access at offset ``v + rest`` (``rest`` loop-invariant):
  ``HO ==> RESIDUEw(OFF - rest$1, s$1) == RESIDUEw(init$1, s$1)``, and, when the loop
  compares ``v < B`` (``B`` loop-invariant; ``contiguous.counter_bound``), the bound the
  logged counter was below: ``HO ==> BVw_ULT(OFF - rest$1, B$1)``.  The residues alone
  equate the two threads' counters only when their ``rest`` are equal as bit-vectors; a
  pointer argument whose *byte* offset is uniform (``__uniform_int(__ptr_offset_bytes(p))``)
  has element offsets equal only modulo ``2^w / size``, and the bound excludes the other
  representatives (``OFF - rest$1`` is then ``v$2`` plus a multiple of ``2^w / size``);
* facts at the loop head (``head_facts``), per thread, each true of ``x urem s`` for
  every value (SMT-LIB: ``x urem 0 = x``):
  ``v <= v + s ==> RESIDUEw(v + s, s) == RESIDUEw(v, s)`` (a step that does not wrap
  around ``2^w`` keeps the residue) and ``init < s ==> RESIDUEw(init, s) == init``.

Two threads' accesses ``OFF == v$2 + rest`` then give ``RESIDUEw(init$1, s) ==
RESIDUEw(init$2, s)``, hence ``gid$1 == gid$2`` when both ids are below the stride (the
launch's global-id lemmas, ``vcgen.twothread.launch``): same thread.

Soundness: every fact assumed holds when ``RESIDUEw`` is ``bvurem``, so each execution of
the kernel is an execution of the program with the facts, and candidates stay candidates
(Houdini keeps only inductive ones).  A step that wraps around (``i += S`` past ``2^32``:
a real race for a stride that is not a power of two) gets no fact, so its candidate is
not inductive and is dropped.
"""
from __future__ import annotations

from .. import il
from .bvexpr import args_of, fold_literals, is_power_of_two, linear, narrow_offset, op_of
from .context import Candidate, LoopContext
from .contiguous import counter_bound

RULES = ("res",)
RESIDUE_ATTR = "residue"


def residue_fun(ctx: LoopContext, w: int) -> str:
    """Name of ``function {:residue} RESIDUEw(bvw, bvw): bvw`` (uninterpreted: ``x urem s``
    for the interpreter, ``vcgen.interp``), declared in the two-thread program if new."""
    name = f"RESIDUE{w}"
    b = ctx.builder
    if name not in b.declared_functions and name not in b.new_functions:
        t = il.BvType(w)
        b.new_functions[name] = il.FunctionDecl(name, (("", t), ("", t)), t, (il.Attr(RESIDUE_ATTR),))
    return name


def symbolic_strides(ctx: LoopContext) -> dict[str, tuple[il.Expr, il.Expr]]:
    """name -> (init, step) of the loop's additive counters whose step this rule states
    residues by: a step that is not a number once the launch's fixed sizes and pinned
    parameters are substituted, or a number above 1 that is not a power of two and below
    ``2^(w-1)`` (``w`` the counter's width: a negative step wraps at once, where no fact
    applies).  A remainder by a constant that is not a power of two is a divider the
    solver bit-blasts as well: MC_SingleAsianOptionP generatePaths' r10 ``(i - gid) urem
    24960 == 0`` (32-bit, ``gridDim.x * blockDim.x`` at 195 x 128) took 12-59 s per
    one-candidate query, Houdini over 400 s.  Powers of two are bit masks and keep r1/r10."""
    out = {}
    for v, (init, s) in ctx.strides.items():
        k = fold_literals(ctx.concrete_sizes(s))
        w = ctx.counters[v].width
        if not isinstance(k, il.BvLit) or (1 < k.value < 1 << (w - 1) and not is_power_of_two(k.value)):
            out[v] = (init, s)
    return out


def _res(ctx: LoopContext, w: int, x: il.Expr, s: il.Expr) -> il.Expr:
    return il.FunApp(residue_fun(ctx, w), (x, s))


def counters(ctx: LoopContext) -> list[Candidate]:
    """``RESIDUEw(v, s) == RESIDUEw(init, s)`` per thread for each symbolic stride."""
    out: list[Candidate] = []
    for v, (init, s) in symbolic_strides(ctx).items():
        w = ctx.counters[v].width
        out += ctx.per_thread("res", il.BinOp("==", _res(ctx, w, il.Var(v), s), _res(ctx, w, init, s)))
    return out


def accesses(ctx: LoopContext, name: str, a, kind: str) -> list[Candidate]:
    """``HO ==> RESIDUEw(OFF - rest$1, s$1) == RESIDUEw(init$1, s$1)`` for each access of
    the log inside the loop at one-thread offset ``v + rest`` (``v`` a counter with a
    symbolic stride, ``rest`` loop-invariant), seen at the counter's width (a CUDA 64-bit
    offset over a zero- or sign-extended 32-bit index: its low 32 bits); and ``HO ==>
    BVw_ULT(OFF - rest$1, B$1)`` when the loop compares ``v < B`` (module docstring)."""
    strides = symbolic_strides(ctx)
    if not strides:
        return []
    ho, off, _ = ctx.log(a, kind)
    assert isinstance(a.dom, il.BvType)
    th, out = ctx.threads, []
    for acc in ctx.accesses_of(name, kind):
        if acc.block not in ctx.loop.blocks:
            continue
        view, e, w, _ = narrow_offset(off, acc.offset, a.dom.width)
        for v, (init, s) in strides.items():
            if ctx.counters[v].width != w:
                continue
            lin = linear(e, v, w)
            if lin is None or lin.coeff != il.BvLit(1, w) or il.free_vars(lin.rest) & ctx.mod:
                continue
            x = view if lin.rest == il.BvLit(0, w) else ctx.fun("SUB", w, view, th.ex(lin.rest, 1))
            cands = [("res", il.implies(ho, il.BinOp("==", _res(ctx, w, x, th.ex(s, 1)),
                                                     _res(ctx, w, th.ex(init, 1), th.ex(s, 1)))))]
            bound = counter_bound(ctx, v)
            if bound is not None:
                cands.append(("res", il.implies(ho, ctx.fun("ULT", w, x, th.ex(bound, 1)))))
            out += [c for c in cands if c not in out]
    return out


def head_facts(ctx: LoopContext) -> list[il.Assume]:
    """The ``assume``s of the module docstring for each symbolic stride, per thread; true
    of ``bvurem`` for all values, so sound anywhere (``{:residue_fact}``)."""
    out = []
    for v, (init, s) in symbolic_strides(ctx).items():
        w = ctx.counters[v].width
        for t in (1, 2):
            vt, st, it = il.Var(ctx.threads.name(v, t)), ctx.threads.ex(s, t), ctx.threads.ex(init, t)
            nxt = ctx.fun("ADD", w, vt, st)
            step = il.implies(ctx.fun("ULE", w, vt, nxt), il.BinOp("==", _res(ctx, w, nxt, st), _res(ctx, w, vt, st)))
            base = il.implies(ctx.fun("ULT", w, it, st), il.BinOp("==", _res(ctx, w, it, st), it))
            out += [il.Assume(step, (il.Attr("residue_fact"),)), il.Assume(base, (il.Attr("residue_fact"),))]
    return out


def _symbolic_product(ctx: LoopContext, m: il.Expr) -> bool:
    """Is the modulus ``m`` a term over two or more symbolic launch sizes?"""
    sym = {name for name, val in ctx.launch_sizes() if val is None}
    return len(il.free_vars(ctx.concrete_sizes(m)) & sym) >= 2


def superseded(ctx: LoopContext, e: il.Expr) -> bool:
    """A candidate ``e`` that takes a bit-vector ``UREM`` modulo a product of two symbolic
    launch sizes (r1 and r10 on a grid-stride loop), or modulo the symbolic stride of one
    of the loop's counters (``i += get_local_size(0)`` under symbolic sizes, ``path +=
    numSims`` with a kernel parameter under any): this rule states the same residue
    without the divider, which the solver bit-blasts for minutes per query, so such
    candidates are not generated.  Other moduli with one symbolic factor or a kernel
    parameter are kept.  Concrete launches: MC_SingleAsianOptionP computeValue's r10
    ``(path - ZEXT64(i)) urem ZEXT64(numSims) == 0`` (64-bit) took a 12 s joint query
    to its limit and its own query over 160 s (docs/design.md section 6); a stride that
    is a constant not a power of two counts (``symbolic_strides``), compared after
    folding literals (``num_groups_x * group_size_x`` is 24960 at 195 x 128)."""
    strides = {fold_literals(ctx.concrete_sizes(s)) for _, s in symbolic_strides(ctx).values()}
    for x in il.subexprs(e):
        op = op_of(x)
        if op is not None and op[1] == "UREM" and (_symbolic_product(ctx, args_of(x)[1])
                                                   or fold_literals(ctx.concrete_sizes(args_of(x)[1])) in strides):
            return True
    return False


def residue_form(ctx: LoopContext, e: il.Expr) -> il.Expr:
    """A user's candidate ``e`` (``__candidate_invariant(i % stride == tid)``) with each
    ``BVw_UREM(x, m)`` whose modulus is a product of two symbolic launch sizes replaced by
    ``RESIDUEw(x, m)``: the same statement over the uninterpreted residue, which the facts
    at the head (``head_facts``) relate, instead of the divider that ``superseded`` keeps
    out of generated candidates.

    Sound: ``RESIDUEw`` is any function satisfying the facts, ``bvurem`` among them, so a
    candidate Houdini proves inductive for every such function is, at ``bvurem``, the
    user's candidate, inductive; one it cannot prove is dropped like any candidate."""
    def go(x: il.Expr) -> il.Expr | None:
        op = op_of(x)
        # the user's modulus is often a local (stride = gridDim.x * blockDim.x): inlined
        if op is None or op[1] != "UREM" or not _symbolic_product(ctx, ctx.kf.inline(args_of(x)[1])):
            return None
        a, m = args_of(x)
        return _res(ctx, op[0], il.rewrite(a, go), m)
    return il.rewrite(e, go)
