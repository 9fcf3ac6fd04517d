"""Reading the printed LLVM module text for what the llvmlite API does not expose.

llvmlite gives opcodes, operands, types and constant values, but not: compare
predicates, GEP source element types, atomic operations, callees' calling conventions,
constant expressions (CUDA shared accesses are ``addrspacecast`` constant expressions),
global initializers and debug metadata (docs/design.md section 2.1).  This module is the
ONE place that reads them from ``str(module)``: the module is printed once, split into
functions/blocks/instruction lines, and the translator aligns instruction ``k`` of a
function in llvmlite's walk with line ``k`` of that function's body (printing each
instruction separately is ~100x slower).

Shapes:
  * LLVM types are parsed into small frozen dataclasses (``IntT``, ``FloatT``, ``PtrT``,
    ``ArrayT``, ``VectorT``, ``StructT``, ``NamedT``, ``OtherT``);
  * constant expressions into ``CGlobal``/``CInt``/``CNull``/``CCast``/``CGep``/``COther``;
  * constant values (vector/struct/array constants, floats, ``zeroinitializer``,
    ``undef``/``poison``, ``splat``) into ``CAgg``/``CFloat``/``CZero``/``CUndef``;
  * ``ModuleText`` holds functions (``FunctionText``), globals, struct definitions and
    metadata nodes; ``InstText`` parses one instruction line on demand.

Errors: ``IRTextError`` (a ValueError) when the text does not have the expected shape.
"""
from __future__ import annotations

import re
import struct
from dataclasses import dataclass, field
from typing import Any


class IRTextError(ValueError):
    """The module text does not have the shape this reader expects."""


# ---------------------------------------------------------------------------- types


@dataclass(frozen=True)
class IntT:
    width: int  # bits


@dataclass(frozen=True)
class FloatT:
    width: int  # bits: 16 (half/bfloat), 32, 64, 80, 128
    name: str = "float"


@dataclass(frozen=True)
class PtrT:
    addrspace: int = 0


@dataclass(frozen=True)
class ArrayT:
    count: int
    elem: object


@dataclass(frozen=True)
class VectorT:
    count: int
    elem: object


@dataclass(frozen=True)
class StructT:
    fields: tuple
    packed: bool = False


@dataclass(frozen=True)
class NamedT:
    name: str  # "%struct.S" -> "struct.S"; resolve with ModuleText.structs


@dataclass(frozen=True)
class OtherT:
    text: str  # void, label, metadata, token, target(...)


_FLOATS = {"half": 16, "bfloat": 16, "float": 32, "double": 64, "x86_fp80": 80,
           "fp128": 128, "ppc_fp128": 128}
_WS = re.compile(r"\s*")
_INT_TYPE = re.compile(r"i(\d+)\b")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_LOCAL_NAME = re.compile(r'%(?:"((?:[^"\\]|\\.)*)"|([-A-Za-z0-9_.$]+))')
_GLOBAL_NAME = re.compile(r'@(?:"((?:[^"\\]|\\.)*)"|([-A-Za-z0-9_.$]+))')


def _skip_ws(s: str, i: int) -> int:
    m = _WS.match(s, i)
    return m.end() if m else i


