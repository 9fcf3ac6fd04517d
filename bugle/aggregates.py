"""First-class aggregate values: LLVM vectors, structs and arrays held in registers.

docs/design.md section 4: integer operations are exact, float operations uninterpreted.
Representation (chosen for issue 3): an aggregate value is a *nested tuple* of IL
scalar expressions mirroring its type -- ``<4 x i32>`` is a 4-tuple of ``bv32``
expressions, ``{ float, [2 x i8] }`` is ``(bv32, (bv8, bv8))``; an ``i1`` element is a
``bool``.  So element-wise operations work per component with the scalar rules,
``extractelement``/``insertelement`` with a constant index are tuple operations (a
variable index is a nested ``if``), ``shufflevector`` picks components, and a vector
``bitcast`` goes through one bit-vector of the whole width (little endian: element 0
in the low bits), exactly as the target's memory would.

``Aggregates(tr)`` translates the aggregate instructions for the translator ``tr``
(see ``bugle.translate``), which provides ``operand``, ``value_type``,
``result_type``, ``assign_result``, ``fresh``, ``fns``, ``layout`` and ``last_loc``.
Errors: BugleError naming the construct (vectors of pointers, scalable vectors ...).
"""
from __future__ import annotations

from typing import Any

import llvmlite.binding as llvm

from vcgen import il

from . import BugleError, irtext
from .irtext import ArrayT, FloatT, IntT, PtrT, StructT, VectorT


def is_aggregate(t) -> bool:
    return isinstance(t, (VectorT, StructT, ArrayT))


def flatten(v) -> list[Any]:
    """Leaves of a nested-tuple value in memory order (a scalar gives ``[v]``)."""
    if isinstance(v, tuple):
        return [x for e in v for x in flatten(e)]
    return [v]


def unflatten(t, leaves: list, layout):
    """Rebuild the nested tuple of type ``t`` from ``leaves`` (consumed from the front)."""
    t = layout.resolve(t)
    if isinstance(t, VectorT):
        return tuple(unflatten(t.elem, leaves, layout) for _ in range(t.count))
    if isinstance(t, ArrayT):
        return tuple(unflatten(t.elem, leaves, layout) for _ in range(t.count))
    if isinstance(t, StructT):
        return tuple(unflatten(f, leaves, layout) for f in t.fields)
    return leaves.pop(0)


def leaf_types(t, layout) -> list[Any]:
    """Scalar leaf types of a value type, in the order of ``flatten``."""
    t = layout.resolve(t)
    if isinstance(t, (VectorT, ArrayT)):
        return [x for _ in range(t.count) for x in leaf_types(t.elem, layout)]
    if isinstance(t, StructT):
        return [x for f in t.fields for x in leaf_types(f, layout)]
    return [t]


def element_type(t, index: int, layout):
    """Type of member ``index`` of an aggregate type."""
    t = layout.resolve(t)
    if isinstance(t, (VectorT, ArrayT)):
        return t.elem
    if isinstance(t, StructT):
        return t.fields[index]
    raise BugleError(f"index into non-aggregate type {t}")


def _bits(e: il.Expr, t) -> il.Expr:
    """A scalar as a bit-vector of its width (bools become ``bv1``)."""
    if isinstance(t, IntT) and t.width == 1:
        return il.IfThenElse(e, il.BvLit(1, 1), il.BvLit(0, 1))
    return e


def _from_bits(e: il.Expr, t) -> il.Expr:
    if isinstance(t, IntT) and t.width == 1:
        return il.BinOp("==", e, il.BvLit(1, 1))
    return e


def _extract(e: il.Expr, hi: int, lo: int) -> il.Expr:
    if isinstance(e, il.BvLit):
        return il.BvLit((e.value >> lo) % (1 << (hi - lo)), hi - lo)
    if isinstance(e, il.BvExtract):
        return il.BvExtract(e.operand, e.lo + hi, e.lo + lo)
    return il.BvExtract(e, hi, lo)


def concat_le(parts: list) -> il.Expr:
    """Concatenate bit-vectors little endian: ``parts[0]`` ends up in the low bits."""
    e = parts[-1]
    for p in reversed(parts[:-1]):
        e = il.BvConcat(e, p)
    return e


