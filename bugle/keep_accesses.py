"""Keep every access to non-private memory through the optimizer (DESIGN.md section 2.1).

A race is a pair of accesses to one location by two threads, at least one a write, with
no barrier between them (paper 000, GPUVerify TOPLAS 2014, section 3): a read races
whether or not its value is used, and a load from a null pointer is an error whether or
not its value is used.  LLVM's dead-code passes do not see it that way: DCE deletes a
load whose value is unused (``foo(p);`` where ``foo`` returns ``p[tid]``), and SROA
deletes the private variable such a value was stored in (``int x = p[tid];``).  The
rule kept here: **every load and store that may touch non-private memory reaches the
IL**.  LLVM never deletes or merges a volatile access, so such accesses are marked
``volatile``; the translator reads a volatile load or store exactly like a plain one
(``bugle.translate``).  Private memory (``alloca``) is left alone: SROA must still turn
private variables, also those passed by reference to inlined functions, into registers.

Memory spaces by pointer address space (``ptr addrspace(N)``):

* SPIR (OpenCL): 0 private; 1 global, 2 constant, 3 local; 4 generic (OpenCL 2.0);
* NVPTX (CUDA): 5 local (private); 1 global, 3 shared, 4 constant; 0 *generic* -- CUDA
  pointers are generic, and clang's allocas are generic pointers too.

A pointer in a non-private, non-generic space may touch shared memory; a pointer in the
private space may not; a generic pointer is followed back through ``getelementptr``,
casts, ``phi`` and ``select`` to the objects it is derived from: ``alloca`` (private),
globals, constant expressions, kernel arguments, null and ``undef`` (non-private: a
dereference of null or undef must be checked), and anything else (a pointer loaded from
memory, returned by a call, an argument of a non-kernel function) is *unknown*.

One exception: a *load* from an immutable global (an IR ``constant``: OpenCL
``__constant`` program-scope data, clang's tables of constant initialisers) is not kept.
Nobody writes such memory, so a read of it never races, and a global is never null; LLVM
folds such reads to the known initial values (the always-inliner does), which the IL
could not recover (it does not model initialisers).  With ``--check-array-bounds`` this
means a folded read outside such a table is not checked.

``bugle.cc.optimize`` marks twice: before the pipeline only accesses that certainly
touch non-private memory (``certain_only=True``: an unknown pointer may still turn out
to be a private variable passed by reference, which volatile would keep out of SROA),
and after always-inline and SROA every access that is not provably private (by then
private variables are registers and arguments are inlined away).  Atomic loads and
stores (``load atomic``) are left as they are: LLVM deletes only ``unordered`` ones,
which C, OpenCL and CUDA never produce.
"""
from __future__ import annotations

import ctypes
import functools
import re
from enum import Enum

import llvmlite.binding as llvm

from . import irtext

VK = llvm.ValueKind

# address spaces per target: (private spaces, generic spaces); all others are non-private
_SPACES = {"spir": ({0}, {4}), "nvptx": ({5}, {0})}


class Space(Enum):
    """What a pointer may point to, in the order of the lattice (``_join`` takes the later)."""
    PRIVATE = "private"  # only private memory (allocas)
    IMMUTABLE = "immutable"  # only private memory or immutable globals (IR ``constant``)
    UNKNOWN = "unknown"  # cannot tell yet (see the module docstring)
    SHARED = "shared"  # possibly memory other threads see (global, local/shared, constant), or null


_ORDER = list(Space)


def _join(a: Space, b: Space) -> Space:
    return max(a, b, key=_ORDER.index)