def parse_type(s: str, i: int = 0) -> tuple[Any, int]:
    """Parse an LLVM type at ``s[i:]``; returns ``(type, end_index)``.  IRTextError if none."""
    i = _skip_ws(s, i)
    m = _INT_TYPE.match(s, i)
    if m:
        return IntT(int(m.group(1))), m.end()
    if s.startswith("ptr", i):
        j = i + 3
        m = re.compile(r"\s+addrspace\((\d+)\)").match(s, j)
        if m:
            return PtrT(int(m.group(1))), m.end()
        return PtrT(0), j
    if s.startswith("[", i):
        m = re.compile(r"\[\s*(\d+)\s+x\s+").match(s, i)
        if not m:
            raise IRTextError(f"bad array type at: {s[i:i + 40]!r}")
        elem, j = parse_type(s, m.end())
        j = _skip_ws(s, j)
        if not s.startswith("]", j):
            raise IRTextError(f"bad array type at: {s[i:i + 40]!r}")
        return ArrayT(int(m.group(1)), elem), j + 1
    if s.startswith("<{", i):
        fields, j = _parse_fields(s, i + 2, "}>")
        return StructT(fields, True), j
    if s.startswith("<", i):
        m = re.compile(r"<\s*(?:vscale\s+x\s+)?(\d+)\s+x\s+").match(s, i)
        if not m:
            raise IRTextError(f"bad vector type at: {s[i:i + 40]!r}")
        elem, j = parse_type(s, m.end())
        j = _skip_ws(s, j)
        return VectorT(int(m.group(1)), elem), j + 1
    if s.startswith("{", i):
        fields, j = _parse_fields(s, i + 1, "}")
        return StructT(fields, False), j
    if s.startswith("%", i):
        m = _LOCAL_NAME.match(s, i)
        if not m:
            raise IRTextError(f"bad named type at: {s[i:i + 40]!r}")
        return NamedT(m.group(1) if m.group(1) is not None else m.group(2)), m.end()
    m = _WORD.match(s, i)
    if m:
        w = m.group(0)
        if w in _FLOATS:
            return FloatT(_FLOATS[w], w), m.end()
        if w == "target":  # target("...") types: keep the text
            j = _match_paren(s, m.end())
            return OtherT(s[i:j]), j
        return OtherT(w), m.end()
    raise IRTextError(f"expected a type at: {s[i:i + 40]!r}")


def _parse_fields(s: str, i: int, close: str) -> tuple:
    fields = []
    i = _skip_ws(s, i)
    if s.startswith(close, i):
        return (), i + len(close)
    while True:
        t, i = parse_type(s, i)
        fields.append(t)
        i = _skip_ws(s, i)
        if s.startswith(",", i):
            i += 1
            continue
        if s.startswith(close, i):
            return tuple(fields), i + len(close)
        raise IRTextError(f"bad struct type at: {s[i:i + 40]!r}")


def _match_paren(s: str, i: int) -> int:
    """Index just past the parenthesised group starting at the first '(' at/after ``i``."""
    i = s.index("(", i)
    depth = 0
    in_str = False
    for j in range(i, len(s)):
        c = s[j]
        if in_str:
            if c == "\\":
                continue
            if c == '"':
                in_str = False
        elif c == '"':
            in_str = True
        elif c in "([{<":
            depth += 1
        elif c in ")]}>":
            depth -= 1
            if depth == 0:
                return j + 1
    raise IRTextError(f"unbalanced parentheses in: {s[i:i + 60]!r}")


def split_top_level(s: str) -> list[str]:
    """Split ``s`` at commas not nested in brackets or strings."""
    out, depth, start, in_str = [], 0, 0, False
    for j, c in enumerate(s):
        if in_str:
            if c == '"':
                in_str = False
        elif c == '"':
            in_str = True
        elif c in "([{<":
            depth += 1
        elif c in ")]}>":
            depth -= 1
        elif c == "," and depth == 0:
            out.append(s[start:j].strip())
            start = j + 1
    out.append(s[start:].strip())
    return out


# --------------------------------------------------------------- constant expressions


@dataclass(frozen=True)
class CGlobal:
    name: str  # without '@'


@dataclass(frozen=True)
class CInt:
    value: int
    width: int


@dataclass(frozen=True)
class CNull:
    pass


@dataclass(frozen=True)
class CCast:
    op: str  # addrspacecast, bitcast, ptrtoint, inttoptr
    operand: object
    to: object  # a type


@dataclass(frozen=True)
class CGep:
    source_type: object
    base: object
    indices: tuple  # tuple[(type, constant), ...]


