"""``--kernel-args=NAME,V1,*,V3``: fix scalar kernel arguments (GPUVerify's flag).

Values are given in source-parameter order as recorded by bugle in the kernel's
``{:source_params "src", "il_name", "ctype", ...}`` attribute (docs/IL.md); pointer
and struct-by-value parameters count as positions and take ``*`` (unconstrained).
Each fixed value becomes ``requires {:kernel_args} $n == VbvW;`` on the kernel
procedure, so it works on one-thread (``.gbpl``) and two-thread (``.bpl``) programs
alike (kernel parameters are shared by both threads).
"""
from __future__ import annotations

import dataclasses
import re
from typing import NamedTuple

from .. import il
from ..il.errors import ExitCode, ToolError

_INT = re.compile(r"^[+-]?(0[xX][0-9a-fA-F]+|[0-9]+)$")
_UNSIGNED = re.compile(r"^(u(char|short|int|long)|unsigned\b.*|size_t|bool|_Bool)$")
_SIGNED = re.compile(r"^(char|signed char|short|int|long|long long|signed\b.*)$")


def _fail(msg: str) -> ToolError:
    return ToolError(f"--kernel-args: {msg}", ExitCode.COMMAND_LINE_ERROR)


class KernelArgsSpec(NamedTuple):
    """A parsed ``--kernel-args=NAME,V1,*,...``: the kernel and one text per parameter."""
    kernel: str
    values: list[str]


class SourceParam(NamedTuple):
    """A kernel parameter as bugle records it (``{:source_params}``): its source name, the
    IL name (scalar parameter or array) and its C type (``""`` when unknown)."""
    source: str
    il_name: str
    ctype: str


def parse_spec(spec: str) -> KernelArgsSpec:
    """``"k,1,*"`` -> ``("k", ["1", "*"])``.  Raises ToolError(COMMAND_LINE_ERROR)."""
    parts = [p.strip() for p in spec.split(",")]
    if not parts[0]:
        raise _fail(f"expected NAME,V1,V2,... (got {spec!r})")
    return KernelArgsSpec(parts[0], parts[1:])


def source_params(kernel: il.ProcedureDecl) -> list[SourceParam]:
    """[(source name, IL name, C type)] from ``{:source_params}``; ToolError if absent."""
    a = il.attr(kernel.attrs, "source_params")
    if a is None or len(a.args) % 3:
        raise _fail("the program has no {:source_params} attribute on its kernel "
                    "(translate the kernel with this version of bugle)")
    args = [str(x) for x in a.args]
    return [SourceParam(*args[i:i + 3]) for i in range(0, len(args), 3)]


def parse_value(text: str, ty: il.Type, ctype: str, param: str) -> il.Expr:
    """The literal for ``text`` (decimal or hex, optionally negative) of IL type ``ty``.

    Range: unsigned C types 0..2^w-1; signed C types -2^(w-1)..2^(w-1)-1 in decimal
    (hex gives the bit pattern, 0..2^w-1); unknown C type (CUDA) -2^(w-1)..2^w-1.
    Raises ToolError(COMMAND_LINE_ERROR) for non-integers and out-of-range values.
    """
    t = text.strip()
    if isinstance(ty, il.BoolType):
        if t.lower() in ("0", "false", "1", "true"):
            return il.BoolLit(t.lower() in ("1", "true"))
        raise _fail(f"value {text!r} for {param} is not a boolean (0 or 1)")
    if not _INT.match(t):
        raise _fail(f"value {text!r} for {param} is not an integer")
    v = int(t, 0) if not re.match(r"^[+-]?0[0-9]", t) else int(t, 10)
    if not isinstance(ty, il.BvType):
        return il.IntLit(v)
    w, ct = ty.width, ctype.replace("const ", "").strip()
    hexa = "x" in t.lower()
    lo = 0 if _UNSIGNED.match(ct) or (hexa and _SIGNED.match(ct)) else -(1 << (w - 1))
    hi = (1 << (w - 1)) - 1 if _SIGNED.match(ct) and not hexa else (1 << w) - 1
    if not lo <= v <= hi:
        kind = f"{ct} " if ct else ""
        raise _fail(f"value {text} for {param} is out of range for a {w}-bit {kind}argument ({lo}..{hi})")
    return il.BvLit(v % (1 << w), w)


