"""``--no-inline``: modular verification of functions against their contracts.

GPUVerify with ``--no-inline`` verifies each function on its own, against its contract:
its ``__ensures`` must hold for every input its ``__requires`` allows, whoever calls it
(paper 000 section 3 introduces the procedure contracts of the two-thread program).
Here kernels are still verified with every call inlined (exact for the calls that
happen); ``--no-inline`` *adds* one verification per *checked function*
(``checked_functions``), in which the function is the entry of a two-thread program
(``FunctionEntry``):

* each thread calls it or not (its enabledness at the call is arbitrary);
* its scalar arguments are arbitrary and may differ between the threads, each pointer
  argument points into its own array (as kernel pointer arguments do: no aliasing
  between them) at an arbitrary offset that may differ between the threads;
* its ``__requires`` are assumed at entry, read "if this thread calls it, then e"; its
  ``__ensures``, assertions and the preconditions of the functions it calls are checked,
  as are races among its own accesses and barrier divergence; the access logs start
  empty (races with the caller's accesses are checked in the kernels, where the calls
  are inlined).

A function is checked when it has a contract (``__requires``/``__ensures`` or their
``__global_`` forms) or when no kernel can call it (not reachable from a kernel by direct
calls nor address-taken): for the others, the calls in the kernels are all the contexts
there are, and inlining checks them exactly.  Functions the user marks
``always_inline``, our headers' helpers, clang's OpenCL kernel bodies
(``__clang_ocl_kern_imp_*``) and specification functions (``__spec_*``, contracts without
a body: ``bugle.spec_functions``) are never checked on their own.
"""
from __future__ import annotations

import re

from vcgen import il

from . import BugleError
from .annotations import AXIOM_PREFIX
from .irtext import PtrT
from .spec_functions import is_spec_function

_DEFINE = re.compile(r'^define\s([^@\n]*)@("(?:[^"\\]|\\.)*"|[-A-Za-z0-9_.$]+)\((.*)$')
_GLOBAL_REF = re.compile(r'@("(?:[^"\\]|\\.)*"|[-A-Za-z0-9_.$]+)')
_CALLEE = re.compile(r'\bcall\b[^@]*@("(?:[^"\\]|\\.)*"|[-A-Za-z0-9_.$]+)\(')
_ATTR_GROUP = re.compile(r'^attributes #(\d+) = \{(.*)\}\s*$')
_CONTRACT = ("__requires", "__ensures", "__global_requires", "__global_ensures")
KERNEL_BODY_PREFIX = "__clang_ocl_kern_imp_"


def _unquote(name: str) -> str:
    return name[1:-1] if name.startswith('"') else name


def _base(name: str) -> str:
    """Itanium-mangled ``_Z10__requiresb`` -> ``__requires``; plain names unchanged."""
    m = re.match(r"_Z(\d+)", name)
    return name[m.end():m.end() + int(m.group(1))] if m else name


class _Function:
    def __init__(self, name: str, head: str, kernel: bool):
        self.name, self.head, self.kernel = name, head, kernel
        self.body: list = []


def _functions(ir_text: str) -> tuple:
    """``(functions by LLVM name, attribute groups by number, text outside bodies)``."""
    funcs: dict = {}
    groups: dict = {}
    outside: list = []
    cur = None
    for line in ir_text.split("\n"):
        if cur is not None:
            if line == "}":
                cur = None
            else:
                cur.body.append(line)
            continue
        m = _DEFINE.match(line)
        if m:
            kernel = bool(re.search(r"\b(spir_kernel|ptx_kernel|amdgpu_kernel)\b", m.group(1)))
            cur = funcs[_unquote(m.group(2))] = _Function(_unquote(m.group(2)), line, kernel)
            continue
        g = _ATTR_GROUP.match(line)
        if g:
            groups[g.group(1)] = g.group(2)
        elif not line.startswith("declare"):
            outside.append(line)
    return funcs, groups, outside


def _always_inline(f: _Function, groups: dict) -> bool:
    tail = f.head.split(")", 1)[-1] if ")" in f.head else f.head
    if re.search(r"\balwaysinline\b", tail):
        return True
    return any(re.search(r"\balwaysinline\b", groups.get(n, "")) for n in re.findall(r"#(\d+)", tail))


