"""Cancellation lemmas for the two threads' products with a shared factor.

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
Products by a group size or group count are left alone: the global id ``group_id *
group_size + local_id`` has the launch's own lemmas (``launch.global_id_lemmas``), or a
number for the size.

Products by a literal ``c`` that is not a power of two get the congruence lemma instead.
Write ``c = 2^s * o`` with ``o`` odd, so ``o`` has an inverse ``o'`` modulo ``2^w``.  For
two affine terms ``t_i = c * x_i + k_i`` and ``t_j = c * x_j + k_j`` (the same ``c``,
literal ``k``; ``k = 0`` for a bare product; the product may be a variable assigned it,
whose definition goes in the premise) the lemma is

    t_i$1 == t_j$2  ==>  2^s * (x_i$1 - x_j$2) == o' * (k_j - k_i)      (mod 2^w)

valid for every value (multiply ``c * (x_i - x_j) == k_j - k_i`` by ``o'``); for odd
``c`` it says ``x_i$1 == x_j$2 + o' * (k_j - k_i)``.  An array of 5-word structs indexed
``5 * gid + k`` with symbolic sizes (gid up to 2^28) makes the race check ``5 * gid$1 ==
5 * gid$2 + 2`` a question about residues modulo 5 that z3 and yices do not decide in
minutes; with the lemma it is a difference of two bounded ids, decided at once.  The
pairs are the terms of the command being translated with the ones translated before it
(the earlier access a log holds) and with themselves, at most ``MAX_AFFINE_PAIRS`` per
command.  The two-thread reduction they serve is paper 000, section 4; the facts are
arithmetic.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .. import il
from ..candidates.bvexpr import args_of, op_of
from .builder import ProgramBuilder
from .launch import division_lemma
from .threads import Threads

_LAUNCH_SIZE = re.compile(r"^(group_size|num_groups)_[xyz]$")
MAX_AFFINE_PAIRS = 32  # congruence lemmas per command (pairs with earlier terms), a bound on their number


@dataclass(frozen=True)
class AffineTerm:
    """``term == c * x + k`` over ``w`` bits (one-thread names): ``term`` as the kernel writes
    it, ``prod`` the product ``c * x`` or a variable ``term`` reads that is assigned it
    (then ``defn``, the product, goes into a lemma's premise)."""
    term: il.Expr
    w: int
    c: int
    x: il.Expr
    k: int
    prod: il.Expr
    defn: il.Expr | None


def congruence_constant(w: int, c: int, ki: int, kj: int) -> tuple[int, int]:
    """``(2^s, o' * (kj - ki) mod 2^w)`` for ``c = 2^s * o``, ``o`` odd, ``o'`` its inverse
    modulo ``2^w``: ``c * xi + ki == c * xj + kj`` iff ``2^s * (xi - xj) == `` the second
    (mod ``2^w``; module docstring).  ``c`` must not be 0 modulo ``2^w``."""
    c %= 1 << w
    s = (c & -c).bit_length() - 1
    inv = pow(c >> s, -1, 1 << w)
    return 1 << s, inv * (kj - ki) % (1 << w)


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


def congruence_lemma(builder: ProgramBuilder, ti: AffineTerm, tj: AffineTerm,
                     pair: tuple[il.Expr, il.Expr], xs: tuple[il.Expr, il.Expr],
                     defs: tuple[il.Expr, ...]) -> il.Expr:
    """``t_i$1 == t_j$2 && defs ==> 2^s * (x_i$1 - x_j$2) == o' * (k_j - k_i)`` (module
    docstring): ``pair`` is ``(t_i$1, t_j$2)``, ``xs`` is ``(x_i$1, x_j$2)``, ``defs`` the
    definitions of product variables.  Valid for every value."""
    w = ti.w
    scale, k = congruence_constant(w, ti.c, ti.k, tj.k)
    diff: il.Expr = il.FunApp(builder.bvfun("SUB", w), xs)
    if scale != 1:
        diff = il.FunApp(builder.bvfun("MUL", w), (diff, il.BvLit(scale, w)))
    premise = il.and_all([il.BinOp("==", pair[0], pair[1]), *defs])
    return il.implies(premise, il.BinOp("==", diff, il.BvLit(k, w)))


class ProductLemmas:
    """The lemmas (module docstring) of the commands of one kernel, over the two-thread
    names of ``threads``; ``kernel`` is the one-thread procedure, read for the variables
    it assigns a product (the division lemma's ``p``)."""

    def __init__(self, builder: ProgramBuilder, threads: Threads, kernel: il.ProcedureDecl):
        self.builder, self.threads = builder, threads
        self.products: dict[str, il.Expr] = {}  # variable -> the product it is assigned
        self.affine: list[AffineTerm] = []  # terms by a literal translated so far (congruence lemmas)
        for b in kernel.blocks or ():
            for c in b.cmds:
                if isinstance(c, il.Assign):
                    for l, r in zip(c.lhss, c.rhss):
                        if isinstance(l, il.VarLhs) and _binary(r, "MUL") is not None:
                            self.products[l.name] = r

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
        product (or of a variable assigned one) that differs between the threads."""
        out: list[il.Expr] = []
        for e in il.cmd_exprs(cmd):
            for s in il.subexprs(e):
                lemma = self._cancellation(s) or self._division(s)
                if lemma is not None and lemma not in out:
                    out.append(lemma)
                for lemma in self._congruences(s):
                    if lemma not in out:
                        out.append(lemma)
        return out

    def _literal_product(self, e: il.Expr) -> tuple[int, int, il.Expr] | None:
        """``(w, c, x)`` when ``e`` is ``c * x`` (either order) with ``c`` a literal that is
        not a power of two and ``x`` not a literal."""
        m = _binary(e, "MUL")
        if m is None:
            return None
        w, a, b = m
        for x, c in ((a, b), (b, a)):
            if isinstance(c, il.BvLit) and not isinstance(x, il.BvLit):
                v = c.value % (1 << w)
                if v and v & (v - 1):
                    return w, v, x
        return None

    def _affine(self, e: il.Expr) -> AffineTerm | None:
        """``e`` as an ``AffineTerm`` (module docstring), or None."""
        if (lp := self._literal_product(e)) is not None:
            return AffineTerm(e, lp[0], lp[1], lp[2], 0, e, None)
        s = _binary(e, "ADD")
        if s is None:
            return None
        for p, k in ((s[1], s[2]), (s[2], s[1])):
            if not isinstance(k, il.BvLit):
                continue
            prod = self.products.get(p.name) if isinstance(p, il.Var) else p
            if prod is not None and (lp := self._literal_product(prod)) is not None and lp[0] == s[0]:
                return AffineTerm(e, s[0], lp[1], lp[2], k.value, p, prod if isinstance(p, il.Var) else None)
        return None

    def _congruences(self, e: il.Expr) -> list[il.Expr]:
        """Congruence lemmas of ``e`` (an affine term by a literal whose cofactor differs
        between the threads) with itself and with the terms translated before, both ways;
        ``e`` joins those terms."""
        t = self._affine(e)
        if t is None:
            return []
        if self._pair(t.x)[0] == self._pair(t.x)[1]:
            return []
        if t not in self.affine:
            self.affine.append(t)
        others = [o for o in self.affine if o.c == t.c and o.w == t.w and o != t][-MAX_AFFINE_PAIRS:]
        out = [self._congruence(t, t)]
        for o in others:
            out += [self._congruence(o, t), self._congruence(t, o)]
        return out

    def _congruence(self, ti: AffineTerm, tj: AffineTerm) -> il.Expr:
        """The lemma for ``ti`` in thread 1 and ``tj`` in thread 2."""
        th = self.threads
        defs = tuple(il.BinOp("==", th.ex(t.prod, n), th.ex(t.defn, n))
                     for t, n in ((ti, 1), (tj, 2)) if t.defn is not None)
        return congruence_lemma(self.builder, ti, tj, (th.ex(ti.term, 1), th.ex(tj.term, 2)),
                                (th.ex(ti.x, 1), th.ex(tj.x, 2)), defs)

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

    def _division(self, e: il.Expr) -> il.Expr | None:
        s = _binary(e, "ADD")
        if s is None:
            return None
        sums = self._pair(e)
        if sums[0] == sums[1]:
            return None
        w = s[0]
        for p, x in ((s[1], s[2]), (s[2], s[1])):
            prod = self.products.get(p.name) if isinstance(p, il.Var) else p
            if prod is None or (m := _binary(prod, "MUL")) is None or m[0] != w:
                continue
            for q, u in ((m[1], m[2]), (m[2], m[1])):
                if not self._uniform(u):
                    continue
                defs: tuple[il.Expr, ...] = ()
                if isinstance(p, il.Var):  # the variable's value is its product: in the premise
                    defs = tuple(il.BinOp("==", pt, prt) for pt, prt in zip(self._pair(p), self._pair(prod)))
                return bounded_division_lemma(self.builder, w, sums, self._pair(q), self.threads.ex(u, 1),
                                              self._pair(x), defs)
        return None
