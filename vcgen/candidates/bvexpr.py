"""Bit-vector expression helpers shared by the candidate rules: operator names, constant
folding and the linear decomposition of offsets (paper 003 appendix A, rules r0-r3, r10).

All functions work on one-thread IL expressions (``vcgen.il``) over ``bvW`` values;
arithmetic is modular (``2**W``), as in the IL.
"""
from __future__ import annotations

from math import gcd
from typing import NamedTuple

from .. import il

CMP_TO_BOUND = {"SLT": "SLE", "SLE": "SLE", "ULT": "ULE", "ULE": "ULE",
                "SGT": "SGE", "SGE": "SGE", "UGT": "UGE", "UGE": "UGE"}
# IL operator -> SMT-LIB builtin, for every operator a candidate may build
SMT = {"SLE": "bvsle", "ULE": "bvule", "SGE": "bvsge", "UGE": "bvuge", "ULT": "bvult",
       "SUB": "bvsub", "UREM": "bvurem", "UDIV": "bvudiv", "AND": "bvand", "ADD": "bvadd",
       "MUL": "bvmul", "SHL": "bvshl"}
PREDICATES = ("SLE", "ULE", "SGE", "UGE", "ULT")
LINEAR_OPS = ("ADD", "SUB", "MUL", "SHL")
COMPONENTS = tuple(f"{k}_{d}" for k in ("local_id", "group_id") for d in "xyz")


class Linear(NamedTuple):
    """``e == coeff * x + rest`` (w-bit, modular), ``x`` in neither part."""
    coeff: il.Expr
    rest: il.Expr


class LinearTerms(NamedTuple):
    """``e == sum(coeffs[i] * terms[i]) + rest`` (w-bit)."""
    coeffs: list[il.Expr]
    rest: il.Expr


class Stride(NamedTuple):
    """``e - rest`` is a multiple of the power of two ``multiple`` (0: unknown)."""
    multiple: int
    rest: il.Expr


class NarrowOffset(NamedTuple):
    """A logged offset and index expression seen at ``width`` bits; ``zext``: the high bits
    are zero."""
    offset: il.Expr
    expr: il.Expr
    width: int
    zext: bool


def is_power_of_two(n: int) -> bool:
    """``n`` is ``2**k`` with ``k >= 1`` (a modulus or factor worth a candidate)."""
    return n > 1 and n & (n - 1) == 0


def bv_op(name: str) -> tuple[int, str] | None:
    """``BV32_SLT`` -> (32, "SLT"); None for names that are not bit-vector operators."""
    if not name.startswith("BV") or "_" not in name:
        return None
    w, op = name[2:].split("_", 1)
    return (int(w), op) if w.isdigit() else None


def op_of(e: il.Expr) -> tuple[int, str] | None:
    """``bv_op`` of a function application, else None."""
    return bv_op(e.name) if isinstance(e, il.FunApp) else None


def args_of(e: il.Expr) -> tuple[il.Expr, ...]:
    """The arguments of a function application (``()`` for any other expression)."""
    return e.args if isinstance(e, il.FunApp) else ()


def fold(op: str, w: int, a: il.Expr, b: il.Expr) -> il.Expr:
    """``BVw_op(a, b)``, computed when both are literals (ADD, SUB, MUL, SHL); x+0, x*1 simplified."""
    if isinstance(a, il.BvLit) and isinstance(b, il.BvLit):
        m = (1 << w) - 1
        v = {"ADD": a.value + b.value, "SUB": a.value - b.value, "MUL": a.value * b.value,
             "SHL": a.value << b.value if b.value < w else 0}[op]
        return il.BvLit(v & m, w)
    zero, one = il.BvLit(0, w), il.BvLit(1, w)
    if op == "ADD" and a == zero:
        return b
    if op in ("ADD", "SUB", "SHL") and b == zero:
        return a
    if op == "MUL" and one in (a, b):
        return b if a == one else a
    return il.FunApp(f"BV{w}_{op}", (a, b))


