"""Atomic read-modify-write operations -> calls of ``{:atomic}`` procedures.

docs/design.md section 5.9 and paper 000 section 7 ("prototype support for atomic operations
... through a refinement to the adversarial abstraction", Bardsley and Donaldson 2014):
an atomic never races with another atomic, races with plain reads and writes of the same
element, and returns an arbitrary value.  Here every atomic becomes (docs/IL.md, "Atomic
read-modify-write")::

    assume {:sourceloc "k.cl", 3, 3} true;
    call {:sourceloc "k.cl", 3, 3} {:atomic "$$A", "add"} $old := $bugle_atomic_bv32_bv32(offset, value);

Recognised: LLVM ``atomicrmw`` (every operation: ``xchg add sub and nand or xor max min
umax umin fadd fsub fmax fmin uinc_wrap udec_wrap ...``; the operation is only a label),
``cmpxchg`` (result ``{ iN, i1 }``: the old value, and the success flag, which is
``old == compare`` for a strong and any value implying it for a ``weak`` one), the OpenCL
1.2 builtins ``atomic_{add,sub,xchg,inc,dec,cmpxchg,min,max,and,or,xor}`` and
``atom_*`` (clang emits calls to mangled declarations such as
``_Z10atomic_addPU3AS1Vii``; ``inc``/``dec`` are ``add``/``sub`` of 1, ``min``/``max`` on
``uint``/``ulong`` are ``umin``/``umax``), and ``load atomic``/``store atomic`` (operations
``load``/``store``: they race with plain accesses too -- an atomic load against a plain
read is a false alarm, never a missed race).  CUDA's ``atomicAdd`` ... are defined in our
``cuda.h`` as single ``atomicrmw``/``cmpxchg`` instructions.  Orderings and sync scopes
are ignored: they order one thread's accesses, they never separate two threads' ones.

Procedures, one per signature (all bit-vectors; P = pointer width, W = access width):
``$bugle_atomic_bvP_bvW(offset: bvP, value: bvW) returns (old: bvW)``; for
compare-exchange ``$bugle_atomic_cmpxchg_bvP_bvW(offset: bvP, compare: bvW, value: bvW)
returns (old: bvW)``; for an atomic load ``$bugle_atomic_load_bvP_bvW(offset: bvP) returns
(old: bvW)`` (an atomic store uses the first form, its result unused).  ``offset`` is in
cells of the array, like a plain access's index.

Memory model cases:
  * element-level array (cell = W/8 bytes): one call;
  * byte-level array (``elem_width 8``): one call per byte cell ``offset + k``, each with
    the k-th byte of the operands, returning a byte; the result is the little-endian
    concatenation (each byte is arbitrary, so the value is arbitrary as it should be);
  * several possible arrays: the translator's case split, one call per array, null ->
    ``{:null_pointer}``;
  * private memory (no other thread can see it): a plain read of the old value and a
    write of an arbitrary value (sound; the exact new value is not computed);
  * constant memory: BugleError (it cannot be written).

Errors (BugleError, exit 4): atomics on pointer values or on constant memory, cell sizes
that do not fit the access.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import llvmlite.binding as llvm

from vcgen import il

from . import BugleError
from .builtins import demangle_opencl
from .irtext import FloatT, IntT, IRTextError, PtrT, StructT

VK = llvm.ValueKind

# OpenCL 1.2 sections 6.12.11 (atomic_*) and 9.5-9.6 (atom_*): suffix -> (operation,
# implicit operand) -- inc/dec add/subtract 1.
OPENCL_OPS = {"add": ("add", None), "sub": ("sub", None), "xchg": ("xchg", None),
              "inc": ("add", 1), "dec": ("sub", 1), "cmpxchg": ("cmpxchg", None),
              "min": ("min", None), "max": ("max", None), "and": ("and", None),
              "or": ("or", None), "xor": ("xor", None)}
_OPENCL_NAME = re.compile(r"(?:atomic|atom)_(\w+)$")
_UNSIGNED_CODES = ("j", "m")  # Itanium: unsigned int, unsigned long


@dataclass(frozen=True)
class AtomicSite:
    """One atomic in the pre-pass and translation: the pointer operand, the accessed
    value type (LLVM), the operation label and the operand values (LLVM values or
    ``int`` constants for the implicit operand of ``atomic_inc``/``atomic_dec``)."""
    ptr: Any  # an llvmlite ValueRef
    vtype: object
    op: str
    operands: tuple


_OPERAND_NAMES = {0: (), 1: ("value",), 2: ("compare", "value")}
_KIND_PREFIX = {0: "load_", 1: "", 2: "cmpxchg_"}


def procedure_name(ptr_bits: int, width: int, operands: int) -> str:
    """Name of the atomic procedure of a signature (offset bit-vector width, access width in
    bits, number of operands 0-2): ``$bugle_atomic_bv32_bv32``,
    ``$bugle_atomic_cmpxchg_bv64_bv32``, ``$bugle_atomic_load_bv32_bv64``."""
    return f"$bugle_atomic_{_KIND_PREFIX[operands]}bv{ptr_bits}_bv{width}"


def opencl_atomic(callee: str) -> tuple[str, int | None] | None:
    """``(operation, implicit operand or None)`` of an OpenCL atomic builtin declaration
    name (``_Z10atomic_maxPU3AS1Vjj`` -> ``("umax", None)``), else None."""
    if not callee.startswith("_Z"):
        return None
    m = _OPENCL_NAME.match(demangle_opencl(callee))
    if not m or m.group(1) not in OPENCL_OPS:
        return None
    op, implicit = OPENCL_OPS[m.group(1)]
    if op in ("min", "max") and callee[-1] in _UNSIGNED_CODES:
        op = "u" + op
    return op, implicit


class Atomics:
    """Atomic operations for the translator ``tr`` (bugle.translate.Translator): facts for
    the memory model, translation of instructions and builtin calls, procedure decls."""

    def __init__(self, tr):
        self.tr = tr
        self.signatures: set = set()  # (width in bits, number of operands)
        self.stores = 0

    # ------------------------------------------------------------ recognition
    def site(self, inst, it) -> AtomicSite | None:
        """The atomic performed by ``inst`` (an instruction or an OpenCL builtin call), or
        None.  BugleError for shapes that are atomics but not supported."""
        tr = self.tr
        op = inst.opcode
        ops = list(inst.operands)
        loc = tr.loc(it)
        if op in ("load", "store"):
            if not it.is_atomic_access():
                return None
            vt = tr.result_type(inst) if op == "load" else tr.value_type(ops[0])
            if not isinstance(vt, (IntT, FloatT)):
                raise BugleError(f"atomic {op} of {vt} is not supported", loc)
            return AtomicSite(ops[0] if op == "load" else ops[1], vt, op,
                              () if op == "load" else (ops[0],))
        if op in ("atomicrmw", "cmpxchg"):
            try:
                at = it.atomic()
            except IRTextError as e:
                raise BugleError(f"cannot read atomic instruction: {e}", loc) from None
            vt = tr.value_type(ops[1])
            if isinstance(vt, PtrT):
                raise BugleError(f"atomic {at.op} on a pointer value is not supported", loc)
            return AtomicSite(ops[0], vt, at.op, tuple(ops[1:]))
        if op == "call" and ops and ops[-1].value_kind == VK.function \
                and ops[-1].name not in tr.mt.functions:
            found = opencl_atomic(ops[-1].name)
            if found is None or not ops[:-1] or not isinstance(tr.value_type(ops[0]), PtrT):
                return None
            name, implicit = found
            vt = tr.result_type(inst)
            if not isinstance(vt, IntT) and name not in ("xchg",):
                raise BugleError(f"atomic operation {demangle_opencl(ops[-1].name)} on {vt} "
                                 "is not supported", loc)
            operands = tuple(ops[1:-1]) + ((implicit,) if implicit is not None else ())
            expected = 2 if name == "cmpxchg" else 1
            if len(operands) != expected:
                raise BugleError(f"atomic operation {demangle_opencl(ops[-1].name)} with "
                                 f"{len(operands)} operands is not supported", loc)
            return AtomicSite(ops[0], vt, name, operands)
        return None

    # ------------------------------------------------------------ pre-pass facts
    def facts(self, inst, it) -> bool:
        """Record the access of an atomic for the memory model (like a load/store of its
        width); False if ``inst`` is not an atomic."""
        s = self.site(inst, it)
        if s is None:
            return False
        tr = self.tr
        f = tr.facts(tr.node(s.ptr, it))
        f.access_sizes.add(tr.layout.size(s.vtype))
        f.access_types.append(s.vtype)
        if s.ptr.value_kind == VK.constant_expr:
            _, off = tr.constexpr(s.ptr, it)
            if off:
                f.steps.add(abs(off))
        return True

    # ------------------------------------------------------------ translation
    def translate(self, inst, it, loc) -> bool:
        """Emit the atomic of ``inst`` and bind its result; False if not an atomic."""
        s = self.site(inst, it)
        if s is None:
            return False
        tr = self.tr
        width = 8 * tr.layout.size(s.vtype)
        vals = tuple(il.BvLit(v % (1 << width), width) if isinstance(v, int) else tr.operand(v)
                     for v in s.operands)
        if inst.opcode == "store":  # the old value is not used
            self.stores += 1
            old = tr.local(f"$atomic_store${self.stores}", tr.il_type(s.vtype, loc))
            vs = ok = None
        elif isinstance(tr.result_type(inst), StructT):  # cmpxchg instruction: { old, success }
            vs = tr.agg_vars(inst)
            old, ok = vs
        else:
            old = tr.local(tr.vname(inst.name), tr.il_type(s.vtype, loc))
            vs = ok = None
        ptr = tr.pointer(s.ptr, it)
        tr.access(ptr, s.vtype, loc, lambda arr, idx: self._commands(arr, idx, s, vals, old, loc))
        if ok is not None:
            same = il.BinOp("==", old, vals[0])
            if it.atomic().weak:  # may fail spuriously: success only implies equality
                tr.emit(il.Havoc((ok.name,)))
                tr.emit(il.Assume(il.implies(ok, same)))
            else:
                tr.emit(il.assign(ok.name, same))
        if inst.opcode != "store":
            tr.values[inst.name] = vs if vs is not None else old
        return True

    def _commands(self, arr, idx: il.Expr, s: AtomicSite, vals: tuple, old: il.Var, loc) -> list:
        """Commands of the atomic on array ``arr`` at cell ``idx`` (see module doc)."""
        tr = self.tr
        size = tr.layout.size(s.vtype)
        if arr.space == "constant":
            raise BugleError(f"atomic {s.op} on constant memory ({arr.source_name})", loc)
        if arr.space == "private":
            return self._private(arr, idx, s, vals, old)
        tr.written.add(arr.name)
        attrs = (tr.sourceloc(loc), il.Attr("atomic", (arr.name, s.op)))
        if arr.cell == size:
            return [self._call(size, (idx,) + vals, old.name, attrs)]
        if arr.cell != 1:
            raise BugleError(f"internal: {8 * size}-bit atomic on {arr.name} with "
                             f"{arr.cell}-byte cells", loc)
        cmds, parts = [], []
        for k in range(size):
            b = tr.local(f"{old.name}$b{k}", il.BV8)
            cmds.append(self._call(1, (tr.plus(idx, k),) + tuple(_byte(v, k) for v in vals),
                                   b.name, attrs))
            parts.append(b)
        e = parts[-1]
        for b in reversed(parts[:-1]):
            e = il.BvConcat(e, b)
        return cmds + [il.assign(old.name, e)]

    def _call(self, size: int, args: tuple, out: str, attrs: tuple) -> il.Call:
        n = len(args) - 1
        self.signatures.add((8 * size, n))
        return il.Call(procedure_name(self.tr.P, 8 * size, n), args, (out,), attrs)

    def _private(self, arr, idx: il.Expr, s: AtomicSite, vals: tuple, old: il.Var) -> list:
        """On the thread's own memory: read the old value, then write any value (exact for
        an atomic load or store)."""
        tr = self.tr
        if s.op == "load":
            return tr.read_cells(arr, idx, s.vtype, old)
        if s.op == "store":
            return tr.write_cells(arr, idx, s.vtype, vals[0])
        new = tr.local(f"{old.name}$new", tr.il_type(s.vtype))
        return tr.read_cells(arr, idx, s.vtype, old) + [il.Havoc((new.name,))] + \
            tr.write_cells(arr, idx, s.vtype, new)

    # ------------------------------------------------------------ declarations
    def decls(self) -> list[il.ProcedureDecl]:
        """``procedure {:atomic} $bugle_atomic_...(offset: bvP, ...) returns (old: bvW);``
        for every signature used, in a fixed order."""
        P = self.tr.P
        out = []
        for width, n in sorted(self.signatures):
            w = il.BvType(width)
            params = (("offset", il.BvType(P)),) + tuple((x, w) for x in _OPERAND_NAMES[n])
            out.append(il.ProcedureDecl(procedure_name(P, width, n), params, (("old", w),),
                                        attrs=(il.Attr("atomic"),)))
        return out


def _byte(e: il.Expr, k: int) -> il.Expr:
    """Byte ``k`` (little endian) of a bit-vector expression."""
    if isinstance(e, il.BvLit):
        return il.BvLit((e.value >> (8 * k)) % 256, 8)
    return il.BvExtract(e, 8 * k + 8, 8 * k)