@dataclass(frozen=True)
class COther:
    text: str


@dataclass(frozen=True)
class CFloat:
    bits: int  # IEEE bit pattern of the value in the constant's own width
    width: int


@dataclass(frozen=True)
class CZero:
    pass  # zeroinitializer (any type)


@dataclass(frozen=True)
class CUndef:
    poison: bool


@dataclass(frozen=True)
class CAgg:
    elems: tuple  # constant nodes of a vector/array/struct constant, in element order


_CONSTEXPR_START = re.compile(
    r"\b(getelementptr|addrspacecast|bitcast|ptrtoint|inttoptr)\b((?:\s+(?:inbounds|nuw|nusw|inrange\([^)]*\)))*)\s*\(")


def parse_typed_constant(s: str):
    """Parse ``TYPE VALUE`` (e.g. ``ptr addrspace(3) @g``, ``i64 0``) into a constant node."""
    t, j = parse_type(s, 0)
    return parse_constant(s[j:].strip(), t)


def parse_constant(s: str, t=None):
    """Parse a constant operand text (without its type) into a constant node."""
    s = s.strip()
    m = _GLOBAL_NAME.match(s)
    if m and m.end() == len(s):
        return CGlobal(m.group(1) if m.group(1) is not None else m.group(2))
    if s == "null":
        return CNull()
    if re.fullmatch(r"-?\d+", s) and isinstance(t, IntT):
        return CInt(int(s) % (1 << t.width), t.width)
    if s in ("true", "false") and isinstance(t, IntT):
        return CInt(1 if s == "true" else 0, 1)
    if s == "zeroinitializer":
        return CZero()
    if s in ("undef", "poison"):
        return CUndef(s == "poison")
    if isinstance(t, FloatT):
        return CFloat(float_bits(s, t.width), t.width)
    agg = _parse_aggregate(s, t)
    if agg is not None:
        return agg
    m = _CONSTEXPR_START.match(s)
    if m and m.start() == 0:
        return _parse_constexpr(s, m)
    return COther(s)


def float_bits(text: str, width: int) -> int:
    """Bit pattern (``width`` = 16/32/64 bits) of an LLVM floating-point literal.

    LLVM prints ``float``/``double`` constants as decimals when they round-trip and
    otherwise as ``0x`` + the 64-bit *double* pattern of the value (also for ``float``);
    ``half`` is ``0xH`` + 16 bits, ``bfloat`` ``0xR`` + 16 bits.  IRTextError otherwise.
    """
    t = text.strip()
    try:
        if t.startswith(("0xH", "0xR")):
            return int(t[3:], 16)
        if t.startswith("0x"):
            value = struct.unpack("<d", struct.pack("<Q", int(t[2:], 16)))[0]
        else:
            value = float(t)
        fmt = {16: "<e", 32: "<f", 64: "<d"}[width]
        ifmt = {16: "<H", 32: "<I", 64: "<Q"}[width]
        return struct.unpack(ifmt, struct.pack(fmt, value))[0]
    except (ValueError, KeyError, OverflowError, struct.error):
        raise IRTextError(f"cannot read floating-point constant {text!r} as {width} bits") from None


def _typed_elems(inner: str) -> tuple:
    out = []
    for part in split_top_level(inner):
        if part:
            out.append(parse_typed_constant(part))
    return tuple(out)


