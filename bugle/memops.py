"""Block memory operations: ``llvm.memcpy``/``llvm.memmove``/``llvm.memset`` and the
OpenCL ``vloadN``/``vstoreN`` builtins, lowered to one access per cell.

docs/design.md section 5.5: "memcpy/memset are range accesses" -- here each cell of the range
is an ordinary read or write command preceded by the call's source-location marker
(docs/IL.md), so the lock-step stage logs and checks them like any access and a race
between two threads copying overlapping ranges is found cell by cell.

* memcpy/memmove of a constant length L bytes: all source cells are read into
  temporaries first, then the destination cells are written (memmove semantics, which
  also covers memcpy).  Source and destination classes may have different cell sizes
  (e.g. a float array copied into a byte-level private struct); the bytes are regrouped
  little endian.  The memory model (``bugle.memory_model.cell_bytes``) keeps L a whole
  number of cells: a copy of non-element granularity makes the class byte-level.
* memset: every destination cell gets the value byte repeated.
* ``vloadN(offset, p)`` / ``vstoreN(data, offset, p)``: elements ``p[offset*N + k]``.

Errors (BugleError, exit 4): ``llvm.memcpy``/``memmove``/``memset`` with a non-constant
length ("... with a non-constant length is not supported"), ranges over
``MAX_CELLS`` cells, cell sizes that do not divide each other, ``vload_half``-style
conversions.
"""
from __future__ import annotations

import re

from vcgen import il

from . import BugleError
from .aggregates import concat_le, flatten
from .builtins import demangle_opencl
from .irtext import IntT, VectorT
from .memory_model import Ptr

MAX_CELLS = 4096
_BLOCK = re.compile(r"llvm\.(memcpy|memmove|memset)(\.inline)?\.")
_VEC = re.compile(r"(vload|vstore)(2|3|4|8|16)$")


def block_op(callee: str) -> str | None:
    """``memcpy``/``memmove``/``memset`` for the LLVM intrinsics, else None."""
    m = _BLOCK.match(callee)
    return m.group(1) if m else None


def vector_op(callee: str) -> tuple[str, int] | None:
    """``("vload"|"vstore", N)`` for an OpenCL vloadN/vstoreN builtin, else None."""
    m = _VEC.match(demangle_opencl(callee))
    return (m.group(1), int(m.group(2))) if m and callee.startswith("_Z") else None


