"""Assignments to components of a vector in memory (OpenCL ``G[i].y = e``, ``G[i].xy = e``,
``G[i].s3 += e``, ``G[i].y++``): only the assigned components are accessed; reads of
components (``x = G[i].y``) read only those (``_narrow_component_read``).

clang lowers such an assignment (``EmitStoreThroughExtVectorComponentLValue``) to a
read-modify-write of the whole vector: ``load`` the vector, ``insertelement`` (or
``shufflevector``) the new components, ``store`` the vector back.  Translated as written,
the assignment would write, and read, every component: two work items assigning different
components of one vector (``G[i].x = a`` and ``G[i].y = b``, race-free: OpenCL C 6.1.7
components are distinct objects) would race, and a race on ``.y`` would be reported on the
bytes of another component.  Paper 000 (GPUVerify TOPLAS 2014) section 3 defines a race
on the locations an access touches in the *source*; a component rewritten with its own
value is not written by the source.

The rule (``component_accesses``) narrows a vector ``store`` S to the lanes it changes when
all of the following hold (anything else keeps the full access, which is sound):

* S's value is a chain of ``insertelement`` with constant lane / ``shufflevector`` with a
  constant mask over a ``load`` L of the same pointer value, in the same block; each lane
  of S is either L's lane of the same index (unchanged) or a new value;
* L and every chain link have exactly one use (the next link, S): L's value is used for
  nothing but the unchanged lanes, so the narrowed L reads nothing;
* no instruction between L and S may write memory (no store, call, atomic, fence): the
  unchanged lanes hold the value L read, so leaving them alone is the same state;
* L, the chain and S carry one debug location, and the source text there is an
  assignment operator (``=``, ``op=``, postfix ``++``/``--``) right after a component
  name (``.y``, ``.xy``, ``.s3``, ``.hi`` ...): the instructions come from one component
  assignment, not from ``float4 t = G[i]; t.y = e; G[i] = t;`` (whole-vector accesses in
  the source), also not when a macro puts such statements at one location (the text
  there is then the macro's name).  Without a readable source file nothing is narrowed.

A compound assignment (``G[i].y += e``, ``G[i].y++``) first reads the component: a load
of the same pointer at the same location whose uses are all ``extractelement`` with a
constant lane among the assigned ones reads only those lanes.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any

import llvmlite.binding as llvm

from . import irtext
from .irtext import VectorT
from .source_text import read_lines

VK = llvm.ValueKind
# an instruction that may write memory between the load and the store
_MAY_WRITE = ("store", "call", "atomicrmw", "cmpxchg", "fence")
# OpenCL C 6.1.7 vector component names (xyzw / rgba swizzles, .sN, .lo/.hi/.even/.odd)
_COMPONENT = re.compile(r"\.\s*(?:[xyzw]{1,4}|[rgba]{1,4}|[sS][0-9a-fA-F]{1,16}|lo|hi|even|odd)$")
_ASSIGN_OP = re.compile(r"(?:=(?!=)|(?:[-+*/%&|^]|<<|>>)=|\+\+|--)")
_NEW = -1  # a lane of the store that gets a new value
_NAME = re.compile(r"[A-Za-z_]\w*")
_READ_COMPONENT = re.compile(r"\s*\.\s*(?:[xyzw]{1,4}|[rgba]{1,4}|[sS][0-9a-fA-F]{1,16}|lo|hi|even|odd)\b")


@dataclass
class ComponentAccesses:
    """Lanes the source accesses: ``load_lanes`` (load register name -> lanes read, empty
    = no read) and ``store_lanes`` (``id`` of the store's ``irtext.InstText`` -> lanes
    written).  Accesses not listed touch every lane."""
    load_lanes: dict[str, frozenset[int]] = field(default_factory=dict)
    store_lanes: dict[int, frozenset[int]] = field(default_factory=dict)


def value_users(walk: list) -> dict[str, list]:
    """Instruction name -> ``[(llvmlite instruction, InstText)]`` of the instructions using
    it as an operand, in ``walk`` order (``[(block, [(instruction, InstText)])]``).  One
    walk of every operand (FFI calls each): the translator builds it once per function for
    this module and ``bugle.annotations`` (``Translator.users``)."""
    uses: dict[str, list] = {}
    for _, pairs in walk:
        for inst, it in pairs:
            for o in inst.operands:
                if o.value_kind == VK.instruction and o.name:
                    uses.setdefault(o.name, []).append((inst, it))
    return uses


def component_accesses(walk: list, uses: dict[str, list], mt: irtext.ModuleText, value_type: Any,
                       const_int: Any, source_path: str | None) -> ComponentAccesses:
    """The narrowed component accesses of a function.  ``walk``: ``[(block, [(llvmlite
    instruction, InstText)])]``; ``uses``: ``value_users(walk)``; ``value_type(v)``: the
    ``irtext`` type of a value; ``const_int(v)``: a constant integer operand's value or
    None; ``source_path``: the main source file (for debug locations naming no readable
    file)."""
    out = ComponentAccesses()
    for _, pairs in walk:
        index: dict | None = None  # the block's named instructions, built at its first store
        for pos, (inst, it) in enumerate(pairs):
            if inst.opcode == "store" and not it.is_atomic_access():
                if index is None:
                    index = _block_index(pairs)
                _narrow_store(pairs, pos, index, uses, mt, value_type, const_int, source_path, out)
    for _, pairs in walk:
        for inst, it in pairs:
            if inst.opcode == "load" and inst.name and inst.name not in out.load_lanes:
                _narrow_component_read(inst, it, uses, mt, value_type, const_int, source_path, out)
    return out


def _block_index(pairs: list) -> dict:
    """Name -> (position, llvmlite instruction, InstText) of a block's named instructions
    (``[(instruction, InstText)]``).  Built once per block: rebuilding it from the
    instructions before each store (an FFI call per name) was quadratic in the block's
    length (shoc ifft1D_512: 1 s of its 3-4 s translation)."""
    return {name: (k, inst, it) for k, (inst, it) in enumerate(pairs) if (name := inst.name)}


def _narrow_store(pairs: list, pos: int, index: dict, uses: dict, mt, value_type, const_int,
                  source_path, out: ComponentAccesses) -> None:
    """The store at ``pairs[pos]``; ``index``: ``_block_index(pairs)``."""
    store, st_it = pairs[pos]
    val, ptr = list(store.operands)
    t = value_type(val)
    if not isinstance(t, VectorT) or st_it.dbg is None:
        return
    found = _lanes_over_load(val, t.count, index, pos, uses, st_it.dbg, const_int, value_type)
    if found is None:
        return
    lanes, load_pos = found
    load, load_it = pairs[load_pos]
    if (load_it.is_atomic_access() or not _same_value(list(load.operands)[0], ptr)
            or any(i.opcode in _MAY_WRITE for i, _ in pairs[load_pos + 1:pos])
            or not _component_assignment(mt, st_it.dbg, source_path)):
        return
    new = frozenset(k for k, src in enumerate(lanes) if src == _NEW)
    out.store_lanes[id(st_it)] = new
    out.load_lanes[load.name] = frozenset()
    _narrow_compound_read(pairs[:load_pos], ptr, st_it.dbg, new, uses, const_int, out)


def _lanes_over_load(v, n: int, index: dict, pos: int, uses: dict, dbg: int, const_int,
                     value_type) -> tuple[list[int], int] | None:
    """Per lane of the vector ``v`` (``n`` lanes): the base load's lane it keeps, or
    ``_NEW``; with the load's position.  None unless ``v`` is a single-use chain of
    insertelement/shufflevector at debug location ``dbg`` over a single-use load of the
    same type, defined in the block before the store (``index``: the block's
    ``_block_index``, ``pos``: the store's position in it)."""
    if v.value_kind != VK.instruction:
        return None
    entry = index.get(v.name)
    if entry is None or entry[0] >= pos:
        return None
    k, inst, it = entry
    if it.dbg != dbg or len(uses.get(v.name, ())) != 1:
        return None
    if inst.opcode == "load":
        t = value_type(inst)
        return (list(range(n)), k) if isinstance(t, VectorT) and t.count == n else None
    ops = list(inst.operands)
    if inst.opcode == "insertelement":
        lane = const_int(ops[2])
        base = _lanes_over_load(ops[0], n, index, pos, uses, dbg, const_int, value_type)
        if lane is None or base is None or not 0 <= lane < n:
            return None
        return [(_NEW if j == lane else src) for j, src in enumerate(base[0])], base[1]
    if inst.opcode == "shufflevector":
        try:
            mask = irtext.shuffle_mask(it.line)
        except irtext.IRTextError:
            return None
        base = _lanes_over_load(ops[0], n, index, pos, uses, dbg, const_int, value_type)
        if base is None or len(mask) != n:
            return None
        # a lane from the second operand (m >= n) or poison (None) is a new value
        return [base[0][m] if m is not None and m < n else _NEW for m in mask], base[1]
    return None


def _narrow_compound_read(before: list, ptr, dbg: int, lanes: frozenset, uses: dict, const_int,
                          out: ComponentAccesses) -> None:
    """``G[i].y += e``: the load of the same pointer at the same location whose uses are
    all ``extractelement`` of assigned lanes reads only those lanes."""
    for inst, it in reversed(before):
        if inst.opcode != "load" or it.dbg != dbg or it.is_atomic_access():
            continue
        if not _same_value(list(inst.operands)[0], ptr):
            continue
        read = _extracted_lanes(uses.get(inst.name, ()), dbg, lanes, const_int)
        if read is not None:
            out.load_lanes[inst.name] = read
        return


def _narrow_component_read(load, it, uses: dict, mt, value_type, const_int, source_path,
                           out: ComponentAccesses) -> None:
    """``x = G[i].y``: a vector load whose every use is an ``extractelement`` of a constant
    lane at the load's own debug location reads only those lanes, when the source text
    there is a component of an array element (``_component_read``).  clang emits such a
    read (``EmitLoadOfExtVectorElementLValue``) as a whole-vector load; a copy of the whole
    vector (``float4 t = G[i]; x = t.y;``) puts the extract at another location."""
    t = value_type(load)
    users = uses.get(load.name, ())
    if not isinstance(t, VectorT) or it.dbg is None or it.is_atomic_access() or not users:
        return
    read = _extracted_lanes(users, it.dbg, frozenset(range(t.count)), const_int)
    if read is not None and _component_read(mt, it.dbg, source_path):
        out.load_lanes[load.name] = read


def _extracted_lanes(users: list, dbg: int, allowed: frozenset[int], const_int) -> frozenset[int] | None:
    """The lanes a vector load's ``users`` (``[(instruction, InstText)]``) extract, when
    every one is an ``extractelement`` of a constant lane in ``allowed`` at debug location
    ``dbg``; else None (the load's value is used whole).  The load, a vector, can only be
    an ``extractelement``'s first operand."""
    read = set()
    for user, uit in users:
        lane = const_int(list(user.operands)[1]) if user.opcode == "extractelement" else None
        if lane is None or lane not in allowed or uit.dbg != dbg:
            return None
        read.add(lane)
    return frozenset(read)


def _same_value(a, b) -> bool:
    """The same LLVM value: a named instruction/argument by name, a constant by its text
    (LLVM uniques constants)."""
    if a.value_kind != b.value_kind:
        return False
    if a.value_kind in (VK.instruction, VK.argument):
        return bool(a.name) and a.name == b.name
    return str(a) == str(b)


def _source_at(mt: irtext.ModuleText, dbg: int, source_path: str | None) -> tuple[str, int] | None:
    """(line text, 0-based column) of debug location ``dbg``, or None when unreadable."""
    loc = mt.location(dbg)
    if loc is None:
        return None
    _, line, col = loc
    # the file as the debug info joins it, else as named relative to the working
    # directory (clang's name of a header included by a kernel given by a relative
    # path: ``sub/../h.h``, in the kernel's directory), as ``annotations`` reads it
    lines = read_lines(mt.location_path(dbg)) or read_lines(loc[0])
    if lines is None and source_path and loc[0] and os.path.basename(loc[0]) == os.path.basename(source_path):
        lines = read_lines(source_path)  # the main file, named as the driver gave it
    if not lines or not 1 <= line <= len(lines) or col < 1:
        return None
    return lines[line - 1], col - 1


def _component_assignment(mt: irtext.ModuleText, dbg: int, source_path: str | None) -> bool:
    """Is the source text at debug location ``dbg`` an assignment operator after a vector
    component name (``G[i].y = e``, ``G[i].xy += e``, ``G[i].y++``)?"""
    at = _source_at(mt, dbg, source_path)
    if at is None:
        return False
    text, col = at
    return bool(_ASSIGN_OP.match(text, col)) and bool(_COMPONENT.search(text[:col].rstrip()))


def _component_read(mt: irtext.ModuleText, dbg: int, source_path: str | None) -> bool:
    """Is the source text at debug location ``dbg`` an array element's component: a name,
    subscripts (balanced brackets on the line), then a component name (``G[i].y``,
    ``tile[ty][tx].s2``) not followed by an assignment operator?  A macro's expansion is
    located at the macro's name, which is followed by ``(`` or nothing of the kind."""
    at = _source_at(mt, dbg, source_path)
    if at is None:
        return False
    text, pos = at
    name = _NAME.match(text, pos)
    if name is None:
        return False
    pos = name.end()
    while True:
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos >= len(text) or text[pos] != "[":
            break
        depth = 0
        while pos < len(text):
            depth += {"[": 1, "]": -1}.get(text[pos], 0)
            pos += 1
            if depth == 0:
                break
        if depth:
            return False
    component = _READ_COMPONENT.match(text, pos)
    return component is not None and not _ASSIGN_OP.match(text[component.end():].lstrip())
