"""Counterexamples: a failing check of the VC read from the solver's model as an
``ErrorRecord`` -- the kind of check, its source location, both threads' local, group and
global ids, the racing element (in the array's element type when known, else bytes) and
the kernel's scalar arguments (docs/design.md section 7)."""
from __future__ import annotations

import re
from typing import NamedTuple

from .. import il
from ..il.attributes import sourceloc
from ..report.results import ErrorRecord, Launch, ThreadInfo
from ..vc import encode as vcmod, loopcut
from ..vc.solvers.backend import Backend


_DIMS = ("x", "y", "z")


class ModelReader:
    """Reads thread ids, sizes, arguments and check details from the model of the last
    ``sat`` answer of ``backend`` (a solver back end over ``vc``)."""

    def __init__(self, program: il.Program, vc: vcmod.VC, backend: Backend):
        self.program = program
        self.vc = vc
        self.backend = backend
        self.consts = program.consts()
        self.kernel = program.kernel()
        self.sourcelocs = {}
        for d in self.consts.values():
            n = il.attr(d.attrs, "sourceloc_num")
            if n is not None and n.args:
                self.sourcelocs[getattr(n.args[0], "value", n.args[0])] = sourceloc(d.attrs)
        self.arrays = {d.name: d for d in program.globals()}

    def _values(self, names: list) -> dict:
        known = [n for n in names if n in self.consts]
        vals = self.backend.values([self.vc.translator.const(n) for n in known])
        return dict(zip(known, vals))

    def sizes(self) -> dict[str, int]:
        names = [f"{k}_{d}" for k in ("group_size", "num_groups") for d in _DIMS]
        v = self._values(names)
        return {n: v.get(n, 1) for n in names}

    def dims(self) -> int:
        s = self.sizes()
        return 1 if all(s[f"{k}_{d}"] == 1 for k in ("group_size", "num_groups") for d in "yz") else 3

    def launch(self) -> Launch:
        """The sizes of the model (symbolic ones as the solver chose them)."""
        s = self.sizes()
        return Launch(tuple(s[f"group_size_{d}"] for d in _DIMS), tuple(s[f"num_groups_{d}"] for d in _DIMS))

    def thread(self, t: int) -> ThreadInfo:
        names = [f"{k}_{d}${t}" for k in ("local_id", "group_id") for d in _DIMS]
        v = self._values(names)
        sizes = self.sizes()
        lid = tuple(v.get(f"local_id_{d}${t}", 0) for d in _DIMS)
        gid = tuple(v.get(f"group_id_{d}${t}", 0) for d in _DIMS)
        glob = tuple(g * sizes[f"group_size_{d}"] + l for g, l, d in zip(gid, lid, _DIMS))
        return ThreadInfo(t, lid, gid, glob)

    def args(self) -> dict[str, object]:
        params = [n for n, _ in self.kernel.params]
        if not params:
            return {}
        vals = self.backend.values([self.vc.translator.const(n) for n in params])
        out: dict[str, object] = {}
        for n, v in zip(params, vals):
            # components $x$0, $x$1 ... of a vector or by-value struct argument: x = (v0, v1, ...)
            m = re.fullmatch(r"\$(.+)\$(\d+)", n)
            if m:
                parts = out.setdefault(m.group(1), ())
                out[m.group(1)] = (parts if isinstance(parts, tuple) else (parts,)) + (v,)
            else:
                out[n.lstrip("$")] = v
        return {k: f"({', '.join(map(str, v))})" if isinstance(v, tuple) else v for k, v in out.items()}

    def value_at(self, e: il.Expr, site) -> object:
        return self.backend.values([self.vc.translator.term(e)])[0] if site else None

    def var_at(self, name: str, site):
        inc = site.env.get(name)
        if inc is None:
            return None
        return self.backend.values([self.vc.translator.const(inc)])[0]

    def array_info(self, name: str) -> ArrayInfo:
        d = self.arrays.get(name) or self.arrays.get(name + "$1")
        attrs = d.attrs if d is not None else ()
        src = il.attr(attrs, "source_name")
        source_name = str(src.args[0]) if src and src.args else name.lstrip("$")
        width = il.attr(attrs, "elem_width")
        etype = il.attr(attrs, "elem_type") or il.attr(attrs, "image")  # image: "image2d_t", access
        elem = il.attr(attrs, "source_elem_bytes")
        dims = il.attr(attrs, "source_dims")
        return ArrayInfo(source_name, getattr(width.args[0], "value", None) if width and width.args else None,
                         str(etype.args[0]) if etype and etype.args else None,
                         elem.args[0].value if elem and elem.args else None,
                         tuple(x.value for x in dims.args) if dims else ())