def fold_literals(e: il.Expr) -> il.Expr:
    """``e`` with every ``+ - * <<`` of two literals (after folding its operands) computed:
    ``BV32_MUL(512bv32, 2bv32)`` -> ``1024bv32``; other nodes are kept."""
    op = op_of(e)
    if op is None or op[1] not in ("ADD", "SUB", "MUL", "SHL") or len(args_of(e)) != 2:
        return e
    a, b = (fold_literals(x) for x in args_of(e))
    return fold(op[1], op[0], a, b)


def atoms(e: il.Expr, mod: set, w: int) -> list[il.Expr]:
    """Maximal sub-terms of ``e`` that mention ``mod`` and are not w-bit +, -, * or << nodes."""
    out: list = []

    def walk(x: il.Expr) -> None:
        if not (il.free_vars(x) & mod):
            return
        op = op_of(x)
        if op and op[0] == w and op[1] in LINEAR_OPS and len(args_of(x)) == 2:
            for a in args_of(x):
                walk(a)
        elif x not in out:
            out.append(x)
    walk(e)
    return out


def replace(e: il.Expr, old: il.Expr, new: il.Expr) -> il.Expr:
    """``e`` with every occurrence of the sub-term ``old`` (under function applications) replaced."""
    if e == old:
        return new
    if isinstance(e, il.FunApp):
        return il.FunApp(e.name, tuple(replace(a, old, new) for a in e.args))
    return e


def linear(e: il.Expr, x: str, w: int) -> Linear | None:
    """``(c, rest)`` with ``e == c * x + rest`` (w-bit, modular) and ``x`` in neither; else None."""
    zero = il.BvLit(0, w)
    if e == il.Var(x):
        return Linear(il.BvLit(1, w), zero)
    if x not in il.free_vars(e):
        return Linear(zero, e)
    op = op_of(e)
    if not op or op[0] != w or len(args_of(e)) != 2:
        return None
    a, b = args_of(e)
    if op[1] in ("ADD", "SUB"):
        la, lb = linear(a, x, w), linear(b, x, w)
        if la is None or lb is None:
            return None
        return Linear(fold(op[1], w, la[0], lb[0]), fold(op[1], w, la[1], lb[1]))
    if op[1] == "MUL":
        if x not in il.free_vars(b):
            la = linear(a, x, w)
            return None if la is None else Linear(fold("MUL", w, la[0], b), fold("MUL", w, la[1], b))
        if x not in il.free_vars(a):
            lb = linear(b, x, w)
            return None if lb is None else Linear(fold("MUL", w, a, lb[0]), fold("MUL", w, a, lb[1]))
    if op[1] == "SHL" and isinstance(b, il.BvLit):
        la = linear(a, x, w)
        return None if la is None else Linear(fold("SHL", w, la[0], b), fold("SHL", w, la[1], b))
    return None


def linear_terms(e: il.Expr, terms: list, w: int) -> LinearTerms | None:
    """``([c_1..c_n], rest)`` with ``e == sum(c_i * terms_i) + rest`` (w-bit); None if ``e``
    is not linear in some term.  Terms are sub-expressions (e.g. ``Var``s or atoms)."""
    coeffs: list[il.Expr] = []
    for i, t in enumerate(terms):
        x = f"$$term{i}"
        lin = linear(replace(e, t, il.Var(x)), x, w)
        if lin is None:
            return None
        coeffs.append(lin[0])
        e = lin[1]
    return LinearTerms(coeffs, e)


def common_stride(e: il.Expr, atom_list: list, w: int) -> Stride:
    """``(m, rest)``: ``e == sum(c_i * atom_i) + rest`` with every literal ``c_i`` a multiple of
    the power of two ``m`` (so ``e - rest`` is a multiple of ``m`` modulo ``2**w``); m = 0 if
    some coefficient is not a literal."""
    g = 0
    for i, atom in enumerate(atom_list):
        x = f"$$atom{i}"
        lin = linear(replace(e, atom, il.Var(x)), x, w)
        if lin is None or not isinstance(lin[0], il.BvLit):
            return Stride(0, e)
        g = gcd(g, lin[0].value)
        e = lin[1]
    if g == 0:
        return Stride(0, e)
    return Stride(g & -g, e)  # largest power of two dividing every coefficient