def _parse_aggregate(s: str, t):
    """``<T a, ...>``, ``splat (T a)``, ``{ T a, ... }``, ``<{ ... }>``, ``[T a, ...]``,
    ``c"..."``; None if ``s`` is none of these."""
    if s.startswith("splat"):
        m = re.match(r"splat\s*\((.*)\)$", s)
        count = t.count if isinstance(t, VectorT) else None
        if not m or count is None:
            raise IRTextError(f"bad splat constant {s!r}")
        e = parse_typed_constant(m.group(1))
        return CAgg((e,) * count)
    if s.startswith("<{") and s.endswith("}>"):
        return CAgg(_typed_elems(s[2:-2]))
    if (s.startswith("<") and s.endswith(">")) or (s.startswith("[") and s.endswith("]")) or (
            s.startswith("{") and s.endswith("}")):
        return CAgg(_typed_elems(s[1:-1]))
    if s.startswith('c"') and s.endswith('"'):
        raw = re.sub(r"\\([0-9A-Fa-f]{2})", lambda m: chr(int(m.group(1), 16)), s[2:-1])
        return CAgg(tuple(CInt(ord(ch), 8) for ch in raw))
    return None


def shuffle_mask(line: str) -> list[int | None]:
    """The mask of a ``shufflevector`` instruction line: element indices, None for poison."""
    m = re.search(r"\bshufflevector\b", line)
    if not m:
        raise IRTextError(f"not a shufflevector: {line!r}")
    parts = split_top_level(line[m.end():])
    if len(parts) < 3:
        raise IRTextError(f"bad shufflevector: {line!r}")
    t, j = parse_type(parts[2], 0)
    if not isinstance(t, VectorT):
        raise IRTextError(f"bad shufflevector mask: {parts[2]!r}")
    c = parse_constant(parts[2][j:], t)
    if isinstance(c, CZero):
        return [0] * t.count
    if isinstance(c, CUndef):
        return [None] * t.count
    if not isinstance(c, CAgg):
        raise IRTextError(f"bad shufflevector mask: {parts[2]!r}")
    return [e.value if isinstance(e, CInt) else None for e in c.elems]


def _parse_constexpr(s: str, m):
    op = m.group(1)
    end = _match_paren(s, m.end() - 1)
    inner = s[m.end():end - 1]
    if op == "getelementptr":
        parts = split_top_level(inner)
        src, _ = parse_type(parts[0], 0)
        base = parse_typed_constant(parts[1])
        idx = []
        for p in parts[2:]:
            t, j = parse_type(p, 0)
            idx.append((t, parse_constant(p[j:], t)))
        return CGep(src, base, tuple(idx))
    k = inner.rfind(" to ")
    if k < 0:
        return COther(s)
    to, _ = parse_type(inner[k + 4:], 0)
    return CCast(op, parse_typed_constant(inner[:k]), to)


def find_constexprs(line: str, start: int = 0) -> list[Any]:
    """Top-level pointer constant expressions in an instruction line, in textual order."""
    out: list = []
    i = start
    while True:
        m = _CONSTEXPR_START.search(line, i)
        if not m:
            return out
        end = _match_paren(line, m.end() - 1)
        sub = line[m.start():end]
        out.append(_parse_constexpr(sub, _CONSTEXPR_START.match(sub)))
        i = end


# ------------------------------------------------------------------------ instructions

_RESULT = re.compile(r'\s*(?:%(?:"((?:[^"\\]|\\.)*)"|([-A-Za-z0-9_.$]+))\s*=\s*)?')
_DBG = re.compile(r"!dbg !(\d+)")
_CALLEE = re.compile(r'@(?:"((?:[^"\\]|\\.)*)"|([-A-Za-z0-9_.$]+))\s*\(')
_GEP_FLAGS = re.compile(r"getelementptr((?:\s+(?:inbounds|nuw|nusw|inrange\([^)]*\)))*)\s+")


_ORDERINGS = ("unordered", "monotonic", "acquire", "release", "acq_rel", "seq_cst")
_SYNCSCOPE = re.compile(r'syncscope\("([^"]*)"\)')
_DBG_AND_MD = re.compile(r",?\s*![A-Za-z_.][-A-Za-z0-9_.]*\s+!\d+")