class ArrayInfo(NamedTuple):
    """What a report says about an array (bugle's attributes, docs/IL.md): source name,
    cell width (bits), element type, bytes of one source element when wider than a
    cell (``{:source_elem_bytes}``), extents of a multi-dimensional array (``{:source_dims}``)."""
    name: str
    width: int | None
    elem_type: str | None
    source_elem: int | None = None
    dims: tuple = ()


_C_TYPE_BITS = {"char": 8, "uchar": 8, "bool": 8, "short": 16, "ushort": 16, "half": 16, "int": 32,
                "uint": 32, "float": 32, "long": 64, "ulong": 64, "double": 64, "size_t": 32,
                "signed char": 8, "unsigned char": 8, "unsigned short": 16, "unsigned int": 32,
                "unsigned": 32, "long long": 64, "unsigned long": 64, "unsigned long long": 64}


def _type_bits(ctype: str | None) -> int | None:
    if not ctype:
        return None
    t = ctype.strip()
    if t.endswith("*"):
        return None
    if t in _C_TYPE_BITS:
        return _C_TYPE_BITS[t]
    base = t.rstrip("0123456789")  # OpenCL vectors: float4
    if base in _C_TYPE_BITS and base != t:
        return _C_TYPE_BITS[base] * int(t[len(base):])
    return None


_IMAGE_DIMS = {"image1d_t": 1, "image2d_t": 2, "image3d_t": 3}


def element_text(info: ArrayInfo, index) -> str:
    """``p[5]``; in source elements when they are wider than a cell (``G[3] (bytes 4..7)``,
    ``A[1] (byte 0)``) with one index per dimension of a multi-dimensional array
    (``L[1][2][3][3]``); ``((char*)p)[k]`` for a byte-level array of a wider element type
    of unknown layout; ``img at (x, y) = (3, 5)`` for an image (index: coordinates packed
    32 bits each, x lowest; docs/IL.md "Images").  ``index`` is in cells."""
    source_name, elem_width, elem_type = info.name, info.width, info.elem_type
    if elem_type in _IMAGE_DIMS and isinstance(index, int):
        n = _IMAGE_DIMS[elem_type]
        coords = ", ".join(str((index >> (32 * k)) & 0xFFFFFFFF) for k in range(n))
        return f"{source_name} at ({', '.join('xyz'[:n])}) = ({coords})"
    if isinstance(index, int) and elem_width and (info.source_elem or info.dims):
        cell = elem_width // 8
        byte = index * cell
        size = info.source_elem or cell
        element, within = divmod(byte, size)
        out = f"{source_name}{_subscripts(element, info.dims)}"
        if info.source_elem:
            out += f" (byte {within})" if cell == 1 else f" (bytes {within}..{within + cell - 1})"
        return out
    idx = "?" if index is None else str(index)
    bits = _type_bits(elem_type)
    if elem_width == 8 and bits is not None and bits > 8:
        return f"((char*){source_name})[{idx}]"
    return f"{source_name}[{idx}]"