class MemOps:
    """Lowering of block memory operations for the translator ``tr`` (bugle.translate)."""

    def __init__(self, tr):
        self.tr = tr
        self.count = 0

    # ------------------------------------------------------------ pre-pass facts
    def facts(self, inst, it) -> bool:
        """Record access facts of a block operation (points-to classes, cell choice);
        False if ``inst`` is not one."""
        tr = self.tr
        ops = list(inst.operands)
        callee = ops[-1].name
        kind = block_op(callee)
        if kind is not None:
            length = tr.const_int(ops[2])
            if length is None:
                raise BugleError(f"llvm.{kind} with a non-constant length is not supported", tr.loc(it))
            ptrs = (ops[0],) if kind == "memset" else (ops[0], ops[1])
            for p in ptrs:
                if length:
                    tr.facts(tr.node(p, it)).copy_sizes.add(length)
                else:
                    tr.node(p, it)
            return True
        vec = vector_op(callee)
        if vec is not None:
            et = self._elem_type(inst, vec[0], ops)
            f = tr.facts(tr.node(ops[-2], it))
            size = tr.layout.size(et)
            f.access_sizes.add(size)
            f.access_types.append(et)
            f.steps.add(size)
            return True
        return False

    def _elem_type(self, inst, kind: str, ops: list):
        t = self.tr.result_type(inst) if kind == "vload" else self.tr.value_type(ops[0])
        if not isinstance(t, VectorT):
            raise BugleError(f"{kind} of non-vector type {t}", self.tr.last_loc)
        return t.elem

    # ------------------------------------------------------------ translation
    def translate(self, inst, it, callee: str, loc) -> bool:
        """Emit the accesses of a block operation; False if ``callee`` is not one."""
        ops = list(inst.operands)
        kind = block_op(callee)
        if kind == "memset":
            self._memset(ops[0], ops[1], ops[2], it, loc)
            return True
        if kind is not None:
            self._memcpy(ops[0], ops[1], ops[2], it, loc, kind)
            return True
        vec = vector_op(callee)
        if vec is not None:
            if vec[0] == "vload":
                self._vload(inst, vec[1], ops, it, loc)
            else:
                self._vstore(vec[1], ops, it, loc)
            return True
        return False

    def _tmp(self, what: str, k: int, t: il.Type) -> il.Var:
        return self.tr.local(f"${what}${self.count}${k}", t)

    def _length(self, v, kind: str, loc) -> int:
        n = self.tr.const_int(v)
        if n is None:
            raise BugleError(f"llvm.{kind} with a non-constant length is not supported", loc)
        return n

    def _memcpy(self, dst_v, src_v, len_v, it, loc, kind: str) -> None:
        tr = self.tr
        n = self._length(len_v, kind, loc)
        if n == 0:
            return
        dst, src = tr.pointer(dst_v, it), tr.pointer(src_v, it)
        cs, cd = tr.cell_of(src.cls), tr.cell_of(dst.cls)
        if n % cs or n % cd:
            raise BugleError(f"internal: llvm.{kind} of {n} bytes is not whole cells ({cs}, {cd})", loc)
        if max(cs, cd) % min(cs, cd):
            raise BugleError(f"llvm.{kind} between arrays of {cs}- and {cd}-byte cells is not supported", loc)
        if n // min(cs, cd) > MAX_CELLS:
            raise BugleError(f"llvm.{kind} of {n} bytes is too large to expand (limit {MAX_CELLS} cells)", loc)
        self.count += 1
        temps = [self._tmp("copy", j, il.BvType(8 * cs)) for j in range(n // cs)]
        tr.access(src, None, loc, lambda arr, idx: [
            il.assign(t.name, il.MapSelect(il.Var(arr.name), tr.cell_index(arr, idx, j * cs)))
            for j, t in enumerate(temps)])
        self._write_cells(dst, _regroup(temps, cs, cd), cd, loc)

    def _memset(self, dst_v, val_v, len_v, it, loc) -> None:
        tr = self.tr
        n = self._length(len_v, "memset", loc)
        if n == 0:
            return
        dst = tr.pointer(dst_v, it)
        cd = tr.cell_of(dst.cls)
        if n % cd:
            raise BugleError(f"internal: llvm.memset of {n} bytes is not whole cells ({cd})", loc)
        if n // cd > MAX_CELLS:
            raise BugleError(f"llvm.memset of {n} bytes is too large to expand (limit {MAX_CELLS} cells)", loc)
        byte = tr.operand(val_v)
        cell: il.Expr
        if isinstance(byte, il.BvLit):
            cell = il.BvLit(int.from_bytes(bytes([byte.value]) * cd, "little"), 8 * cd)
        else:
            cell = concat_le([byte] * cd)
        self.count += 1
        self._write_cells(dst, [cell] * (n // cd), cd, loc)

    def _write_cells(self, dst, values: list, cd: int, loc) -> None:
        tr = self.tr

        def make(arr, idx):
            tr.written.add(arr.name)
            return [il.Assign((il.MapLhs(arr.name, tr.cell_index(arr, idx, m * cd)),), (v,))
                    for m, v in enumerate(values)]
        tr.access(dst, None, loc, make)

    # ------------------------------------------------------------ vload / vstore
    def _element_ptr(self, p, off_v, count: int, esize: int):
        """``p + off * count`` elements, as a pointer of ``p``'s class."""
        tr = self.tr
        cell = tr.cell_of(p.cls)
        w = tr.int_width(tr.value_type(off_v))
        o = tr.fns.extend(False, w, tr.P, tr.operand(off_v)) if w < tr.P else (
            il.BvExtract(tr.operand(off_v), tr.P, 0) if w > tr.P else tr.operand(off_v))
        stride = count * esize // cell
        term = o if stride == 1 else tr.fns.bv("MUL", tr.P, o, il.BvLit(stride, tr.P))
        off = term if p.offset == il.BvLit(0, tr.P) else tr.fns.bv("ADD", tr.P, p.offset, term)
        return Ptr(p.base, off, p.cls)

    def _vload(self, inst, count: int, ops: list, it, loc) -> None:
        tr = self.tr
        et = self._elem_type(inst, "vload", ops)
        esize = tr.layout.size(et)
        p = self._element_ptr(tr.pointer(ops[1], it), ops[0], count, esize)
        vs = tr.agg_vars(inst)
        dests = flatten(vs)

        def make(arr, idx):
            return [c for k, d in enumerate(dests) for c in tr.read_cells(arr, tr.cell_index(arr, idx, k * esize), et, d)]
        tr.access(p, None, loc, make)
        tr.values[inst.name] = vs

    def _vstore(self, count: int, ops: list, it, loc) -> None:
        tr = self.tr
        et = self._elem_type(None, "vstore", ops)
        if isinstance(et, IntT) and et.width == 1:
            raise BugleError("vstore of a boolean vector is not supported", loc)
        esize = tr.layout.size(et)
        p = self._element_ptr(tr.pointer(ops[2], it), ops[1], count, esize)
        vals = flatten(tr.operand(ops[0]))

        def make(arr, idx):
            return [c for k, v in enumerate(vals) for c in tr.write_cells(arr, tr.cell_index(arr, idx, k * esize), et, v)]
        tr.access(p, None, loc, make)


def _regroup(cells: list, cs: int, cd: int) -> list:
    """Values of ``cd``-byte cells holding the bytes of the ``cs``-byte ``cells``."""
    if cs == cd:
        return list(cells)
    if cd > cs:
        r = cd // cs
        return [concat_le(cells[m * r:(m + 1) * r]) for m in range(len(cells) // r)]
    r = cs // cd
    out = []
    for m in range(len(cells) * r):
        lo = (m % r) * 8 * cd
        out.append(il.BvExtract(cells[m // r], lo + 8 * cd, lo))
    return out
