"""Cancellation lemmas for the two threads' products with a shared factor, and remainder
lemmas for the annotations that take a remainder of an access log's offset.

An access ``out[gid * stride]`` with a symbolic ``stride`` (a kernel argument, or a
symbolic launch size) is race-free because the product is injective in ``gid`` where it
does not wrap.  For the solver that is a bit-level proof about two multipliers (``gid$1 *
stride == gid$2 * stride`` with ``gid$1 != gid$2``): z3 and yices take minutes on it even
when ``gid < 2^20`` and ``stride <= 1024`` are known.  Given the lemma instance below,
both answer in milliseconds: what remains is a no-overflow check on bounded operands.

For each product ``MUL(x, u)`` in a command of the kernel whose factor ``u`` is the same
expression in both threads (thread-uniform, not a literal) and whose ``x`` is not, the
lock-step program assumes, before the command, the cancellation lemma

    x$1 * u == x$2 * u && u != 0 && nowrap(x$1, u) && nowrap(x$2, u)  ==>  x$1 == x$2

where ``nowrap(x, u)`` says that the product of the zero-extended operands fits in the
operands' width (the upper half of the ``2w``-bit product is zero).  For each sum ``p + x``
(either order) whose ``p`` is such a product ``q * u`` -- or a variable the kernel assigns
such a product -- it assumes the division lemma

    x$1 < u && x$2 < u && nowrap(q$1 * u + x$1) && nowrap(q$2 * u + x$2)
      && (p$t == q$t * u for a variable p) && s$1 == s$2  ==>  q$1 == q$2 && x$1 == x$2

(``s$t``: the sum as the kernel writes it): ``A[row * n + col]`` with ``col < n``.  Both
lemmas are valid for every value of their variables (equal products below ``2^w`` of a
common non-zero factor have equal cofactors; a number below ``2^w`` has one quotient and
one remainder), so assuming them is sound anywhere -- a variable's definition is part of
the premise, not assumed -- and when a premise cannot be shown the lemma is unused.
Products by literals are left alone (linear: the solvers handle them), and so are products
by a group size or group count: the global id ``group_id * group_size + local_id`` has
the launch's own lemmas (``launch.global_id_lemmas``), or a number for the size.  The
two-thread reduction they serve is paper 000, section 4; the facts are arithmetic.

The division lemma needs ``q * u + x`` not to wrap.  For the row-major index of a grid,
``get_global_id(1) * get_global_size(0) + get_global_id(0)``, that follows from the
launch -- the global id of one dimension is below its global size, the other's below the
global size ``u`` it is multiplied by, and a symbolic launch has at most ``N <= 2^32``
work items in all (``launch.buffer_limit``) -- but only through a product of symbolic
sizes, a bit-level proof the solver does not find (over 300 s on a plain 2-D copy).  So
such a sum also gets the grid lemma (``grid_nowrap_lemma``), before the division lemma:

    q$t == gid_e$t && u == group_size_d * num_groups_d && x$t < u  ==>  nowrap(q$t * u + x$t)

(``d != e``; the definitions of the kernel's variables, ``p$t == q$t * u``, in the premise
too).  Valid under the launch axioms whenever the global sizes multiply to at most 2^32:
``q * u + x <= (G_e - 1) * G_d + G_d - 1 < G_e * G_d``.  Without such a bound (CUDA: 64-bit
pointers) the index can wrap and no lemma is given.

An annotation ``(__write_offset_bytes(A) / 4) % width == col`` (a function-wide invariant;
``L % M`` or ``(L * c / c) % M`` of a log offset ``L``, ``M`` thread-uniform) meets each
access ``A[q * u + x]`` with ``u`` thread-uniform in a ``RemainderLemmas`` instance

    s == q * u + x (the kernel's definitions) && M == u && x < u && fits(q, u)
      ==>  R(s) == x

(``remainder_lemma``; ``fits`` compares ``q`` and ``u`` with numbers only, so the
solver need not bound a product): on the offset of each logged access of thread 1, and on
the log itself at each race check of thread 2's access (``L == s`` in the premise), where
the log's remainder is also named and that name split over the log's updates
(docs/design.md section 5.1).  Valid for every value, like the others.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Callable

from .. import il
from ..candidates.bvexpr import args_of, op_of
from .builder import ProgramBuilder
from .kernel import DIMS
from .launch import division_lemma, global_id
from .threads import THREADS, Threads

_LAUNCH_SIZE = re.compile(r"^(group_size|num_groups)_[xyz]$")
_ZEXT = re.compile(r"^BV(\d+)_ZEXT\d+$")


def _binary(e: il.Expr, op: str) -> tuple[int, il.Expr, il.Expr] | None:
    """``(w, a, b)`` when ``e`` is ``BV<w>_<op>(a, b)``."""
    wop, args = op_of(e), args_of(e)
    if wop is None or wop[1] != op or len(args) != 2:
        return None
    return wop[0], args[0], args[1]


def _nowrap(builder: ProgramBuilder, w: int, q: il.Expr, u: il.Expr, x: il.Expr | None = None) -> il.Expr:
    """``q * u (+ x)`` does not wrap at ``w`` bits: the upper ``w`` bits of the ``2w``-bit
    result on the zero-extended operands are zero."""
    zext = builder.zext(w, 2 * w)
    wide = il.FunApp(builder.bvfun("MUL", 2 * w), (il.FunApp(zext, (q,)), il.FunApp(zext, (u,))))
    if x is not None:
        wide = il.FunApp(builder.bvfun("ADD", 2 * w), (wide, il.FunApp(zext, (x,))))
    return il.BinOp("==", il.BvExtract(wide, 2 * w, w), il.BvLit(0, w))


def cancellation_lemma(builder: ProgramBuilder, w: int, x: tuple[il.Expr, il.Expr], u: il.Expr) -> il.Expr:
    """``x1 * u == x2 * u && u != 0 && nowrap(x1, u) && nowrap(x2, u) ==> x1 == x2`` over
    ``w``-bit vectors (module docstring); ``x`` holds thread 1's and thread 2's cofactor."""
    mul = builder.bvfun("MUL", w)
    premise = il.and_all([il.BinOp("==", il.FunApp(mul, (x[0], u)), il.FunApp(mul, (x[1], u))),
                          il.BinOp("!=", u, il.BvLit(0, w)),
                          _nowrap(builder, w, x[0], u), _nowrap(builder, w, x[1], u)])
    return il.implies(premise, il.BinOp("==", x[0], x[1]))


def bounded_division_lemma(builder: ProgramBuilder, w: int, sums: tuple[il.Expr, il.Expr],
                           q: tuple[il.Expr, il.Expr], u: il.Expr, x: tuple[il.Expr, il.Expr],
                           defs: tuple[il.Expr, ...] = ()) -> il.Expr:
    """``launch.division_lemma`` with its validity condition in the premise: ``x1 < u && x2
    < u && nowrap(q1 * u + x1) && nowrap(q2 * u + x2) && defs && s1 == s2 ==> q1 == q2 &&
    x1 == x2`` over ``w``-bit vectors (module docstring): ``sums`` are the two threads'
    sums ``q_t * u + x_t`` in the kernel's own form, ``defs`` equations that make them so
    (a variable equal to its product).  Valid for every value."""
    nowrap = (_nowrap(builder, w, q[0], u, x[0]), _nowrap(builder, w, q[1], u, x[1]))
    return division_lemma(builder, q, u, x, w, sums=sums, premises=nowrap + defs)


class ProductLemmas:
    """The lemmas (module docstring) of the commands of one kernel, over the two-thread
    names of ``threads``; ``kernel`` is the one-thread procedure, read for the variables
    it assigns a product (the division lemma's ``p``)."""

    def __init__(self, builder: ProgramBuilder, threads: Threads, kernel: il.ProcedureDecl,
                 grid_items: int | None = None, offsets: tuple[int, int, int] = (0, 0, 0)):
        # grid_items: at most that many work items in the launch (all dimensions), an
        # axiom of the launch or None; offsets: the launch's global offsets (grid lemma)
        self.builder, self.threads = builder, threads
        self.grid_items, self.offsets = grid_items, offsets
        self.products: dict[str, il.Expr] = {}  # variable -> the product it is assigned
        assigned: dict[str, list[il.Expr]] = {}
        for b in kernel.blocks or ():
            for c in b.cmds:
                if isinstance(c, il.Assign):
                    for l, r in zip(c.lhss, c.rhss):
                        if isinstance(l, il.VarLhs):
                            assigned.setdefault(l.name, []).append(r)
                            if _binary(r, "MUL") is not None:
                                self.products[l.name] = r
        # variables assigned once: an offset's definitions (``sum_parts``)
        self.defs = {v: rs[0] for v, rs in assigned.items() if len(rs) == 1}
        self.types = {d.name: d.type for d in kernel.locals}

    def width(self, e: il.Expr) -> int | None:
        """The bit width of the one-thread offset ``e`` (a variable or an operation)."""
        if isinstance(e, il.Var):
            t = self.types.get(e.name)
            return t.width if isinstance(t, il.BvType) else None
        wop = op_of(e)
        return wop[0] if wop is not None else None

    def definition(self, e: il.Expr) -> tuple[tuple[tuple[il.Var, il.Expr], ...], il.Expr]:
        """``(defs, v)``: ``e`` followed through the variables assigned once, ``v`` the
        expression reached, ``defs`` the equations ``(variable, right-hand side)`` on the
        way.  Stops at a variable met before: in a loop, copies assigned once each can
        form a cycle (``a := b; b := a``)."""
        defs: list[tuple[il.Var, il.Expr]] = []
        while isinstance(e, il.Var) and e.name in self.defs and all(e != v for v, _ in defs):
            defs.append((e, self.defs[e.name]))
            e = self.defs[e.name]
        return tuple(defs), e

    def sum_parts(self, e: il.Expr) -> tuple[tuple[tuple[il.Var, il.Expr], ...], il.Expr, il.Expr, il.Expr] | None:
        """``(defs, q, u, x)`` when the one-thread offset ``e`` is ``q * u + x`` with a
        thread-uniform, non-literal ``u``: through copies and the product's variable, each
        ``(v, rhs)`` of ``defs`` a variable assigned once and its right-hand side (the
        equations that make ``e`` the sum, premises of a lemma)."""
        defs, e = self.definition(e)
        for p, prod, q, u, x in self._sum_splits(e, self.defs):
            extra = ((p, prod),) if isinstance(p, il.Var) else ()
            return defs + extra, q, u, x
        return None

    def _sum_splits(self, e: il.Expr, assigned: dict[str, il.Expr]) \
            -> Iterator[tuple[il.Expr, il.Expr, il.Expr, il.Expr, il.Expr]]:
        """``(p, prod, q, u, x)`` for each way the sum ``e`` is ``p + x`` with ``p`` a
        product ``prod == q * u`` of its width (or a variable ``assigned`` one) and ``u`` a
        factor of the lemmas (``_uniform``): the form both the division lemma and the
        remainder lemmas are about."""
        s = _binary(e, "ADD")
        if s is None:
            return
        for p, x in ((s[1], s[2]), (s[2], s[1])):
            prod = assigned.get(p.name) if isinstance(p, il.Var) else p
            if prod is None or (m := _binary(prod, "MUL")) is None or m[0] != s[0]:
                continue
            for q, u in ((m[1], m[2]), (m[2], m[1])):
                if self._uniform(u):
                    yield p, prod, q, u, x

    def _uniform(self, e: il.Expr) -> bool:
        """A factor the lemmas are about: the same in both threads, neither a number nor a
        launch size."""
        if isinstance(e, (il.BvLit, il.IntLit)) or (isinstance(e, il.Var) and _LAUNCH_SIZE.match(e.name)):
            return False
        return self.threads.ex(e, 1) == self.threads.ex(e, 2)

    def _pair(self, e: il.Expr) -> tuple[il.Expr, il.Expr]:
        return self.threads.ex(e, 1), self.threads.ex(e, 2)

    def lemmas(self, cmd: il.Cmd) -> list[il.Expr]:
        """The lemmas to assume before ``cmd``: one per product with a uniform, non-literal
        factor and a cofactor that differs between the threads, and one per sum of such a
        product (or of a variable assigned one) that differs between the threads (after
        the grid lemmas of a row-major grid index, ``grid_nowrap_lemma``)."""
        out: list[il.Expr] = []
        for e in il.cmd_exprs(cmd):
            for s in il.subexprs(e):
                cancellation = self._cancellation(s)
                found = [cancellation] if cancellation is not None else self._division(s)
                out += [lemma for lemma in found if lemma not in out]
        return out

    def _cancellation(self, e: il.Expr) -> il.Expr | None:
        m = _binary(e, "MUL")
        if m is None:
            return None
        w, a, b = m
        for x, u in ((a, b), (b, a)):
            pair = self._pair(x)
            if self._uniform(u) and pair[0] != pair[1]:
                return cancellation_lemma(self.builder, w, pair, self.threads.ex(u, 1))
        return None

    def _division(self, e: il.Expr) -> list[il.Expr]:
        """The division lemma of the sum ``e``, after its grid lemmas (``_grid``); [] when
        ``e`` is no such sum."""
        s = _binary(e, "ADD")
        if s is None:
            return []
        sums = self._pair(e)
        if sums[0] == sums[1]:
            return []
        for p, prod, q, u, x in self._sum_splits(e, self.products):
            defs: tuple[il.Expr, ...] = ()
            if isinstance(p, il.Var):  # the variable's value is its product: in the premise
                defs = tuple(il.BinOp("==", pt, prt) for pt, prt in zip(self._pair(p), self._pair(prod)))
            return self._grid(s[0], q, u, x) + [
                bounded_division_lemma(self.builder, s[0], sums, self._pair(q), self.threads.ex(u, 1),
                                       self._pair(x), defs)]
        return []

    def _grid(self, w: int, q: il.Expr, u: il.Expr, x: il.Expr) -> list[il.Expr]:
        """The grid lemmas (module docstring, ``grid_nowrap_lemma``) of the sum ``q * u +
        x`` (one-thread), one per thread, when ``q`` is defined as the global id of one
        dimension and ``u`` as the global size of another and the launch's work items
        multiply to at most ``2^w``; else []."""
        if self.grid_items is None or self.grid_items > 2 ** w or w != 32:
            return []
        qdefs, qv = self.definition(q)
        udefs, uv = self.definition(u)
        d = _global_size_dim(uv)
        if d is None:
            return []
        for e in DIMS:
            forms = [False] + ([True] if self.offsets[DIMS.index(e)] == 0 else [])
            if e == d or not any(self.threads.ex(qv, 1) == global_id(self.builder, e, 1, off) for off in forms):
                continue
            out = []
            for t in THREADS:
                defs = tuple(il.BinOp("==", self.threads.ex(v, t), self.threads.ex(r, t)) for v, r in qdefs + udefs)
                out.append(grid_nowrap_lemma(self.builder, w, self.threads.ex(q, t), self.threads.ex(u, 1),
                                             self.threads.ex(x, t), defs))
            return out
        return []



def _global_size_dim(e: il.Expr) -> str | None:
    """The dimension ``d`` when ``e`` is ``group_size_d * num_groups_d`` (either order: the
    front end's ``get_global_size``, CUDA's ``blockDim.x * gridDim.x``), else None."""
    m = _binary(e, "MUL")
    if m is None or not all(isinstance(a, il.Var) for a in m[1:]):
        return None
    names = {a.name for a in m[1:] if isinstance(a, il.Var)}
    for d in DIMS:
        if names == {f"group_size_{d}", f"num_groups_{d}"}:
            return d
    return None


def grid_nowrap_lemma(builder: ProgramBuilder, w: int, q: il.Expr, u: il.Expr, x: il.Expr,
                      defs: tuple[il.Expr, ...]) -> il.Expr:
    """``defs && x < u ==> nowrap(q * u + x)`` over ``w``-bit vectors, ``defs`` the
    equations that make ``q`` a global id of one dimension and ``u`` the global size of
    another (module docstring).  Valid under the launch axioms when the launch has at most
    ``2^w`` work items in all; not valid for every value, so given only then."""
    premise = il.and_all([*defs, il.FunApp(builder.bvfun("ULT", w), (x, u))])
    return il.implies(premise, _nowrap(builder, w, q, u, x))


def remainder_lemma(builder: ProgramBuilder, w: int, rem: il.Expr, scale: int, q: il.Expr, u: il.Expr,
                    x: il.Expr, premises: tuple[il.Expr, ...], v: int | None = None) -> il.Expr:
    """``premises && M == u && x < u && fits(q, u) ==> rem == x`` over ``w``-bit vectors,
    where ``rem`` is ``UREM(L, M)`` or ``UREM(UDIV(MUL(L, c), c), M)`` (``c == scale``, a
    literal; ``MUL`` either order) and ``premises`` state ``L == q * u + x`` (modular: the
    kernel's own sum and the definitions of its variables).  ``fits(q, u)`` is the
    disjunction over ``k`` of ``q < 2^k && u <= B >> k`` with ``B = (2^w - 1) / c + 1``:
    then ``q * u + x <= 2^k * (B >> k) - 1 < B``, so neither the sum nor ``L * c`` wraps,
    ``(L * c) / c == L`` and ``L % u == x``.  Valid for every value (z3 proves it in the
    tests).  Comparisons with numbers only: the solver need not bound a product, which
    is what made the exact no-wrap premise ``q * u + x < B`` slow (docs/design.md 5.1).

    With ``v`` (< ``w``) the sum is a ``v``-bit one zero-extended to the offset, as CUDA's
    64-bit offsets of a 32-bit index ``ZEXT64(q * u + x)``: ``q``, ``u``, ``x`` are ``v``-bit,
    ``premises`` state ``L == ZEXT(s)`` and ``s == q * u + x``, the modulus is ``M ==
    ZEXT(u)``, the conclusion ``rem == ZEXT(x)`` and ``B`` is at most ``2^v`` (the ``v``-bit
    sum does not wrap either)."""
    v = v or w
    ult, ule = builder.bvfun("ULT", v), builder.bvfun("ULE", v)
    bound = min((2 ** w - 1) // scale + 1, 2 ** v)

    def widened(e: il.Expr) -> il.Expr:
        return e if v == w else il.FunApp(builder.zext(v, w), (e,))
    fits = il.or_all(il.BinOp("&&", il.FunApp(ult, (q, il.BvLit(2 ** k, v))),
                              il.FunApp(ule, (u, il.BvLit(min(bound >> k, 2 ** v - 1), v))))
                     for k in range(v) if bound >> k)
    m = args_of(rem)[1]
    premise = il.and_all([*premises, il.BinOp("==", m, widened(u)), il.FunApp(ult, (x, u)), fits])
    return il.implies(premise, il.BinOp("==", rem, widened(x)))


# Divisions a latch lemma is about (``LatchLemmas``): bit-blasted dividers unless the divisor
# is a literal power of two (a mask or a shift, which the solvers handle).
_DIVISIONS = ("UREM", "UDIV", "SREM", "SDIV")


def divisions(e: il.Expr) -> list[il.Expr]:
    """The sub-expressions ``BVw_OP(a, m)`` of ``e`` with ``OP`` a division or remainder
    (``UREM``, ``UDIV``, ``SREM``, ``SDIV``) whose divisor ``m`` is not a literal
    power of two, each once, in the order met."""
    out: list[il.Expr] = []
    for s in il.subexprs(e):
        wop = op_of(s)
        if wop is None or wop[1] not in _DIVISIONS or len(args_of(s)) != 2 or s in out:
            continue
        m = args_of(s)[1]
        if isinstance(m, il.BvLit) and m.value > 0 and m.value & (m.value - 1) == 0:
            continue
        out.append(s)
    return out


def latch_lemma(term: il.Expr, var: str, update: il.IfThenElse) -> il.Expr:
    """``T[v := if c then a else b] == if c then T[v := a] else T[v := b]`` for the term
    ``T`` (``term``, any type), the variable ``v`` (``var``) and the update ``if c then a
    else b``: valid for every value (both sides are ``T[v := a]`` when ``c`` holds and ``T[v
    := b]`` otherwise), so sound anywhere.

    Stated before a predicated assignment ``v := if p then e else v`` (``LatchLemmas``),
    its left side is the term of ``T`` at the next loop head (the passive form's new
    incarnation of ``v`` is that if-then-else) and its else-branch the term at this head,
    which the loop invariant about ``T`` assumes: for ``i % step == tid`` after ``i := if p
    then i + step else i``, the solver then proves ``(i + step) % step == tid`` alone
    instead of the remainder of a multiplexer (docs/design.md 5.1, generatePaths)."""
    then = il.substitute(term, {var: update.then})
    els = il.substitute(term, {var: update.els})
    return il.BinOp("==", il.substitute(term, {var: update}), il.IfThenElse(update.cond, then, els))


class LoopHeads:
    """The assertions (user invariants and candidates, two-thread names) at the heads of
    the loops enclosing the command the lock-step transformer is at, innermost last:
    ``enter`` a head, ``leave`` its loop."""

    def __init__(self) -> None:
        self.stack: list[list[il.Expr]] = []
        # per head, the divisions its assertions take (``divisions``), found once per head:
        # the lemmas are asked for at every assignment of the loop body (bench-scaling
        # sync-loop 50: lock-step 0.5 -> 1.6 s when each assignment walked every head)
        self.division_stack: list[list[il.Expr]] = []

    def enter(self, asserts: list[il.Expr]) -> None:
        self.stack.append(list(asserts))
        found: list[il.Expr] = []
        for e in asserts:
            found += [d for d in divisions(e) if d not in found]
        self.division_stack.append(found)

    def leave(self) -> None:
        self.stack.pop()
        self.division_stack.pop()

    def equations(self) -> Iterator[il.BinOp]:
        """The equations ``a == b`` the enclosing heads assert, each conjunct of an
        assertion's conclusion (``g ==> (e && f)``: ``e`` and ``f``)."""
        for asserts in self.stack:
            for e in asserts:
                while isinstance(e, il.BinOp) and e.op == "==>":
                    e = e.right
                for c in il.conjuncts(e):
                    if isinstance(c, il.BinOp) and c.op == "==":
                        yield c


class LatchLemmas:
    """Lemmas ``latch_lemma`` for the divisions (``divisions``) that the assertions at the
    heads of the enclosing loops (``LoopHeads``) take of a variable the loop body assigns:
    ``before`` gives the lemmas to assume before a predicated assignment of the body
    (two-thread names throughout).

    Why: a loop invariant ``i % step == tid`` (``BV32_UREM``, a divisor not a power of two)
    is checked at the back edge on the new ``i``, the predicated latch ``i := if p then i
    + step else i`` (paper 000 section 4: a disabled thread keeps its values).  The solver
    bit-blasts the remainder of that multiplexer and does not see that one branch is the
    remainder the invariant assumes at the head: yices 39 s CPU on CUDA generatePaths'
    ``i % step == tid`` (one thread), 0.17 s given the lemma."""

    def __init__(self, heads: LoopHeads) -> None:
        self.heads = heads

    def before(self, lhss: tuple[il.Lhs, ...], rhss: tuple[il.Expr, ...]) -> list[il.Expr]:
        """The lemmas for the parallel assignment ``lhss := rhss``: one per variable the
        assignment updates by an if-then-else and per division of the enclosing heads that
        reads it and no other variable of ``lhss`` (the lemma is over the values before the
        assignment, the head's term over those after)."""
        assigned = {l.name for l in lhss}
        terms: list[il.Expr] = []
        for found in self.heads.division_stack:
            terms += [d for d in found if d not in terms]
        if not terms:
            return []
        out: list[il.Expr] = []
        for l, r in zip(lhss, rhss):
            if not isinstance(l, il.VarLhs) or not isinstance(r, il.IfThenElse):
                continue
            for t in terms:
                if il.free_vars(t) & assigned == {l.name}:
                    lemma = latch_lemma(t, l.name, r)
                    if lemma not in out:
                        out.append(lemma)
        return out


def log_remainders(e: il.Expr, offset_query: Callable[[il.Expr], il.Var | None]) \
        -> list[tuple[il.Expr, int, il.Var]]:
    """The remainders of log offsets in ``e``: ``(rem, c, L)`` for each sub-expression ``rem``
    ``UREM(L, M)`` (``c`` 1) or ``UREM(UDIV(MUL(L, c), c), M)`` (the byte offset
    ``__write_offset_bytes(A) / sizeof(T)``) with ``offset_query(L)`` a log offset."""
    out = []
    for s in il.subexprs(e):
        r = _binary(s, "UREM")
        if r is None:
            continue
        dividend, scale = r[1], 1
        d = _binary(dividend, "UDIV")
        if d is not None and isinstance(d[2], il.BvLit) and (m := _binary(d[1], "MUL")) is not None:
            for f, c in ((m[1], m[2]), (m[2], m[1])):
                if isinstance(c, il.BvLit) and c.value == d[2].value and c.value > 0:
                    dividend, scale = f, c.value
        if (log := offset_query(dividend)) is not None:
            out.append((s, scale, log))
    return out


# A lemma about a log's offset that the VC splits over the log's updates as it does a loop
# invariant (``encode.LogCaseSplitter.split_invariant``): its case for the log's value at
# the loop head is, hash-consed, the very term the invariant assumes there.
LOG_LEMMA = (il.Attr("log_lemma"),)


class RemainderLemmas:
    """Remainder lemmas (``remainder_lemma``) about the access logs: an annotation that
    takes ``L % M`` (or ``(L * c / c) % M``) of a log offset ``L`` -- a function-wide
    invariant ``(__write_offset_bytes(A) / 4) % width == col`` -- meets each access ``A[q
    * u + x]`` (``u`` thread-uniform, ``ProductLemmas.sum_parts``) with a lemma instance
    that says the remainder is ``x`` where the access is logged or checked.  For the
    solver that remainder is a bit-level division of a product; with the instances,
    congruence and comparisons with numbers.  ``remainders``: log offset variable name ->
    the two-thread remainders of it the annotations take, with their scale
    (``log_remainders``)."""

    def __init__(self, products: ProductLemmas, remainders: dict[str, list[tuple[il.Expr, int]]],
                 heads: LoopHeads | None = None):
        self.products, self.remainders = products, remainders
        self.heads = heads if heads is not None else LoopHeads()

    def at_check(self, log: il.Var, index: il.Expr) -> list[il.Cmd]:
        """Before thread 2's access at ``index`` (one-thread) is checked against ``log``: if
        the logged offset equals the access's, its remainder is thread 2's ``x``.  The log
        may hold an access of this loop iteration or the loop head's value, where the
        invariant speaks of the remainder; the remainder gets a name ``v`` (``R(L) == v``)
        and that equation is also assumed split over the log's updates (``LOG_LEMMA``), so
        ``v`` is the remainder of each case's own term.  Not the lemma itself: split, its
        premise ``L == s`` would become an equation between two sums, which z3's rewriter
        normalises out of the check's reach."""
        out: list[il.Cmd] = []
        for rem, lemma in self._instances(log, index, 2, log):
            v = self.products.builder.tmp(il.BvType(_binary(rem, "UREM")[0]), "rem")  # type: ignore[index]
            out += [il.Havoc((v.name,)), il.Assume(il.BinOp("==", rem, v)),
                    il.Assume(il.BinOp("==", rem, v), LOG_LEMMA), il.Assume(lemma)]
        return out

    def at_log(self, log: il.Var, index: il.Expr) -> list[il.Cmd]:
        """After thread 1 may have logged its access at ``index`` in ``log``: the remainder
        of the access's offset is thread 1's ``x`` (the form in which a loop invariant
        split over the log's updates reads it, ``encode``)."""
        return [il.Assume(lemma) for _, lemma in
                self._instances(log, index, 1, self.products.threads.ex(index, 1))]

    def _instances(self, log: il.Var, index: il.Expr, t: int, target: il.Expr) -> list[tuple[il.Expr, il.Expr]]:
        """``(R(target), lemma)`` per remainder ``R`` of ``log`` the annotations take, for
        thread ``t``'s access at ``index``: ``target == offset && ... ==> R(target) == x``."""
        rems = self.remainders.get(log.name)
        if not rems:
            return []
        split = self._split(index)
        if split is None:
            return self._difference_instances(rems, log, index, t, target)
        defs, q, u, x, v = split
        th = self.products.threads
        offset = th.ex(index, t)
        premises = tuple(il.BinOp("==", th.ex(var, t), th.ex(e, t)) for var, e in defs)
        eq = () if target == offset else (il.BinOp("==", target, offset),)
        out = []
        for rem, scale in rems:
            w = _binary(rem, "UREM")
            assert w is not None
            if w[0] != self.products.width(index):
                continue
            at = il.substitute(rem, {log.name: target}) if target != log else rem
            out.append((at, remainder_lemma(self.products.builder, w[0], at, scale, th.ex(q, t), th.ex(u, 1),
                                            th.ex(x, t), eq + premises, v)))
        return out

    def _difference_instances(self, rems: list[tuple[il.Expr, int]], log: il.Var, index: il.Expr, t: int,
                              target: il.Expr) -> list[tuple[il.Expr, il.Expr]]:
        """``_instances`` for an offset that is no sum ``q * u + x`` but that an enclosing
        loop's head relates to one (``_head_equation``): a pointer moved by ``u`` per
        iteration, ``output += numSims`` with the invariant ``output - i == t * numSims``.
        The lemma (``remainder_lemma`` with ``L`` the remainder's dividend ``D``) is
        ``target == offset && D(offset) - x == q * u && M == u && x < u && fits(q, u) ==>
        R(target) == x``: the equation is a premise, so it is valid for every value
        whether or not the invariant holds (docs/design.md 5.1, generatePaths)."""
        th = self.products.threads
        offset = th.ex(index, t)
        eq = () if target == offset else (il.BinOp("==", target, offset),)
        out = []
        for rem, _ in rems:
            r = _binary(rem, "UREM")
            assert r is not None
            w, dividend, m = r
            found = self._head_equation(w, il.substitute(dividend, {log.name: offset}), m)
            if found is None:
                continue
            equation, q, u, x, v = found
            at = il.substitute(rem, {log.name: target}) if target != log else rem
            out.append((at, remainder_lemma(self.products.builder, w, at, 1, q, u, x, eq + (equation,), v)))
        return out

    def _head_equation(self, w: int, d: il.Expr, m: il.Expr) \
            -> tuple[il.Expr, il.Expr, il.Expr, il.Expr, int | None] | None:
        """``(equation, q, u, x, v)`` for an equation of the enclosing heads (``LoopHeads``)
        ``d - x == q * u`` over ``w`` bits with ``m == u`` (``v`` None), or ``d - ZEXT(x) ==
        ZEXT(q * u)`` with ``v``-bit ``x``, ``q``, ``u`` and ``m == ZEXT(u)`` (CUDA: a 64-bit
        pointer, 32-bit counters); either side of ``==``, either order of the product."""
        for equation in self.heads.equations():
            for s, y in ((equation.left, equation.right), (equation.right, equation.left)):
                sub = _binary(s, "SUB")
                if sub is None or sub[0] != w or sub[1] != d:
                    continue
                x, v, prod = sub[2], None, y
                ext = [e for e in (x, y) if isinstance(e, il.FunApp) and len(e.args) == 1 and _ZEXT.match(e.name)]
                if len(ext) == 2:
                    x, prod = args_of(x)[0], args_of(y)[0]
                    v = int(_ZEXT.match(y.name).group(1))  # type: ignore[union-attr]
                mul = _binary(prod, "MUL")
                if mul is None or mul[0] != (v or w):
                    continue
                for q, u in ((mul[1], mul[2]), (mul[2], mul[1])):
                    if m == (u if v is None else il.FunApp(self.products.builder.zext(v, w), (u,))):
                        return equation, q, u, x, v
        return None

    def _split(self, index: il.Expr) -> tuple[tuple[tuple[il.Var, il.Expr], ...], il.Expr, il.Expr, il.Expr,
                                               int | None] | None:
        """``(defs, q, u, x, v)`` when the one-thread offset ``index`` is ``q * u + x``
        (``ProductLemmas.sum_parts``, ``v`` None) or, through copies, the zero extension
        ``ZEXT(s)`` of such a ``v``-bit sum ``s`` (CUDA: a 32-bit index, 64-bit offsets),
        ``defs`` then also the equations down to the extension."""
        split = self.products.sum_parts(index)
        if split is not None:
            return (*split, None)
        chain, e = self.products.definition(index)
        if not isinstance(e, il.FunApp) or len(e.args) != 1 or (m := _ZEXT.match(e.name)) is None:
            return None
        inner = self.products.sum_parts(e.args[0])
        if inner is None:
            return None
        defs, q, u, x = inner
        return chain + defs, q, u, x, int(m.group(1))