class PointerSpaces:
    """The space of every pointer operand of one function, to a least fixpoint over the
    lattice PRIVATE < IMMUTABLE < UNKNOWN < SHARED (``phi`` cycles start at PRIVATE).
    ``target``: ``"spir"`` or ``"nvptx"``; ``is_kernel``: whether the function is a kernel
    (its pointer arguments are then non-private); ``immutable``: names of the module's
    IR ``constant`` globals."""

    def __init__(self, fn, target: str, is_kernel: bool, immutable: frozenset = frozenset()):
        self.private, self.generic = _SPACES[target]
        self.is_kernel = is_kernel
        self.immutable = immutable
        self._space: dict = {}  # value address -> Space, pointer-valued instructions
        # (index in the function, instruction, opcode) of the loads and stores: one walk of
        # the function, one FFI call per opcode (``volatile_marks`` reads them from here)
        self.accesses: list[tuple[int, object, str]] = []
        sources = []
        index = 0
        for b in fn.blocks:
            for inst in b.instructions:
                op = inst.opcode
                if op in ("load", "store"):
                    self.accesses.append((index, inst, op))
                index += 1
                srcs = self._sources(inst, op)
                if srcs is not None:
                    sources.append((_address(inst), srcs))
                    self._space[_address(inst)] = Space.PRIVATE
        changed = True
        while changed:
            changed = False
            for key, srcs in sources:
                space = self._space[key]
                for s in srcs:
                    space = _join(space, self.of(s))
                if space is not self._space[key]:
                    self._space[key] = space
                    changed = True

    def of(self, v) -> Space:
        """Space of pointer value ``v`` (an llvmlite ValueRef of this function)."""
        space = _addrspace(v)
        if space in self.private:
            return Space.PRIVATE
        kind = v.value_kind
        if kind == VK.global_variable:
            return Space.IMMUTABLE if v.name in self.immutable else Space.SHARED
        if kind == VK.constant_expr:
            return self._constant_expr(v)
        derived = Space.UNKNOWN
        if kind == VK.instruction:
            derived = self._space.get(_address(v), Space.UNKNOWN)
        elif kind == VK.argument and self.is_kernel:
            derived = Space.SHARED
        elif kind in (VK.constant_pointer_null, VK.undef_value, VK.poison_value):
            derived = Space.SHARED
        if space not in self.generic:  # a non-private space: only immutable data is exempt
            return Space.IMMUTABLE if derived is Space.IMMUTABLE else Space.SHARED
        return derived

    def _constant_expr(self, v) -> Space:
        """A pointer constant expression (``getelementptr``/casts of globals): IMMUTABLE if
        every global it names is immutable, else SHARED (printing one constant is cheap;
        llvmlite gives no operands of constant expressions)."""
        names = _GLOBAL_REF.findall(str(v))
        if names and all((a if a else b) in self.immutable for a, b in names):
            return Space.IMMUTABLE
        return Space.SHARED

    @staticmethod
    def _sources(inst, op: str) -> list | None:
        """Pointers a pointer-valued instruction (opcode ``op``) is derived from ([] for an
        ``alloca``), or None for instructions whose space is not derived (not pointers, or
        unknown)."""
        if op == "alloca":
            return []
        if _addrspace(inst) is None:
            return None
        ops = list(inst.operands)
        if op in ("getelementptr", "bitcast", "addrspacecast", "freeze"):
            return ops[:1]
        if op == "phi":
            return ops
        if op == "select":
            return ops[1:3]
        return None  # loaded from memory, returned by a call, inttoptr ...: unknown


_GLOBAL_REF = re.compile(r'@(?:"((?:[^"\\]|\\.)*)"|([-A-Za-z0-9_.$]+))')
_GLOBAL_KIND = re.compile(r"\b(global|constant)\b")


def immutable_globals(mod) -> frozenset[str]:
    """Names of the IR ``constant`` globals of llvmlite module ``mod`` (the first of the
    words ``global``/``constant`` after the name says which it is)."""
    out = set()
    for g in mod.global_variables:
        text = str(g)
        kind = _GLOBAL_KIND.search(text, text.index(" = ") + 3 if " = " in text else 0)
        if kind and kind.group(1) == "constant":
            out.add(g.name)
    return frozenset(out)


def _address(v) -> int:
    """Address of the LLVM value behind a ValueRef (wrappers are recreated on each access)."""
    address = ctypes.cast(v, ctypes.c_void_p).value  # through the ValueRef's ``_as_parameter_``
    assert address is not None  # a live value is never at address 0
    return address


def _addrspace(v) -> int | None:
    """Address space of a pointer value's type; None for values that are not pointers."""
    return _type_addrspace(str(v.type))


@functools.lru_cache(maxsize=256)
def _type_addrspace(type_text: str) -> int | None:
    t = irtext.parse_type(type_text)[0]
    return t.addrspace if isinstance(t, irtext.PtrT) else None


def volatile_marks(mod, target: str, kernels: set[str], certain_only: bool) -> dict[str, set[int]]:
    """``{function name: {instruction index}}`` of the loads and stores of ``mod`` (an
    llvmlite module) to mark volatile; the index counts the function's instructions in
    order (``irtext.mark_volatile`` takes it).  ``certain_only``: only accesses whose
    pointer is certainly non-private (else every access not provably private)."""
    marks: dict = {}
    immutable = immutable_globals(mod)
    for f in mod.functions:
        if f.is_declaration:
            continue
        spaces = PointerSpaces(f, target, f.name in kernels, immutable)
        for index, inst, op in spaces.accesses:
            if _keep(inst, op, spaces, certain_only):
                marks.setdefault(f.name, set()).add(index)
    return marks


def _keep(inst, op: str, spaces: PointerSpaces, certain_only: bool) -> bool:
    """Must this load or store (opcode ``op``) be marked volatile?  (A store to immutable
    memory is kept: it is an error for the translator to see, not something to fold away.)"""
    ops = list(inst.operands)
    space = spaces.of(ops[0] if op == "load" else ops[1])
    if space is Space.IMMUTABLE and op == "store":
        space = Space.SHARED
    return space is Space.SHARED or (space is Space.UNKNOWN and not certain_only)


def keep_accesses(mod, target: str, kernels: set, certain_only: bool):
    """``mod`` with its accesses to non-private memory marked volatile: the same module if
    nothing needs marking, else a new llvmlite module parsed from the rewritten text.
    ``target``: ``"spir"`` or ``"nvptx"``.  RuntimeError if the rewritten text does not
    parse (an internal error)."""
    marks = volatile_marks(mod, target, kernels, certain_only)
    if not marks:
        return mod
    text = str(mod)
    marked = irtext.mark_volatile(text, marks)
    if marked == text:  # all of them volatile already (the first marking found them)
        return mod
    return llvm.parse_assembly(marked)
