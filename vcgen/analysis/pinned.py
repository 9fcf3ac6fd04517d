"""Scalars a kernel precondition or an axiom pins to a literal (``__requires(n == 4096)``,
the launch's ``group_size_x == 64bv32``): the VC encodes them as the literal and the
candidate rules read them as literal coefficients.  Pure IL, no solver."""
from __future__ import annotations

from .. import il


def pinned_by_requires(kernel: il.ProcedureDecl) -> dict[str, il.Expr]:
    """Variables a conjunct ``v == literal`` of the kernel's ``requires`` fixes, e.g. a
    PolyBench ``__requires(n == 4096)``: name -> literal.

    ``vcgen.vc.encode.build_vc`` encodes the *initial* incarnation of ``v`` (its own name,
    ``passify``) as the literal, for the reason of ``encode.fixed_constants``: ``x / n`` and
    ``x % n`` become divisions by a constant instead of full dividers (64-bit ``long``
    index arithmetic of loop-nest kernels).  Sound: passification assumes every
    ``requires`` at the start of the entry block, on every path, so ``v`` equals the
    literal in every model; the assumption stays in the formula.  The candidate rules
    read the pinned parameters as literal coefficients (``KernelFacts.pinned``)."""
    out: dict[str, il.Expr] = {}
    for s in kernel.specs:
        if s.kind == "requires":
            for conj in il.conjuncts(s.expr):
                pin_literal(conj, None, out)
    return out


def pin_literal(e: il.Expr, names, out: dict) -> None:
    """Record ``v -> literal`` in ``out`` if ``e`` is ``v == literal`` or ``literal == v``
    with ``v`` in ``names`` (any variable when None)."""
    if not (isinstance(e, il.BinOp) and e.op == "=="):
        return
    for v, lit in ((e.left, e.right), (e.right, e.left)):
        if isinstance(v, il.Var) and (names is None or v.name in names) \
                and isinstance(lit, (il.BvLit, il.IntLit, il.BoolLit)):
            out.setdefault(v.name, lit)