def apply_kernel_args(prog: il.Program, spec: str | None) -> il.Program:
    """``prog`` with ``requires`` fixing the arguments given by ``spec`` (None: unchanged).

    ``spec`` lists a value per parameter or (as GPUVerify takes it) per non-pointer
    parameter; a vector or by-value struct parameter takes the bit pattern of the whole
    argument.  Raises ToolError(COMMAND_LINE_ERROR): unknown kernel name, wrong number of
    values, a value for a pointer parameter, a non-integer or out-of-range value.
    """
    if not spec:
        return prog
    name, values = parse_spec(spec)
    try:
        k = prog.kernel()
    except ValueError as e:
        raise _fail(str(e)) from None
    src = il.attr(k.attrs, "source_name")
    kname = str(src.args[0]) if src is not None and src.args else k.name.lstrip("$")
    if name not in (kname, k.name):
        raise _fail(f"no kernel named {name} (the kernel is {kname})")
    params = source_params(k)
    types = dict(k.params)
    pointers = [_components(iname, types) == [] and iname not in types for _, iname, _ in params]
    if len(values) != len(params):
        # GPUVerify also takes the values of the non-pointer parameters only
        scalar = [p for p, ptr in zip(params, pointers) if not ptr]
        if len(values) != len(scalar):
            raise _fail(f"kernel {kname} has {len(params)} parameters "
                        f"({', '.join(p[0] for p in params)}; {len(scalar)} not pointers), "
                        f"{len(values)} values given")
        params = scalar
    specs = []
    for (sname, iname, ctype), v in zip(params, values):
        if v == "*":
            continue
        for var, lit in _bindings(sname, iname, ctype, v, types):
            specs.append(il.Spec("requires", il.BinOp("==", il.Var(var), lit), attrs=(il.Attr("kernel_args"),)))
    return prog.replace_decl(k, dataclasses.replace(k, specs=k.specs + tuple(specs)))


def _components(iname: str, types: dict) -> list[str]:
    """The scalar kernel parameters ``$x$0``, ``$x$1`` ... holding the components of a
    vector or by-value struct parameter (IL name ``$x`` / ``$$x``), in memory order."""
    stem = "$" + iname.lstrip("$") + "$"
    found = {int(n[len(stem):]): n for n in types if n.startswith(stem) and n[len(stem):].isdigit()}
    return [found[i] for i in sorted(found)] if found and sorted(found) == list(range(len(found))) else []


def _bindings(sname: str, iname: str, ctype: str, v: str, types: dict) -> list[tuple[str, il.Expr]]:
    """``[(IL parameter, literal)]`` for the value ``v`` of one parameter; a vector or
    struct value is the bit pattern of the whole argument (little-endian: component 0 in
    the low bits, as GPUVerify reads ``0x0000000300000003`` for ``struct {int a, b;}``)."""
    if iname in types:
        return [(iname, parse_value(v, types[iname], ctype, sname))]
    comps = _components(iname, types)
    if not comps or not all(isinstance(types[c], il.BvType) for c in comps):
        raise _fail(f"parameter {sname} is a pointer: its value must be *")
    widths = [types[c].width for c in comps]
    lit = parse_value(v, il.BvType(sum(widths)), "unsigned", sname)
    assert isinstance(lit, il.BvLit)
    whole = lit.value
    out: list[tuple[str, il.Expr]] = []
    shift = 0
    for c, w in zip(comps, widths):
        out.append((c, il.BvLit((whole >> shift) % (1 << w), w)))
        shift += w
    return out
