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
Products by literals are left alone (linear: the solvers handle them), and so are products
by a group size or group count: the global id ``group_id * group_size + local_id`` has
the launch's own lemmas (``launch.global_id_lemmas``), or a number for the size.  The
two-thread reduction they serve is paper 000, section 4; the facts are arithmetic.
"""
from __future__ import annotations

import re

from .. import il
from ..candidates.bvexpr import args_of, op_of
from .builder import ProgramBuilder
from .launch import division_lemma
from .threads import Threads

_LAUNCH_SIZE = re.compile(r"^(group_size|num_groups)_[xyz]$")


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

    def __init__(self, builder: ProgramBuilder, threads: Threads, kernel: il.ProcedureDecl):
        self.builder, self.threads = builder, threads
        self.products: dict[str, il.Expr] = {}  # variable -> the product it is assigned
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