@dataclass(frozen=True)
class AtomicText:
    """An ``atomicrmw``/``cmpxchg`` as written: ``op`` (``add``, ``umax``, ``fadd``,
    ``uinc_wrap`` ... or ``cmpxchg``), ``orderings`` (one for atomicrmw, success and
    failure for cmpxchg), ``weak`` (cmpxchg may fail spuriously), ``volatile``,
    ``syncscope`` (None = system)."""
    op: str
    orderings: tuple
    weak: bool = False
    volatile: bool = False
    syncscope: str | None = None


class InstText:
    """One instruction line, parsed on demand.  ``opcode`` is the first keyword after ``=``."""

    def __init__(self, line: str):
        self.line = line
        m = _RESULT.match(line)
        assert m is not None  # the pattern also matches an instruction without a result
        self.result = (m.group(1) if m.group(1) is not None else m.group(2)) if m.group(0).strip() else None
        self._body_start = m.end()
        w = _WORD.match(line, m.end())
        self.opcode = w.group(0) if w else ""

    @property
    def body(self) -> str:
        return self.line[self._body_start:]

    @property
    def dbg(self) -> int | None:
        """Metadata id of the ``!dbg`` attachment, or None."""
        m = _DBG.search(self.line)
        return int(m.group(1)) if m else None

    def predicate(self) -> str:
        """``icmp``/``fcmp`` predicate, e.g. ``slt``, ``olt`` (``samesign`` and fast-math flags skipped)."""
        words = self.body.split()
        for w in words[1:]:
            if w not in ("samesign", "fast", "nnan", "ninf", "nsz", "arcp", "contract", "afn", "reassoc"):
                return w
        raise IRTextError(f"no predicate in: {self.line!r}")

    def gep_source_type(self):
        """Source element type of a ``getelementptr`` instruction."""
        m = _GEP_FLAGS.match(self.body)
        if not m:
            raise IRTextError(f"not a getelementptr: {self.line!r}")
        t, _ = parse_type(self.body, m.end())
        return t

    def alloca_type(self):
        """Allocated type of an ``alloca``."""
        m = re.compile(r"alloca\s+(?:inalloca\s+)?").match(self.body)
        if m is None:
            raise IRTextError(f"not an alloca: {self.body[:80]!r}")
        t, _ = parse_type(self.body, m.end())
        return t

    def callee(self) -> str | None:
        """Name (without '@') of a direct callee, or None for an indirect call."""
        body = self.body
        m = _CALLEE.search(body)
        return (m.group(1) if m.group(1) is not None else m.group(2)) if m else None

    def atomic_op(self) -> str:
        """``atomicrmw`` operation (``add``, ``xchg`` ...) or ``cmpxchg``/``atomic load``..."""
        words = self.body.split()
        if self.opcode == "atomicrmw":
            return "atomicrmw " + next(w for w in words[1:] if w != "volatile")
        return self.opcode

    def atomic(self) -> "AtomicText":
        """Operation, orderings and flags of an ``atomicrmw`` or ``cmpxchg`` line.

        ``atomicrmw [volatile] OP ptr P, T V [syncscope("s")] ORDER, align A`` and
        ``cmpxchg [weak] [volatile] ptr P, T C, T N [syncscope("s")] SUCC FAIL, align A``.
        IRTextError for any other instruction or an unexpected shape."""
        if self.opcode not in ("atomicrmw", "cmpxchg"):
            raise IRTextError(f"not an atomic read-modify-write: {self.line!r}")
        body = _DBG_AND_MD.sub("", self.body)
        words = body.replace(",", " ").split()[1:]
        weak = volatile = False
        while words and words[0] in ("weak", "volatile"):
            weak |= words[0] == "weak"
            volatile |= words[0] == "volatile"
            words = words[1:]
        op = "cmpxchg" if self.opcode == "cmpxchg" else (words[0] if words else "")
        if not op or not _WORD.fullmatch(op):
            raise IRTextError(f"no atomic operation in: {self.line!r}")
        orders = tuple(w for w in words if w in _ORDERINGS)
        if len(orders) != (2 if self.opcode == "cmpxchg" else 1):
            raise IRTextError(f"no memory ordering in: {self.line!r}")
        m = _SYNCSCOPE.search(body)
        return AtomicText(op, orders, weak, volatile, m.group(1) if m else None)

    def is_atomic_access(self) -> bool:
        """For load/store: ``load atomic ...`` / ``store atomic ...``."""
        words = self.body.split()
        return self.opcode in ("load", "store") and len(words) > 1 and words[1] == "atomic"

    def is_atomic_or_volatile(self) -> bool:
        """For load/store: the ``atomic`` or ``volatile`` qualifiers."""
        words = self.body.split()
        return len(words) > 1 and words[1] in ("atomic", "volatile")

    def as_volatile(self) -> str:
        """The line of a ``load``/``store`` with ``volatile`` after the opcode; atomic and
        already volatile accesses unchanged.  IRTextError for other instructions."""
        if self.opcode not in ("load", "store"):
            raise IRTextError(f"not a load or store: {self.line!r}")
        if self.is_atomic_or_volatile():
            return self.line
        at = self._body_start + len(self.opcode)
        return self.line[:at] + " volatile" + self.line[at:]

    def constexprs(self) -> list[Any]:
        """Pointer constant expressions among the operands, in textual order."""
        return find_constexprs(self.line, self._body_start + len(self.opcode))


