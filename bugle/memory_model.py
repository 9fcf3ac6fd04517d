"""The memory model: type layout, arrays, and the element-level / byte-level choice.

Paper 000 section 6.1: every array is a map from offsets to cells.  An array is
*element-level* (cell = one element of E bytes, index = byte offset / E) when a
type-based check shows that every access through every pointer that may point to it
is whole-element at one width E and every offset contribution (GEP stride or
constant) is a multiple of E, so all offsets stay E-aligned.  Otherwise it is
*byte-level*: a ``[bvP]bv8`` map, a W-byte access is W one-byte commands, little endian.

The decision is made per points-to class (``bugle.steensgaard``): a pointer's offset
must have one unit whatever array it points to, so all arrays a pointer may point to
share the granularity.

Layout follows LLVM's default data layout rules for the targets we use (spir, spir64,
nvptx64): ABI alignment of a scalar is its size (i1 counts as a byte), of a vector its
size rounded up to a power of two, of an aggregate its largest member; arrays of T are
``count * alloc_size(T)``; non-packed structs pad each field to its alignment.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from math import gcd
from typing import Any

from vcgen import il

from .irtext import ArrayT, CAgg, CFloat, CInt, CZero, FloatT, IntT, NamedT, PtrT, StructT, VectorT


@dataclass(frozen=True)
class Ptr:
    """A pointer value: ``base`` (IntLit array number or a Var), ``offset`` (bvP, cells),
    ``cls`` its points-to class (``bugle.steensgaard``)."""
    base: il.Expr
    offset: il.Expr
    cls: object


class LayoutError(ValueError):
    """A type without a size (opaque struct, ``void`` ...)."""


class Layout:
    """Sizes and offsets in bytes for a given pointer width and named struct table."""

    def __init__(self, pointer_bits: int, structs: dict):
        self.pointer_bits = pointer_bits
        self.structs = structs

    def resolve(self, t):
        while isinstance(t, NamedT):
            if t.name not in self.structs:
                raise LayoutError(f"unknown type %{t.name}")
            t = self.structs[t.name]
        return t

    def size(self, t) -> int:
        """Store size in bytes (``i1`` = 1, ``<3 x float>`` = 12)."""
        t = self.resolve(t)
        if isinstance(t, IntT):
            return (t.width + 7) // 8
        if isinstance(t, FloatT):
            return {80: 10}.get(t.width, t.width // 8)
        if isinstance(t, PtrT):
            return self.pointer_bits // 8
        if isinstance(t, ArrayT):
            return t.count * self.alloc_size(t.elem)
        if isinstance(t, VectorT):
            return (t.count * self.bits(t.elem) + 7) // 8
        if isinstance(t, StructT):
            offs = self.field_offsets(t)
            return offs[-1] + self.size(t.fields[-1]) if t.fields else 0
        raise LayoutError(f"type {t} has no size")

    def bits(self, t) -> int:
        """Width in bits of a first-class scalar or vector value."""
        t = self.resolve(t)
        if isinstance(t, IntT):
            return t.width
        if isinstance(t, FloatT):
            return t.width
        if isinstance(t, PtrT):
            return self.pointer_bits
        if isinstance(t, VectorT):
            return t.count * self.bits(t.elem)
        return 8 * self.size(t)

    def align(self, t) -> int:
        t = self.resolve(t)
        if isinstance(t, (IntT, FloatT, PtrT)):
            s = self.size(t)
            return 16 if s > 8 else _pow2_ceil(s)
        if isinstance(t, VectorT):
            return _pow2_ceil(self.size(t))
        if isinstance(t, ArrayT):
            return self.align(t.elem)
        if isinstance(t, StructT):
            if t.packed or not t.fields:
                return 1
            return max(self.align(f) for f in t.fields)
        raise LayoutError(f"type {t} has no alignment")

    def alloc_size(self, t) -> int:
        """Size including tail padding: the stride of an array of ``t``."""
        s, a = self.size(t), self.align(t)
        return (s + a - 1) // a * a

    def field_offsets(self, t: StructT) -> list[int]:
        offs, cur = [], 0
        for f in t.fields:
            if not t.packed:
                a = self.align(f)
                cur = (cur + a - 1) // a * a
            offs.append(cur)
            cur += self.alloc_size(f)
        return offs

    def leaves(self, t, base: int = 0) -> list[tuple[int, Any]]:
        """Scalar leaves of a first-class type in memory order: ``[(byte offset, type)]``.

        Vectors, arrays and structs are flattened (struct padding skipped); the nested
        tuple representation of aggregate values in ``bugle.translate`` has its leaves in
        this order.  LayoutError for types without a size.
        """
        t = self.resolve(t)
        if isinstance(t, (IntT, FloatT, PtrT)):
            return [(base, t)]
        if isinstance(t, VectorT):
            step = self.size(t.elem)
            return [x for k in range(t.count) for x in self.leaves(t.elem, base + k * step)]
        if isinstance(t, ArrayT):
            step = self.alloc_size(t.elem)
            return [x for k in range(t.count) for x in self.leaves(t.elem, base + k * step)]
        if isinstance(t, StructT):
            return [x for f, off in zip(t.fields, self.field_offsets(t)) for x in self.leaves(f, base + off)]
        raise LayoutError(f"type {t} has no size")

    def gep_steps(self, source_type, n_indices: int, const_indices: list) -> list[tuple[str, int]]:
        """Per-index description of a GEP: ``("scale", bytes)`` for an index multiplied by a
        stride, or ``("field", bytes)`` for a struct field whose constant index is
        ``const_indices[k]`` (an int; None for non-constant indices, which are illegal
        into structs).  The first index steps over ``source_type`` itself.
        """
        steps = [("scale", self.alloc_size(source_type))]
        t = source_type
        for k in range(1, n_indices):
            t = self.resolve(t)
            if isinstance(t, ArrayT):
                t = t.elem
                steps.append(("scale", self.alloc_size(t)))
            elif isinstance(t, VectorT):
                t = t.elem
                steps.append(("scale", self.size(t)))
            elif isinstance(t, StructT):
                c = const_indices[k]
                if c is None:
                    raise LayoutError("non-constant index into a struct")
                steps.append(("field", self.field_offsets(t)[c]))
                t = t.fields[c]
            else:
                raise LayoutError(f"GEP index into non-aggregate type {t}")
        return steps


def _pow2_ceil(n: int) -> int:
    p = 1
    while p < n:
        p *= 2
    return p


def scalar_leaf(t, layout: Layout):
    """The innermost element type of nested arrays (``[4 x [8 x float]]`` -> float)."""
    t = layout.resolve(t)
    while isinstance(t, ArrayT):
        t = layout.resolve(t.elem)
    return t


C_NAMES = {8: "char", 16: "short", 32: "int", 64: "long"}
# scalar element type names as kernel_arg_type spells them
C_SCALAR_NAMES = {"char", "uchar", "unsigned char", "signed char", "short", "ushort", "unsigned short",
                  "int", "uint", "unsigned int", "long", "ulong", "unsigned long", "long long",
                  "unsigned long long", "float", "double", "half", "bool", "size_t", "ptrdiff_t",
                  "intptr_t", "uintptr_t"}


# bytes of an element of the C types OpenCL names in kernel_arg_type (a 3-vector takes 4)
_C_BYTES = {"char": 1, "uchar": 1, "unsigned char": 1, "signed char": 1, "bool": 1, "short": 2,
            "ushort": 2, "unsigned short": 2, "half": 2, "int": 4, "uint": 4, "unsigned int": 4,
            "float": 4, "long": 8, "ulong": 8, "unsigned long": 8, "double": 8}


def c_type_bytes(name: str | None) -> int | None:
    """Array stride in bytes of a C scalar or OpenCL vector type name (``int3`` = 16), or None."""
    if not name:
        return None
    base = name.rstrip("0123456789")
    if base == name:
        return _C_BYTES.get(name)
    n = int(name[len(base):])
    return _C_BYTES[base] * (4 if n == 3 else n) if base in _C_BYTES and n in (2, 3, 4, 8, 16) else None


def source_layout(a: Array, facts: ClassFacts, layout: Layout) -> tuple[int | None, tuple]:
    """``(element bytes, dimensions)`` of the source array behind ``a``, for reports
    (``L[1][2][3][3] (bytes 8..11)``): a declared array's nested extents and leaf type;
    else the declared C element type (OpenCL ``kernel_arg_type``); else the widest type
    the kernel indexes the array with (``getelementptr``).  Element bytes are None when no
    wider than a cell (or not a whole number of cells)."""
    dims: list[int] = []
    size = None
    if a.llvm_type is not None:
        t = layout.resolve(a.llvm_type)
        while isinstance(t, ArrayT):
            dims.append(t.count)
            t = layout.resolve(t.elem)
        try:
            size = layout.alloc_size(t)
        except LayoutError:
            size = None
    else:
        size = c_type_bytes(a.elem_type) or (max(facts.gep_sizes) if facts.gep_sizes else None)
    if size is not None and (size <= a.cell or size % a.cell):
        size = None
    return size, tuple(dims) if len(dims) > 1 else ()


def constant_bytes(node, t, layout: Layout) -> bytes | None:
    """The memory image of a constant of type ``t`` (little-endian, padding zero), or None
    when some part is not a known number (``undef``, addresses, constant expressions)."""
    t = layout.resolve(t)
    if isinstance(node, CZero):
        return bytes(layout.alloc_size(t))
    if isinstance(node, CInt) and isinstance(t, IntT):
        return (node.value % (1 << t.width)).to_bytes(layout.size(t), "little")
    if isinstance(node, CFloat) and isinstance(t, FloatT):
        return node.bits.to_bytes(layout.size(t), "little")
    if not isinstance(node, CAgg):
        return None
    if isinstance(t, (ArrayT, VectorT)):
        stride = layout.alloc_size(t.elem) if isinstance(t, ArrayT) else layout.size(t.elem)
        if len(node.elems) != t.count:
            return None
        image = bytearray()
        for e in node.elems:
            b = constant_bytes(e, t.elem, layout)
            if b is None:
                return None
            image += b + bytes(stride - len(b))
        return bytes(image + bytes(layout.alloc_size(t) - len(image)))
    if isinstance(t, StructT) and len(node.elems) == len(t.fields):
        buf = bytearray(layout.alloc_size(t))
        for off, e, ft in zip(layout.field_offsets(t), node.elems, t.fields):
            b = constant_bytes(e, ft, layout)
            if b is None:
                return None
            buf[off:off + len(b)] = b
        return bytes(buf)
    return None


def c_type_name(t) -> str | None:
    """A C spelling of a scalar LLVM type for report messages, or None."""
    if isinstance(t, IntT):
        return "bool" if t.width == 1 else C_NAMES.get(t.width)
    if isinstance(t, FloatT):
        return {16: "half", 32: "float", 64: "double"}.get(t.width)
    return None


@dataclass
class ClassFacts:
    """What the translator saw for one points-to class: access sizes and offset steps (bytes)."""
    access_sizes: set = field(default_factory=set)
    steps: set = field(default_factory=set)  # strides of variable indices and constant offsets
    force_bytes: bool = False  # e.g. an access the type check cannot see
    access_types: list = field(default_factory=list)
    copy_sizes: set = field(default_factory=set)  # lengths of memcpy/memset ranges (bytes)
    gep_sizes: set = field(default_factory=set)  # sizes of getelementptr source types (bytes)


def cell_bytes(facts: ClassFacts, natural: int | None) -> int:
    """Cell size in bytes for a class: E if element-level at E bytes, 1 if byte-level.

    ``natural`` is the element size suggested by declarations, used only when the class
    has no scalar accesses.  Block copies (``memcpy``/``memset`` of ``copy_sizes``
    bytes) are whole cells only if the cell divides their length: a copy of
    non-element granularity makes the class byte-level.  A class touched only by block
    copies gets the declared element size if it fits, else the widest power of two up to
    4 bytes (a typical scalar) dividing every length and offset step (every access is then whole cells).
    """
    if facts.force_bytes:
        return 1
    g = 0
    for s in facts.steps:
        g = gcd(g, s)
    if not facts.access_sizes:
        if not facts.copy_sizes:
            return natural if natural else 1
        for c in facts.copy_sizes:
            g = gcd(g, c)
        if natural and g % natural == 0:
            return natural
        e = 4
        while e > 1 and g % e:
            e //= 2
        return e
    if len(facts.access_sizes) != 1:
        return 1
    e = next(iter(facts.access_sizes))
    if e <= 0 or (g % e != 0) or any(c % e for c in facts.copy_sizes):
        return 1
    return e


@dataclass
class Array:
    """One array of the IL program.

    ``name`` is the IL map name (``$$x``); ``space`` one of ``global``, ``group_shared``,
    ``constant``, ``private``; ``cell`` the cell size in bytes (1 = byte level);
    ``ident`` the base number used when a pointer may point to several arrays (0 = null).
    """
    name: str
    source_name: str
    space: str
    ident: int
    cell: int = 1
    elem_type: str | None = None
    llvm_type: object = None  # declared value type (globals/allocas), None for parameters
    initializer: str | None = None  # the contents of an immutable global (LLVM ``constant``)
    source_elem: int | None = None  # bytes of one source element when wider than a cell
    source_dims: tuple = ()  # extents of a multi-dimensional source array, outermost first


SPACES_SPIR = {0: "private", 1: "global", 2: "constant", 3: "group_shared", 4: "global"}
SPACES_NVPTX = {0: "global", 1: "global", 3: "group_shared", 4: "constant", 5: "private"}


def space_of(addrspace: int, nvptx: bool) -> str:
    """Memory space name of an LLVM address space for the target (generic -> global)."""
    table = SPACES_NVPTX if nvptx else SPACES_SPIR
    return table.get(addrspace, "global")


def natural_cell(t, layout: Layout) -> int | None:
    """Element size of a declared array type, for arrays that are never accessed."""
    if t is None:
        return None
    try:
        leaf = scalar_leaf(t, layout)
        if isinstance(leaf, (IntT, FloatT)):
            return layout.size(leaf)
    except LayoutError:
        return None
    return None


def pointer_bits(data_layout: str) -> int:
    """Width in bits of default-address-space pointers in an LLVM data layout string
    (``p:32:32`` or ``p0:32:32``; LLVM's default is 64)."""
    for part in data_layout.split("-"):
        m = re.match(r"p0?:(\d+)", part)
        if m:
            return int(m.group(1))
    return 64