def _subscripts(element: int, dims: tuple) -> str:
    """``[e]``, or one subscript per dimension (row-major; the outermost index is not
    bounded by its extent, as C does not check it)."""
    if len(dims) < 2:
        return f"[{element}]"
    subs = []
    for d in reversed(dims[1:]):
        element, k = divmod(element, d) if d else (element, 0)
        subs.append(k)
    return "".join(f"[{k}]" for k in [element] + subs[::-1])


def kind_of(check: vcmod.Check) -> str:
    if check.has("race"):
        return "race"
    for k in ("barrier_divergence", "user_assert", "null_pointer", "constant_write", "unreachable", "array_bounds",
              "postcondition", "precondition", "unsupported", "barrier_invariant_access_check", "barrier_invariant"):
        if check.has(k):
            return k
    lc = check.attr(loopcut.LOOP_CHECK)
    if lc is not None and lc.args:
        return "invariant_entry" if lc.args[0] == "entry" else "invariant_maintained"
    if check.has("user_invariant") or check.has("invariant"):
        return "invariant_maintained"
    return "assertion"


def _thread_of(check: vcmod.Check) -> int:
    a = check.attr("thread")
    if a is not None and a.args:
        try:
            return int(getattr(a.args[0], "value", a.args[0]))
        except (TypeError, ValueError):
            pass
    return 1


def error_key(check: vcmod.Check) -> tuple[object, ...]:
    """Checks with the same key are one user-visible assertion (e.g. copies of one
    access's check in unwound loops, or per-byte checks)."""
    loc = sourceloc(check.site.attrs) if check.site else None
    race = check.attr("race")
    call = check.attr("call_site")  # one precondition fails at each call on its own
    return (kind_of(check), loc, tuple(map(str, race.args)) if race else (),
            None if loc else check.index, tuple(map(str, call.args)) if call else ())


def error_record(check: vcmod.Check, reader: ModelReader) -> ErrorRecord:
    """The ``ErrorRecord`` of a failing ``check`` in the reader's model."""
    kind = kind_of(check)
    site = check.site
    assert site is not None  # only assertions of the program fail with a model
    loc = sourceloc(site.attrs)
    rec = ErrorRecord(kind, loc, None, check.label, args=reader.args())
    if il.has_attr(reader.kernel.attrs, "symbolic_launch"):
        rec.launch = reader.launch()
    if kind == "unsupported":
        rec.message = str(check.attr("unsupported").args[0])
    if kind == "race":
        race = check.attr("race")
        words = str(race.args[0]).split("-") if race.args else ["access", "access"]
        array = str(race.args[1]) if len(race.args) > 1 else "?"
        rec.access_kinds = (words[0], words[-1])
        info = reader.array_info(array)
        rec.array = info.name
        off = check.attr("check_offset")
        index = reader.value_at(off.args[0], site) if off is not None and off.args else None
        rec.element = element_text(info, index)
        src_num = reader.var_at(f"_{words[0].upper()}_SOURCE_{array}", site)
        rec.other_location = reader.sourcelocs.get(src_num)
        rec.other_thread = reader.thread(1)
        # {:own_copy}: a work item alone in its group against its group's async copy
        # (vcgen.twothread.async_copies): thread 1 on both sides
        rec.thread = reader.thread(1 if check.has("own_copy") else 2)
    else:
        rec.thread = reader.thread(_thread_of(check))
        call = sourceloc((il.Attr("sourceloc", check.attr("call_site").args),)) if check.has("call_site") else None
        if kind == "precondition" and call is not None:  # reported at the call (GPUVerify's shape)
            rec.location, rec.other_location = call, loc
        if kind == "array_bounds":
            a = check.attr("array_bounds")
            if a is not None and a.args:
                info = reader.array_info(str(a.args[0]))
                rec.array_name = rec.array = info.name
                off = check.attr("check_offset")
                if off is not None and off.args:
                    rec.element = element_text(info, reader.value_at(off.args[0], site))
    return rec