# -------------------------------------------------------------------------- module

_DEFINE = re.compile(r"define\s+(.*?)@(?:\"((?:[^\"\\]|\\.)*)\"|([-A-Za-z0-9_.$]+))\(")
_LABEL = re.compile(r'^(?:"((?:[^"\\]|\\.)*)"|([-A-Za-z0-9_.$]+)):')
_META = re.compile(r"^!(\d+) = (?:distinct )?(.*)$")
_META_FIELD = re.compile(r'(\w+): ("(?:[^"\\]|\\.)*"|[^,()]+(?:\([^)]*\))?)')
_GLOBAL_DEF = re.compile(r'^@(?:"((?:[^"\\]|\\.)*)"|([-A-Za-z0-9_.$]+)) = (.*)$')
_STRUCT_DEF = re.compile(r'^%(?:"((?:[^"\\]|\\.)*)"|([-A-Za-z0-9_.$]+)) = type (.*)$')
_CCONVS = ("spir_kernel", "spir_func", "ptx_kernel", "ptx_device", "amdgpu_kernel", "fastcc", "coldcc")


@dataclass
class FunctionText:
    name: str
    header: str  # the ``define`` line
    cconv: str  # e.g. "spir_kernel", "ptx_kernel", "" for the C convention
    blocks: list = field(default_factory=list)  # [(label, [InstText, ...]), ...]

    def attachment(self, kind: str) -> int | None:
        """Metadata id of a function attachment such as ``!dbg`` or ``!kernel_arg_type``."""
        m = re.search(r"!" + re.escape(kind) + r" !(\d+)", self.header)
        return int(m.group(1)) if m else None

    def instructions(self) -> list[InstText]:
        return [i for _, insts in self.blocks for i in insts]


@dataclass
class GlobalText:
    name: str
    addrspace: int
    is_constant: bool
    value_type: object
    initializer: str | None  # text after the type, None for external declarations
    text: str