def width_of(t, layout) -> int:
    t = layout.resolve(t)
    if isinstance(t, IntT):
        return t.width
    if isinstance(t, FloatT):
        return t.width
    raise BugleError(f"values of type {t} have no bit-vector form")


def split_le(e: il.Expr, total: int, widths: list) -> list[il.Expr]:
    """Inverse of ``concat_le``: slices of a ``total``-bit value, low bits first."""
    out, lo = [], 0
    for w in widths:
        out.append(e if (lo == 0 and w == total) else _extract(e, lo + w, lo))
        lo += w
    return out


class Aggregates:
    """Translation of vector and aggregate instructions (see module docstring)."""

    def __init__(self, tr):
        self.tr = tr

    # ---------------------------------------------------------------- constants
    def constant(self, node, t):
        """IL value (scalar expr or nested tuple) of a parsed constant of type ``t``."""
        tr = self.tr
        t = tr.layout.resolve(t)
        if isinstance(node, irtext.CUndef):
            if is_aggregate(t):
                return unflatten(t, [tr.fresh(tr.il_type(lt)) for lt in leaf_types(t, tr.layout)], tr.layout)
            return tr.fresh(tr.il_type(t))
        if isinstance(node, irtext.CZero):
            if is_aggregate(t):
                return unflatten(t, [self._zero(lt) for lt in leaf_types(t, tr.layout)], tr.layout)
            return self._zero(t)
        if isinstance(node, irtext.CAgg):
            if not is_aggregate(t):
                raise BugleError(f"aggregate constant of scalar type {t}", tr.last_loc)
            n = len(t.fields) if isinstance(t, StructT) else t.count
            if len(node.elems) != n:
                raise BugleError(f"constant of type {t} has {len(node.elems)} elements", tr.last_loc)
            return tuple(self.constant(e, element_type(t, k, tr.layout)) for k, e in enumerate(node.elems))
        if isinstance(node, irtext.CInt) and isinstance(t, IntT):
            return il.BoolLit(bool(node.value)) if t.width == 1 else il.BvLit(node.value % (1 << t.width), t.width)
        if isinstance(node, irtext.CFloat) and isinstance(t, FloatT):
            return il.BvLit(node.bits, node.width)
        raise BugleError(f"unsupported constant {node} of type {t}", tr.last_loc)

    def _zero(self, t) -> il.Expr:
        if isinstance(t, IntT) and t.width == 1:
            return il.FALSE
        if isinstance(t, PtrT):
            raise BugleError("aggregate constant with pointers is not supported", self.tr.last_loc)
        return il.BvLit(0, width_of(t, self.tr.layout))

    # ---------------------------------------------------------------- element-wise
    def lift(self, inst, opnd, scalar) -> tuple[Any, ...]:
        """Element-wise vector instruction: ``scalar(types, args, result_type)`` per lane;
        scalar operands (a ``select`` condition) are passed to every lane unchanged.
        Operands are read with ``opnd(value)``."""
        tr = self.tr
        ops = list(inst.operands)
        types = [tr.value_type(o) for o in ops]
        args = [opnd(o) for o in ops]
        rt = tr.result_type(inst)
        n = rt.count if isinstance(rt, VectorT) else next(t.count for t in types if isinstance(t, VectorT))
        lanes = []
        for k in range(n):
            lt = [t.elem if isinstance(t, VectorT) else t for t in types]
            la = [a[k] if isinstance(t, VectorT) else a for a, t in zip(args, types)]
            lanes.append(scalar(lt, la, rt.elem if isinstance(rt, VectorT) else rt))
        return tuple(lanes)

    # ---------------------------------------------------------------- vector ops
    def extractelement(self, inst, opnd=None) -> il.Expr:
        """One lane of a vector; operands via ``opnd(value)`` (default: their IL values)."""
        tr = self.tr
        opnd = opnd or tr.operand
        vec_v, idx_v = list(inst.operands)
        vec = opnd(vec_v)
        k = tr.const_int(idx_v)
        if k is not None:
            return vec[k] if k < len(vec) else tr.fresh(tr.il_type(tr.result_type(inst)))
        idx, w = opnd(idx_v), tr.int_width(tr.value_type(idx_v))
        out = vec[-1]  # an out-of-range index gives poison: any lane will do
        for j in reversed(range(len(vec) - 1)):
            out = il.IfThenElse(il.BinOp("==", idx, il.BvLit(j, w)), vec[j], out)
        return out

    def insertelement(self, inst) -> tuple[Any, ...]:
        tr = self.tr
        vec_v, val_v, idx_v = list(inst.operands)
        vec, val = tr.operand(vec_v), tr.operand(val_v)
        k = tr.const_int(idx_v)
        if k is not None:
            return tuple(val if j == k else x for j, x in enumerate(vec))
        idx, w = tr.operand(idx_v), tr.int_width(tr.value_type(idx_v))
        return tuple(il.IfThenElse(il.BinOp("==", idx, il.BvLit(j, w)), val, x) for j, x in enumerate(vec))

    def shufflevector(self, inst, it) -> tuple[Any, ...]:
        tr = self.tr
        a_v, b_v = list(inst.operands)[:2]
        try:
            mask = irtext.shuffle_mask(it.line)
        except irtext.IRTextError as e:
            raise BugleError(f"shufflevector: {e}", tr.last_loc) from None
        n = tr.value_type(a_v).count
        et = tr.il_type(tr.result_type(inst).elem)
        src = list(tr.operand(a_v)) + (list(tr.operand(b_v)) if not _is_undef(b_v) else [None] * n)
        return tuple(src[m] if m is not None and m < len(src) and src[m] is not None else tr.fresh(et)
                     for m in mask)

    def select(self, cond: il.Expr, a, b):
        """``select`` with a scalar condition between two aggregates: per leaf."""
        if isinstance(a, tuple):
            return tuple(self.select(cond, x, y) for x, y in zip(a, b))
        return il.IfThenElse(cond, a, b)

    def bitcast(self, inst, opnd) -> object:
        """Bitcast between vectors and scalars of the same total width."""
        tr = self.tr
        (src_v,) = list(inst.operands)
        st, rt = tr.value_type(src_v), tr.result_type(inst)
        src_leaves = leaf_types(st, tr.layout)
        dst_leaves = leaf_types(rt, tr.layout)
        if any(isinstance(x, PtrT) for x in src_leaves + dst_leaves):
            raise BugleError("bitcast of pointer vectors is not supported", tr.last_loc)
        sw = [width_of(x, tr.layout) for x in src_leaves]
        dw = [width_of(x, tr.layout) for x in dst_leaves]
        if sum(sw) != sum(dw):
            raise BugleError(f"bitcast between {st} and {rt} of different widths", tr.last_loc)
        whole = concat_le([_bits(e, t) for e, t in zip(flatten(opnd(src_v)), src_leaves)])
        parts = [_from_bits(e, t) for e, t in zip(split_le(whole, sum(sw), dw), dst_leaves)]
        return unflatten(rt, parts, tr.layout) if is_aggregate(rt) else parts[0]

    # ---------------------------------------------------------------- struct ops
    def extractvalue(self, inst, it):
        tr = self.tr
        agg = tr.operand(list(inst.operands)[0])
        for k in _indices(it, 1):
            if not isinstance(agg, tuple) or k >= len(agg):
                raise BugleError("extractvalue from an unsupported aggregate", tr.last_loc)
            agg = agg[k]
        return agg

    def insertvalue(self, inst, it):
        tr = self.tr
        ops = list(inst.operands)
        agg, val = tr.operand(ops[0]), tr.operand(ops[1])
        return _replace(agg, _indices(it, 2), val, tr)


def _is_undef(v) -> bool:
    return v.value_kind in (llvm.ValueKind.undef_value, llvm.ValueKind.poison_value)


def _indices(it, skip: int) -> list:
    """Constant indices of an ``extractvalue``/``insertvalue`` line (after ``skip`` operands)."""
    parts = irtext.split_top_level(it.body.split(None, 1)[1])
    out = []
    for p in parts[skip:]:
        p = p.strip()
        if p.startswith("!"):
            break
        out.append(int(p))
    return out


def _replace(agg, path: list, val, tr):
    if not path:
        return val
    if not isinstance(agg, tuple) or path[0] >= len(agg):
        raise BugleError("insertvalue into an unsupported aggregate", tr.last_loc)
    k = path[0]
    return agg[:k] + (_replace(agg[k], path[1:], val, tr),) + agg[k + 1:]