def checked_functions(ir_text: str) -> list[str]:
    """LLVM names of the functions ``--no-inline`` verifies on their own (module
    docstring), read from clang's IR before any inlining, in definition order."""
    funcs, groups, outside = _functions(ir_text)
    calls: dict = {}
    address_taken: set = set()
    for f in funcs.values():
        called = {_unquote(m.group(1)) for line in f.body for m in _CALLEE.finditer(line)}
        calls[f.name] = called & set(funcs)
        for line in f.body:
            refs = {_unquote(m.group(1)) for m in _GLOBAL_REF.finditer(line)}
            direct = {_unquote(m.group(1)) for m in _CALLEE.finditer(line)}
            address_taken |= (refs - direct) & set(funcs)
    for line in outside:  # initializers of global function-pointer tables
        address_taken |= {_unquote(m.group(1)) for m in _GLOBAL_REF.finditer(line)} & set(funcs)
    reachable: set = set()
    work = [f.name for f in funcs.values() if f.kernel] + sorted(address_taken)
    while work:
        n = work.pop()
        if n not in reachable:
            reachable.add(n)
            work.extend(calls.get(n, ()))
    out = []
    for f in funcs.values():
        if f.kernel or f.name.startswith((KERNEL_BODY_PREFIX, AXIOM_PREFIX)) or _always_inline(f, groups) \
                or is_spec_function(f.name):
            continue
        contract = any(_base(c) in _CONTRACT for c in calls_of(f))
        if contract or f.name not in reachable:
            out.append(f.name)
    return out


def calls_of(f: _Function) -> set[str]:
    """Names of every function ``f`` calls (defined or declared)."""
    return {_unquote(m.group(1)) for line in f.body for m in _CALLEE.finditer(line)}


class FunctionEntry:
    """The entry of a modular function check, for the translator ``tr``
    (``bugle.translate.Translator``): per-thread arbitrary arguments and pointer offsets,
    and an arbitrary enabledness at the call (module docstring)."""

    ENABLED = "$bugle_called"

    def __init__(self, tr):
        self.tr = tr
        self.offsets: dict = {}  # pointer argument name -> IL local of its cell offset
        self.scalars: list = []  # IL locals of the scalar arguments

    def scalar(self, arg, t: il.Type) -> il.Var:
        """The IL local standing for a scalar argument (havocked at entry)."""
        v = self.tr.local(self.tr.vname(arg.name), t)
        self.scalars.append(v)
        return v

    def lanes(self, arg, types: list) -> tuple[il.Var, ...]:
        """The IL locals standing for the lanes of a vector argument (``$v$0``, ``$v$1``,
        ...; havocked at entry, each arbitrary)."""
        out = []
        for k, t in enumerate(types):
            v = self.tr.local(f"{self.tr.vname(arg.name)}${k}", t)
            self.scalars.append(v)
            out.append(v)
        return tuple(out)

    def offset(self, name: str) -> il.Expr:
        """The cell offset of pointer argument ``name`` (an arbitrary per-thread local)."""
        if name not in self.offsets:
            self.offsets[name] = self.tr.local(f"{self.tr.vname(name)}$offset", il.BvType(self.tr.P))
        return self.offsets[name]

    def prepare(self) -> None:
        """Declare the offset local of every pointer argument (before the walk)."""
        for a in self.tr.fn.arguments:
            if isinstance(self.tr.value_type(a), PtrT) and a.name not in self.tr.byval:
                self.offset(a.name)

    def emit_entry(self) -> None:
        """At the start of the entry block: every argument and offset is arbitrary."""
        names = tuple(v.name for v in self.scalars) + tuple(v.name for v in self.offsets.values())
        if names:
            self.tr.emit(il.Havoc(names))

    def wrap(self, blocks: list[il.Block]) -> list[il.Block]:
        """Blocks of the function preceded by the arbitrary call decision: each thread
        runs the body or returns at once (a non-uniform branch, so lockstep predicates
        the body)."""
        self.tr.local(self.ENABLED, il.BOOL)
        first = blocks[0].label
        called, skipped = "$bugle_called_entry", "$bugle_skipped_entry"
        return [il.Block("$bugle_entry", (il.Havoc((self.ENABLED,)),), il.Goto((called, skipped))),
                il.Block(called, (il.Assume(il.Var(self.ENABLED), (il.Attr("partition"),)),), il.Goto((first,))),
                il.Block(skipped, (il.Assume(il.not_(il.Var(self.ENABLED)), (il.Attr("partition"),)),), il.Return())
                ] + list(blocks)


def find_function(mod, mt, wanted: str):
    """``(llvmlite function, its FunctionText)`` of the non-kernel definition named
    ``wanted`` (LLVM or source name).  BugleError if there is none."""
    for name, ft in mt.functions.items():
        if ft.cconv in ("spir_kernel", "ptx_kernel", "amdgpu_kernel"):
            continue
        if wanted in (name, mt.subprogram_name(ft.attachment("dbg"))):
            fn = mod.get_function(name)
            if not fn.is_declaration:
                return fn, ft
    raise BugleError(f"no function named {wanted} defined in the module (compile with --no-inline to keep it)")


def defined_functions(ir_text: str) -> list[str]:
    """LLVM names of the non-kernel definitions in (optimized) IR text: after ``bugle cc
    --no-inline``, exactly the checked functions."""
    funcs, _, _ = _functions(ir_text)
    return [f.name for f in funcs.values() if not f.kernel and not f.name.startswith(AXIOM_PREFIX)]