@dataclass
class ModuleText:
    """The parsed skeleton of a printed module."""
    functions: dict  # name -> FunctionText (definitions only)
    globals: dict  # name -> GlobalText
    structs: dict  # name -> StructT (or OtherT("opaque"))
    metadata: dict  # id -> (kind, fields dict) for specialized nodes; ("tuple", [str]) for !{...}
    source_filename: str | None = None

    def location(self, md_id: int | None) -> tuple[str | None, int, int] | None:
        """``(filename, line, column)`` of a ``DILocation`` id, or None."""
        if md_id is None or md_id not in self.metadata:
            return None
        kind, f = self.metadata[md_id]
        if kind != "DILocation":
            return None
        return (self.scope_file(f.get("scope")), int(f.get("line", "0")), int(f.get("column", "0")))

    def inlined_at(self, md_id: int | None) -> int | None:
        """The ``inlinedAt:`` DILocation id of a DILocation (the call site), or None."""
        node = self.metadata.get(md_id) if md_id is not None else None
        if not node or node[0] != "DILocation" or "inlinedAt" not in node[1]:
            return None
        ref = node[1]["inlinedAt"]
        return int(ref[1:]) if ref.startswith("!") and ref[1:].isdigit() else None

    def location_path(self, md_id: int | None) -> str | None:
        """Full path (DIFile ``directory`` joined with ``filename``) of a DILocation's file."""
        node = self.metadata.get(md_id) if md_id is not None else None
        if not node or node[0] != "DILocation":
            return None
        f = self.scope_file(node[1].get("scope"), with_directory=True)
        return f

    def scope_file(self, ref: str | None, with_directory: bool = False) -> str | None:
        """File name of a scope (DISubprogram, DILexicalBlock ...) reference ``!N``
        (joined with the DIFile's ``directory`` if ``with_directory``)."""
        seen = 0
        while ref and ref.startswith("!") and seen < 100:
            seen += 1
            node = self.metadata.get(int(ref[1:]))
            if node is None:
                return None
            kind, f = node
            if kind == "DIFile":
                name = _unquote(f.get("filename", '""'))
                if with_directory and not name.startswith("/") and "directory" in f:
                    return _unquote(f["directory"]).rstrip("/") + "/" + name
                return name
            if "file" in f:
                ref = f["file"]
            else:
                ref = f.get("scope")
        return None

    def subprogram_name(self, md_id: int | None) -> str | None:
        """``name:`` of a DISubprogram id."""
        node = self.metadata.get(md_id) if md_id is not None else None
        if node and node[0] == "DISubprogram" and "name" in node[1]:
            return _unquote(node[1]["name"])
        return None

    def string_tuple(self, md_id: int | None) -> list[str] | None:
        """Strings of a ``!{!"a", !"b"}`` node (e.g. ``kernel_arg_type``), or None."""
        node = self.metadata.get(md_id) if md_id is not None else None
        if not node or node[0] != "tuple":
            return None
        return [_unquote(x[1:]) if x.startswith('!"') else x for x in node[1]]

    def int_tuple(self, md_id: int | None) -> list[int | None] | None:
        node = self.metadata.get(md_id) if md_id is not None else None
        if not node or node[0] != "tuple":
            return None
        out = []
        for x in node[1]:
            m = re.fullmatch(r"i\d+ (-?\d+)", x)
            out.append(int(m.group(1)) if m else None)
        return out


def _unquote(s: str) -> str:
    s = s.strip()
    if len(s) >= 2 and s[0] == '"' and s[-1] == '"':
        return re.sub(r"\\(..)", lambda m: chr(int(m.group(1), 16)), s[1:-1])
    return s


def _parse_metadata(body: str):
    m = re.match(r"!(\w+)\((.*)\)$", body)
    if m:
        return m.group(1), {k: v.strip() for k, v in _META_FIELD.findall(m.group(2))}
    m = re.match(r"!\{(.*)\}$", body)
    if m:
        return "tuple", split_top_level(m.group(1)) if m.group(1).strip() else []
    return "other", {}


def _parse_global(name: str, rest: str) -> GlobalText:
    m = re.search(r"\b(global|constant)\b", rest)
    if not m:
        raise IRTextError(f"cannot read global @{name}: {rest[:80]!r}")
    head = rest[:m.start()]
    a = re.search(r"addrspace\((\d+)\)", head)
    t, j = parse_type(rest, m.end())
    tail = rest[j:]
    init: str | None = None
    if not re.search(r"\bexternal\b|\bextern_weak\b", head):
        parts = split_top_level(tail)
        init = parts[0].strip() if parts and parts[0].strip() else None
    return GlobalText(name, int(a.group(1)) if a else 0, m.group(1) == "constant", t, init, rest)


