"""Uninitialised private variables hold arbitrary values, never constants (DESIGN.md 5.2).

C leaves an uninitialised local (``int x;``, ``int *p;``) indeterminate: any value, and
in a GPU kernel a different one in each thread.  clang keeps it as an ``alloca`` that is
read before it is written; SROA then reads ``undef`` from it, and LLVM may *choose* any
value for ``undef``: mem2reg folds ``phi [undef, 1]`` to ``1`` and ``phi [undef, %x]`` to
``%x``, so ``int y; if (lid == 0) y = 1; __assert(y == 1);`` would verify.  The verifier
must not make that choice: an undefined value is arbitrary (a havocked variable, one per
thread, non-uniform).

So before the pipeline every private variable is given an explicit arbitrary value: each
``alloca`` (when it is created) and each ``llvm.lifetime.start`` of one (when its scope is
entered again, e.g. a variable declared in a loop body) is followed by stores of
``freeze T poison`` -- an arbitrary but fixed value that LLVM's passes here never fold
(InstSimplify keeps a ``freeze`` of ``poison``; only InstCombine would pick a constant,
and the pipeline never runs it).  Scalars and vectors get one store; structs and arrays
one store per scalar leaf (``getelementptr i8`` at its byte offset), so no aggregate
value (which could hold pointers) is ever made.  The stores are dead wherever the
variable is written before it is read, and SROA and DCE remove them.  Variables with more
than ``MAX_LEAVES`` leaves and dynamically sized allocas are left alone: such arrays
usually stay in memory, where the translator's private map starts arbitrary anyway.

The translator reads ``freeze`` of ``undef``/``poison`` (and any other ``undef``/``poison``
operand) as a fresh ``havoc``ed variable (``bugle.translate``).
"""
from __future__ import annotations

import re

from . import irtext
from .irtext import FloatT, IntT, PtrT, VectorT
from .memory_model import Layout, LayoutError, pointer_bits

MAX_LEAVES = 32
_ALLOCA = re.compile(
    r'^(\s*)%("(?:[^"\\]|\\.)*"|[-A-Za-z0-9_.$]+)\s*=\s*alloca\s+(?!inalloca\b)(.*)$')
_LIFETIME_START = re.compile(
    r'call void @llvm\.lifetime\.start\.p\d+\((?:i64 -?\d+, )?ptr(?: addrspace\(\d+\))? '
    r'%("(?:[^"\\]|\\.)*"|[-A-Za-z0-9_.$]+)\)')


def havoc_locals(ir_text: str) -> str:
    """``ir_text`` (clang's module text) with every private variable initialised to an
    arbitrary value where it is created and where its lifetime starts (module docstring).
    IRTextError if the module text cannot be read."""
    mt = irtext.parse_module_text(ir_text)
    m = re.search(r'target datalayout = "([^"]*)"', ir_text)
    layout = Layout(pointer_bits(m.group(1)) if m else 64, mt.structs)
    out: list = []
    allocas: dict = {}  # name -> what _alloca_init gives, for the current function
    pending: list = []  # initialisations of the allocas just read: after the last of them
    counter = 0
    for line in ir_text.split("\n"):
        a = _ALLOCA.match(line)
        if pending and not a:
            for name in pending:
                stores, counter = _stores(name, allocas[name], counter)
                out.extend(stores)
            pending = []
        out.append(line)
        if line.startswith("define "):
            allocas = {}
        elif a:
            init = _alloca_init(a.group(3), layout)
            if init is not None:
                allocas[a.group(2)] = init
                pending.append(a.group(2))
        elif "llvm.lifetime.start" in line:
            lt = _LIFETIME_START.search(line)
            if lt and lt.group(1) in allocas:
                stores, counter = _stores(lt.group(1), allocas[lt.group(1)], counter)
                out.extend(stores)
    return "\n".join(out)


def _alloca_init(rest: str, layout: Layout):
    """``(ptr type text, [(byte offset, scalar type text)])`` to initialise an alloca whose
    text after ``alloca`` is ``rest``; None when it is left alone (dynamic size, too big,
    a type without a layout)."""
    try:
        t, end = irtext.parse_type(rest, 0)
    except irtext.IRTextError:
        return None
    tail = rest[end:]
    if re.match(r"\s*,\s*i\d+ ", tail):  # alloca T, iN count: a dynamically sized array
        return None
    space = re.search(r"addrspace\((\d+)\)", tail)
    ptr = f"ptr addrspace({space.group(1)})" if space and space.group(1) != "0" else "ptr"
    try:
        resolved = layout.resolve(t)
        if isinstance(resolved, (IntT, FloatT, PtrT, VectorT)):
            return ptr, [(0, rest[:end].strip())]
        leaves = layout.leaves(t)
    except LayoutError:
        return None
    if len(leaves) > MAX_LEAVES:
        return None
    texts = [_scalar_text(lt) for _, lt in leaves]
    if None in texts:
        return None
    return ptr, [(off, text) for (off, _), text in zip(leaves, texts)]


def _scalar_text(t) -> str | None:
    if isinstance(t, IntT):
        return f"i{t.width}"
    if isinstance(t, FloatT):
        return t.name
    if isinstance(t, PtrT):
        return "ptr" if t.addrspace == 0 else f"ptr addrspace({t.addrspace})"
    return None


def _stores(name: str, init, counter: int) -> tuple:
    """Instruction lines storing ``freeze T poison`` into each leaf of variable ``%name``."""
    ptr, leaves = init
    lines = []
    for off, text in leaves:
        counter += 1
        v = f"%__bugle.undef.{counter}"
        lines.append(f"  {v} = freeze {text} poison")
        at = f"%{name}"
        if off:
            at = f"{v}.at"
            lines.append(f"  {at} = getelementptr inbounds i8, {ptr} %{name}, i64 {off}")
        lines.append(f"  store {text} {v}, {ptr} {at}")
    return lines, counter
