"""Cancellation lemmas for the two threads' products with a shared factor.

An access ``out[gid * stride]`` with a symbolic ``stride`` (a kernel argument, or a
symbolic launch size) is race-free because the product is injective in ``gid`` where it
does not wrap.  For the solver that is a bit-level proof about two multipliers (``gid$1 *
stride == gid$2 * stride`` with ``gid$1 != gid$2``): z3 and yices take minutes on it even
when ``gid < 2^20`` and ``stride <= 1024`` are known.  Given the lemma instance below,
both answer in milliseconds: what remains is a no-overflow check on bounded operands.

For each product ``MUL(x, u)`` in a command of the kernel whose factor ``u`` is the same
expression in both threads (thread-uniform, not a literal) and whose ``x`` is not, the
lock-step program assumes, before the command,

    x$1 * u == x$2 * u && u != 0 && nowrap(x$1, u) && nowrap(x$2, u)  ==>  x$1 == x$2

where ``nowrap(x, u)`` says that the product of the zero-extended operands fits in the
operands' width (the upper half of the ``2w``-bit product is zero).  The lemma is valid
for every value of its variables (equal products below ``2^w`` of a common non-zero factor
have equal cofactors), so assuming it is sound anywhere; when its premise cannot be
shown it is simply unused.  Products by literals are left alone: they are linear, and
the solvers handle them.  The two-thread reduction it serves is paper 000, section 4; the
fact itself is arithmetic.
"""
from __future__ import annotations

import re

from .. import il
from .builder import ProgramBuilder
from .threads import Threads

_MUL = re.compile(r"^BV(\d+)_MUL$")


def _is_literal(e: il.Expr) -> bool:
    return isinstance(e, (il.BvLit, il.IntLit))


def _products(cmd: il.Cmd) -> list[tuple[int, il.Expr, il.Expr]]:
    """The products ``(width, a, b)`` of ``cmd``'s expressions, each once."""
    exprs: list[il.Expr] = []
    if isinstance(cmd, il.Assign):
        exprs += list(cmd.rhss)
        exprs += [l.index for l in cmd.lhss if isinstance(l, il.MapLhs)]
    out: list[tuple[int, il.Expr, il.Expr]] = []
    for e in exprs:
        for x in il.subexprs(e):
            if not isinstance(x, il.FunApp) or len(x.args) != 2:
                continue
            m = _MUL.match(x.name)
            if m and (int(m.group(1)), x.args[0], x.args[1]) not in out:
                out.append((int(m.group(1)), x.args[0], x.args[1]))
    return out


def _nowrap(builder: ProgramBuilder, x: il.Expr, u: il.Expr, w: int) -> il.Expr:
    """``x * u`` does not wrap at ``w`` bits: the upper ``w`` bits of the ``2w``-bit product
    of the zero-extended operands are zero."""
    zext = builder.zext(w, 2 * w)
    wide = il.FunApp(builder.bvfun("MUL", 2 * w), (il.FunApp(zext, (x,)), il.FunApp(zext, (u,))))
    return il.BinOp("==", il.BvExtract(wide, 2 * w, w), il.BvLit(0, w))


def cancellation_lemma(builder: ProgramBuilder, w: int, x: tuple[il.Expr, il.Expr], u: il.Expr) -> il.Expr:
    """``x1 * u == x2 * u && u != 0 && nowrap(x1, u) && nowrap(x2, u) ==> x1 == x2`` over
    ``w``-bit vectors (module docstring); ``x`` holds thread 1's and thread 2's cofactor."""
    mul = builder.bvfun("MUL", w)
    premise = il.and_all([il.BinOp("==", il.FunApp(mul, (x[0], u)), il.FunApp(mul, (x[1], u))),
                          il.BinOp("!=", u, il.BvLit(0, w)),
                          _nowrap(builder, x[0], u, w), _nowrap(builder, x[1], u, w)])
    return il.implies(premise, il.BinOp("==", x[0], x[1]))


def product_lemmas(builder: ProgramBuilder, threads: Threads, cmd: il.Cmd) -> list[il.Expr]:
    """The cancellation lemmas of ``cmd``'s products with one thread-uniform, non-literal
    factor (in either position) and one factor that differs between the threads; the
    expressions are over the two-thread names.  Empty for every other command."""
    lemmas: list[il.Expr] = []
    for w, a, b in _products(cmd):
        for x, u in ((a, b), (b, a)):
            u1, x1, x2 = threads.ex(u, 1), threads.ex(x, 1), threads.ex(x, 2)
            if _is_literal(u) or threads.ex(u, 2) != u1 or x1 == x2:
                continue
            lemmas.append(cancellation_lemma(builder, w, (x1, x2), u1))
            break
    return lemmas