def narrow_offset(off: il.Expr, e: il.Expr, width: int, mixed: bool = False) -> NarrowOffset:
    """``(off', e', w, zext)``: a ``width``-bit offset ``off`` logged for the index expression
    ``e``; when ``e`` zero/sign-extends a narrower index (CUDA 64-bit pointers over 32-bit
    indices), the narrower view ``off[w:0]`` and index, with ``zext`` telling whether the
    high bits are zero.  With ``mixed``, also a ring expression over extensions of one
    narrower width (``extended_leaf_width``), viewed at its low bits: right for rules that
    separate threads by quotients and ranges, not for non-power-of-two residues (r1)."""
    op = op_of(e)
    if op and op[1] in (f"ZEXT{width}", f"SEXT{width}"):
        w = op[0]
        return NarrowOffset(il.BvExtract(off, w, 0), args_of(e)[0], w, op[1].startswith("ZEXT"))
    low = extended_leaf_width(e, width) if mixed else None
    if low is not None:  # ZEXT64(gid * w) + SEXT64(x): the low bits still separate threads
        return NarrowOffset(il.BvExtract(off, low, 0), low_bits(e, low), low, False)
    return NarrowOffset(off, e, width, False)


def extended_leaf_width(e: il.Expr, width: int) -> int | None:
    """The one narrower width ``w`` when ``e`` is a ``width``-bit ring expression
    (``+ - *``, shifts by literals) whose leaves are all literals or zero/sign extensions
    of ``w``-bit values, with at least one extension; else None.  Two equal such
    expressions agree on their low ``w`` bits, which ``low_bits`` computes exactly."""
    widths: set[int] = set()

    def walk(x: il.Expr) -> bool:
        if isinstance(x, il.BvLit):
            return True
        op = op_of(x)
        if op is None:
            return False
        args = args_of(x)
        if op[1] in (f"ZEXT{width}", f"SEXT{width}") and len(args) == 1 and op[0] < width:
            widths.add(op[0])
            return True
        if op[0] == width and op[1] in LINEAR_OPS and len(args) == 2:
            if op[1] == "SHL" and not isinstance(args[1], il.BvLit):
                return False
            return walk(args[0]) and walk(args[1])
        return False

    return widths.pop() if walk(e) and len(widths) == 1 else None


def low_bits(e: il.Expr, w: int) -> il.Expr:
    """``e[w:0]`` pushed through wider ``+ - * <<`` and extensions: taking the low ``w`` bits
    commutes with modular ring operations, so ``(ZEXT64(lid) + c1)[32:0]`` is
    ``lid + c1[32:0]`` (an OpenCL ``long`` index stored through a 32-bit pointer offset).
    Leaves are literals (reduced modulo ``2**w``) and ``x[w:0]``."""
    if isinstance(e, il.BvLit):
        return il.BvLit(e.value % (1 << w), w) if e.width >= w else il.BvExtract(e, w, 0)
    op = op_of(e)
    if op is not None and op[1] in LINEAR_OPS and len(args_of(e)) == 2 and op[0] > w:
        a, b = args_of(e)
        if op[1] == "SHL" and not isinstance(b, il.BvLit):
            return il.BvExtract(e, w, 0)
        return il.FunApp(f"BV{w}_{op[1]}", (low_bits(a, w), low_bits(b, w)))
    if op is not None and op[1][:4] in ("ZEXT", "SEXT") and len(args_of(e)) == 1:
        if op[0] == w:
            return args_of(e)[0]
        if op[0] > w:
            return low_bits(args_of(e)[0], w)
    return il.BvExtract(e, w, 0)


def peel_low_bits(e: il.Expr, w: int) -> il.Expr:
    """``e`` (w-bit) with each ``x[w:0]`` of a wider ring expression or extension replaced by
    ``low_bits(x, w)``: ``ZEXT64(lid)[32:0]`` is ``lid``, so the thread components of an
    index built in 64 bits and truncated per dimension (``shared_A[t0][c4]`` with ``long``
    ``t0 = get_local_id(0)``: ``ZEXT64(lid_x)[32:0] * 32 + c4[32:0]``) are seen as
    ``local_id_x`` by the rules that match linear forms."""
    def fn(x: il.Expr) -> il.Expr | None:
        if isinstance(x, il.BvExtract) and x.lo == 0 and x.hi == w:
            low = low_bits(x.operand, w)
            return low if low != x else None
        return None
    return il.rewrite(e, fn)