def parse_module_text(text: str) -> ModuleText:
    """Split printed module text into functions, globals, struct types and metadata.

    Each function's body becomes ``[(block_label, [InstText, ...]), ...]`` in textual
    order, which is llvmlite's iteration order (the translator checks the alignment).
    """
    functions: dict = {}
    globals_: dict = {}
    structs: dict = {}
    metadata: dict = {}
    source = None
    lines = text.split("\n")
    i = 0
    n = len(lines)
    while i < n:
        line = lines[i]
        if line.startswith("define "):
            m = _DEFINE.match(line)
            if not m:
                raise IRTextError(f"cannot read function header: {line[:100]!r}")
            name = m.group(2) if m.group(2) is not None else m.group(3)
            cconv = next((w for w in m.group(1).split() if w in _CCONVS or w.startswith("cc")), "")
            fn = FunctionText(name, line, cconv)
            label = None
            insts: list | None = None
            i += 1
            while i < n and lines[i] != "}":
                ln = lines[i]
                if ln.startswith("  "):
                    if insts is None:
                        raise IRTextError(f"instruction outside a block in @{name}")
                    insts.append(InstText(ln))
                elif ln.strip() and not ln.startswith(";"):
                    lm = _LABEL.match(ln)
                    if not lm:
                        raise IRTextError(f"cannot read block label in @{name}: {ln[:80]!r}")
                    label = lm.group(1) if lm.group(1) is not None else lm.group(2)
                    insts = []
                    fn.blocks.append((label, insts))
                i += 1
            functions[name] = fn
        elif line.startswith("@"):
            m = _GLOBAL_DEF.match(line)
            if m:
                name = m.group(1) if m.group(1) is not None else m.group(2)
                globals_[name] = _parse_global(name, m.group(3))
        elif line.startswith("%"):
            m = _STRUCT_DEF.match(line)
            if m:
                name = m.group(1) if m.group(1) is not None else m.group(2)
                body = m.group(3).strip()
                structs[name] = OtherT("opaque") if body == "opaque" else parse_type(body, 0)[0]
        elif line.startswith("!"):
            m = _META.match(line)
            if m:
                metadata[int(m.group(1))] = _parse_metadata(m.group(2))
        elif line.startswith("source_filename"):
            source = _unquote(line.split("=", 1)[1])
        i += 1
    return ModuleText(functions, globals_, structs, metadata, source)


def mark_volatile(text: str, marks: dict) -> str:
    """Module text with the loads/stores at ``marks`` (``{function name: {index}}``, the
    index counting the function's instruction lines in order, i.e. llvmlite's walk) made
    volatile (``InstText.as_volatile``).  IRTextError if a marked line is not a load or
    store or a marked function is missing."""
    lines = text.split("\n")
    done = set()
    i = 0
    while i < len(lines):
        m = _DEFINE.match(lines[i]) if lines[i].startswith("define ") else None
        i += 1
        if not m:
            continue
        name = m.group(2) if m.group(2) is not None else m.group(3)
        wanted = marks.get(name, ())
        index = 0
        while i < len(lines) and lines[i] != "}":
            if lines[i].startswith("  "):
                if index in wanted:
                    lines[i] = InstText(lines[i]).as_volatile()
                index += 1
                if lines[i].rstrip().endswith("["):  # a switch: its cases follow, then "]"
                    while i + 1 < len(lines) and not lines[i + 1].lstrip().startswith("]"):
                        i += 1
                    i += 1  # the "]" line
            i += 1
        if wanted:
            done.add(name)
    missing = set(n for n, w in marks.items() if w) - done
    if missing:
        raise IRTextError(f"functions not found in the module text: {sorted(missing)}")
    return "\n".join(lines)
