"""Pointers held in memory: pointer loads and stores, pointer fields of structs passed by
value, ``ptrtoint``/``inttoptr``.

Paper 000 (GPUVerify TOPLAS 2014) section 5.1 ("Modeling Pointers", "Points-to
Analysis"): a pointer is a (base, offset) pair whose base ranges over the finite set of
arrays the points-to analysis gives it, plus null; a dereference case-splits over that
set and reports *possible null pointer access* when no array matches.  A pointer stored
in memory keeps that meaning:

* **points-to** (``bugle.steensgaard``): a store ``*q = p`` unifies ``p``'s class with the
  content class of ``q``'s class, a load ``p = *q`` gives ``p`` that content class, a
  ``memcpy`` unifies the content classes of its source and destination.  Memory whose
  initial content is not known to the kernel (kernel arguments, ``__shared__``/``__local__``
  arrays, uninitialised private arrays, or anything the adversarial abstraction reads,
  paper 000 section 4, rule T-READ-ADV) may hold any pointer: the content class also
  holds null, so a dereference of a loaded pointer is checked against null like any other;
* **private memory** (per thread, never abstracted): the offset is stored in the array's
  cells (``bvP``, P = pointer width) and the base in a parallel map ``$$A$base: [bvP]int``
  indexed by the cell where the pointer starts, so a load gets back exactly the pointer
  stored;
* **shared and global memory**: the cells hold ``PTR_BITS<P>(base, offset)``, an
  uninterpreted function, so two writes of different pointers are never taken for a
  benign write of equal values (a verdict holds for every interpretation of the function,
  injective ones included); a load decodes with ``PTR_BASE<P>``/``PTR_OFFSET<P>``, which
  are unconstrained: what another thread (or the host) stored is any pointer of the
  content class, null included;
* **structs passed by value** holding pointers (``struct S { int *p; }`` as a kernel
  parameter): each pointer field points to a distinct fresh global array, as GPUVerify
  assumes for pointer kernel parameters (paper 000 section 5.1); the array is named after
  the field (``q.p[4]``, ``q.v.p``), from the member names clang gives the field
  addresses.  A load at a constant offset of a copy the kernel never writes is that array
  directly; otherwise the copy's cells start as (field array, offset 0) and loads go
  through memory;
* ``ptrtoint`` gives ``PTRTOINT<P>(base, offset)`` (uninterpreted: equal pointers give equal
  integers); ``inttoptr`` gives a pointer to no known array, whose dereference is reported
  as a possible null pointer access.

Public entry points are called by ``bugle.translate.Translator``; errors are BugleError.
"""
from __future__ import annotations

import re
from typing import Any

import llvmlite.binding as llvm

from vcgen import il

from . import BugleError, NotPure
from .annotations import base_name as annotation_base
from .irtext import ArrayT, IntT, NamedT, PtrT, StructT
from .memory_model import Array, LayoutError, Ptr, space_of
from .steensgaard import NULL

FRESH_ARRAY = "__bugle_requires_fresh_array"  # __requires_fresh_array(p), include/annotations.h
MAX_FIELD_ARRAYS = 256  # pointer fields of one by-value struct given fresh arrays


class StoredPointers:
    """Pointer values in memory for one ``Translator`` ``tr`` (see the module docstring)."""

    def __init__(self, tr) -> None:
        self.tr = tr
        self._loads: list = []  # (inst, it, memory node) of pointer loads
        self.direct: dict = {}  # load name -> field array key (copy never written)
        self._null_contents: list = []  # content nodes that may hold null
        self.null_reps: set = set()
        self._field_keys: dict = {}  # (arg, byte offset) -> array key
        self._general_byval: set = set()  # by-value args whose pointer cells are read from memory
        self._field_names: dict | None = None
        self.alias_requires: set = set()  # names of the __requires calls that equate them
        self._stored_into: list = []  # memory nodes that pointers are stored or copied into

    # ---------------------------------------------------------------- pre-pass
    def load_facts(self, inst, it, node) -> None:
        """A load of a pointer value from memory ``node`` (resolved in ``finish``)."""
        self._loads.append((inst, it, node))

    def store_facts(self, value, node, it) -> None:
        """A store of the pointer ``value`` into memory ``node``."""
        tr = self.tr
        tr.pts.unify(tr.node(value, it), tr.pts.content(node))
        self._stored_into.append(node)

    def copy_facts(self, dst, src) -> None:
        """``memcpy``/``memmove`` from ``src`` to ``dst`` (points-to nodes): pointers copied."""
        pts = self.tr.pts
        pts.unify(pts.content(dst), pts.content(src))
        self._stored_into.append(dst)

    def int_to_ptr_facts(self, inst) -> None:
        """``inttoptr``: the result may point to no known array (null)."""
        tr = self.tr
        tr.pts.add_object(NULL)
        tr.pts.unify(("v", inst.name), NULL)

    def finish(self) -> None:
        """After the walk: resolve pointer loads (direct by-value fields, or through
        memory), give by-value copies their field arrays, and mark content classes that
        may hold null."""
        tr = self.tr
        if not self._loads and not self._stored_into:
            return
        tr.defs = {inst.name: (inst, it) for _, pairs in tr.walk for inst, it in pairs if inst.name}
        written = tr.byval_written()
        self._find_aliases(written)
        through_memory = []
        for inst, it, node in self._loads:
            key = self._direct_field(inst, written)
            if key is not None:
                tr.pts.unify(("v", inst.name), key)
                self.direct[inst.name] = key
            else:
                tr.pts.unify(("v", inst.name), tr.pts.content(node))
                through_memory.append(node)
        seen: set = set()
        changed = True
        while changed:  # giving copies their fields may merge classes: to a fixpoint
            changed = False
            for node in through_memory + self._stored_into:
                for o in tr.pts.targets(node):
                    if o == NULL or (node, o) in seen:
                        continue
                    seen.add((node, o))
                    changed = True
                    byval_arg = next((n for n, k in tr.byval.items() if k == o), None)
                    if byval_arg is not None:
                        self._general_byval.add(byval_arg)
                        for off, _ in self._pointer_leaves(byval_arg):
                            tr.pts.unify(tr.pts.content(node), self._field_array(byval_arg, off))
                    else:
                        self._null_contents.append(tr.pts.content(node))
        self.null_reps = {tr.pts.class_of(c) for c in self._null_contents}

    def _direct_field(self, inst, written: set):
        """The field array a pointer load reads, if it is a constant offset of a by-value
        copy that is never written."""
        tr = self.tr
        try:
            arg, off = tr.const_offset_from_arg(list(inst.operands)[0])
        except NotPure:  # not a constant offset of an argument
            return None
        key = tr.byval.get(arg)
        if key is None or tr.arrays[key].name in written:
            return None
        if off not in dict(self._pointer_leaves(arg)):
            return None
        return self._field_array(arg, off)

    def _find_aliases(self, written: set) -> None:
        """``__requires(q.p == p)`` in the entry block, with ``q.p`` a pointer field of an
        unwritten by-value struct and ``p`` a pointer kernel parameter: the field points to
        ``p``'s array instead of a fresh one ("unless a requires says otherwise")."""
        tr = self.tr
        for inst, it in tr.walk[0][1] if tr.walk else ():
            if inst.opcode != "call" or annotation_base(list(inst.operands)[-1].name) != "__requires":
                continue
            c = list(inst.operands)[0]
            d = tr.defs.get(c.name) if c.value_kind == llvm.ValueKind.instruction else None
            if d is None or d[0].opcode != "icmp" or d[1].predicate() != "eq":
                continue
            a, b = list(d[0].operands)
            for x, y in ((a, b), (b, a)):
                field = self._field_of_load(x, written)
                key = ("a", "arg:" + y.name) if y.value_kind == llvm.ValueKind.argument else None
                if field is not None and key in tr.arrays and y.name not in tr.byval \
                        and self._field_keys.setdefault(field, key) == key:
                    self.alias_requires.add(inst.name)  # holds by construction
                    break

    def _field_of_load(self, v, written: set):
        """``(arg, byte offset)`` if ``v`` is a load of a pointer field of an unwritten
        by-value copy at a constant offset."""
        tr = self.tr
        if v.value_kind != llvm.ValueKind.instruction or v.name not in tr.defs:
            return None
        inst = tr.defs[v.name][0]
        if inst.opcode != "load":
            return None
        try:
            arg, off = tr.const_offset_from_arg(list(inst.operands)[0])
        except NotPure:
            return None
        key = tr.byval.get(arg)
        if key is None or tr.arrays[key].name in written or off not in dict(self._pointer_leaves(arg)):
            return None
        return arg, off

    def pointer_fields(self, arg: str) -> list[tuple[int, PtrT]]:
        """``[(byte offset, pointer type)]`` of the pointer fields of by-value ``arg``."""
        return self._pointer_leaves(arg)

    def field_array(self, arg: str, off: int):
        """The array key of the fresh array the pointer field at ``off`` of ``arg`` points to."""
        return self._field_array(arg, off)

    def _pointer_leaves(self, arg: str) -> list:
        tr = self.tr
        try:
            leaves = tr.layout.leaves(tr.arrays[tr.byval[arg]].llvm_type)
        except LayoutError:
            return []
        out = [(off, t) for off, t in leaves if isinstance(t, PtrT)]
        if len(out) > MAX_FIELD_ARRAYS:
            raise BugleError(f"by-value kernel parameter {arg} holds {len(out)} pointers (at most "
                             f"{MAX_FIELD_ARRAYS} are supported)", tr.kernel_loc())
        return out

    def _field_array(self, arg: str, off: int):
        key = self._field_keys.get((arg, off))
        if key is None:
            tr = self.tr
            t = dict(self._pointer_leaves(arg))[off]
            key = ("a", f"field:{arg}:{off}")
            tr.new_array(key, self._field_name(arg, off), _space(tr, t), None)
            self._field_keys[(arg, off)] = key
        return key

    # ------------------------------------------------------------ field names
    def _field_name(self, arg: str, off: int) -> str:
        """Source spelling of the pointer field at byte ``off`` of by-value ``arg``:
        ``q.p[4]``, ``q.v.p``.  Member names are those clang gives the field addresses
        (``%p = getelementptr %struct.s, ptr %q, i32 0, i32 0``); a member never
        addressed by name is ``f<index>``, or nothing if it is a struct (a base-class
        subobject, which clang addresses by a cast)."""
        tr = self.tr
        names = self._member_names()
        t = tr.arrays[tr.byval[arg]].llvm_type
        out = arg
        while True:
            r = tr.layout.resolve(t)
            if isinstance(r, StructT):
                offs = tr.layout.field_offsets(r)
                k = max(i for i, o in enumerate(offs) if o <= off)
                sname = t.name if isinstance(t, NamedT) else None
                member = names.get((sname, k))
                if member is None:  # a base class (``struct t : s``) is addressed by a cast
                    sub = isinstance(tr.layout.resolve(r.fields[k]), StructT)
                    member = "" if sub else f"f{k}"
                if member:
                    out += "." + member
                off -= offs[k]
                t = r.fields[k]
            elif isinstance(r, ArrayT):
                step = tr.layout.alloc_size(r.elem)
                out += f"[{off // step}]"
                off %= step
                t = r.elem
            else:
                return out

    def _member_names(self) -> dict:
        """``(struct type name, field index) -> member name`` from the names of the
        single-field GEPs of the function (the shortest: clang numbers repeats ``p5``)."""
        if self._field_names is not None:
            return self._field_names
        tr = self.tr
        found: dict = {}
        for _, pairs in tr.walk:
            for inst, it in pairs:
                if inst.opcode != "getelementptr" or not inst.name:
                    continue
                ops = list(inst.operands)
                src = it.gep_source_type()
                if not isinstance(src, NamedT) or len(ops) != 3:
                    continue
                k = tr.const_int(ops[2])
                if k is None or not isinstance(tr.layout.resolve(src), StructT):
                    continue
                name = re.sub(r"(\.i\d*)+$", "", inst.name)
                if not re.match(r"[A-Za-z_]\w*$", name) or name.startswith(("arrayidx", "add.ptr", "this")):
                    continue
                old = found.get((src.name, k))
                if old is None or len(name) < len(old):
                    found[(src.name, k)] = name
        self._field_names = found
        return found

    # -------------------------------------------------------------- classes
    def maybe_null(self, cls) -> bool:
        """May a pointer of class ``cls`` be null because it was loaded from memory whose
        content the kernel does not know (module docstring)?"""
        return cls in self.null_reps

    def shadow(self, arr: Array) -> il.Var:
        """``$$A$base``: the base of the pointer starting at each cell of private ``arr``."""
        return self.tr.local(arr.name + "$base", il.MapType(il.BvType(self.tr.P), il.INT))

    # ------------------------------------------------------------ translation
    def entry(self) -> None:
        """At kernel entry: the pointer cells of by-value copies read through memory hold
        (field array, offset 0)."""
        tr = self.tr
        for arg in sorted(self._general_byval):
            a = tr.arrays[tr.byval[arg]]
            for off, _ in self._pointer_leaves(arg):
                idx = il.BvLit(off // a.cell, tr.P)
                tmp = tr.local(f"{a.name}$ptr{off}", il.BvType(tr.P))
                for c in tr.read_cells(a, idx, IntT(tr.P), tmp):
                    tr.emit(c)
                tr.emit(il.Assume(il.BinOp("==", tmp, il.BvLit(0, tr.P))))
                field = tr.arrays[self._field_array(arg, off)]
                tr.emit(il.Assume(il.BinOp("==", il.MapSelect(self.shadow(a), idx), il.IntLit(field.ident))))

    def load(self, inst, p, loc) -> None:
        """``%x = load ptr, ptr %p``: the pointer stored at ``p`` (module docstring)."""
        tr = self.tr
        key = self.direct.get(inst.name)
        if key is not None:
            tr.assign_ptr(inst, tr.ident(key), il.BvLit(0, tr.P))
            return
        base, off, cls = tr.ptr_vars(inst)
        bits = tr.local(off.name + "$bits", il.BvType(tr.P))

        def make(arr, idx):
            cmds = tr.read_cells(arr, idx, IntT(tr.P), bits)
            if arr.space == "private":
                base_e, off_e = il.MapSelect(self.shadow(arr), idx), bits
            else:
                base_e = tr.fns.uninterpreted(f"PTR_BASE{tr.P}", (il.BvType(tr.P),), il.INT, bits)
                off_e = tr.fns.uninterpreted(f"PTR_OFFSET{tr.P}", (il.BvType(tr.P),), il.BvType(tr.P), bits)
            cmds.append(il.assign(off.name, off_e))
            if base is not None:
                cmds.append(il.assign(base.name, base_e))
            return cmds
        tr.access(tr.pointer(list(inst.operands)[0], None) if p is None else p, IntT(tr.P), loc, make)
        tg = tr.targets(cls)
        tr.values[inst.name] = Ptr(base if base is not None else tr.ident(tg[0]) if tg else il.IntLit(0),
                                      off, cls)

    def store(self, v: Any, p, loc, it) -> None:
        """``store ptr %v, ptr %p``: the pointer ``v`` into the cells at ``p``."""
        tr = self.tr
        val = tr.pointer(v, it)

        def make(arr, idx):
            if arr.space == "private":
                cmds = tr.write_cells(arr, idx, IntT(tr.P), val.offset)
                cmds.append(il.Assign((il.MapLhs(self.shadow(arr).name, idx),), (val.base,)))
                return cmds
            bits = self.bits(val)
            return tr.write_cells(arr, idx, IntT(tr.P), bits)
        tr.access(p, IntT(tr.P), loc, make)

    def bits(self, val) -> il.Expr:
        tr = self.tr
        return tr.fns.uninterpreted(f"PTR_BITS{tr.P}", (il.INT, il.BvType(tr.P)), il.BvType(tr.P),
                                    val.base, val.offset)

    def requires_fresh_array(self, v, it, loc) -> None:
        """``__requires_fresh_array(p)``: holds by construction when ``p`` is a pointer kernel
        parameter or a pointer field of a by-value struct parameter (each points to its own
        fresh array); BugleError for any other pointer, whose array may be shared."""
        tr = self.tr
        p = tr.pointer(v, it)
        targets = tr.targets(p.cls)
        fresh = {k for k in tr.arrays if k[1].startswith(("arg:", "field:")) and k[1][4:] not in tr.byval}
        whole = p.offset == il.BvLit(0, tr.P) or v.name in self.direct  # the array's start
        if len(targets) != 1 or targets[0] not in fresh or not whole:
            raise BugleError("__requires_fresh_array: the argument must be a pointer kernel parameter or a "
                             "pointer field of a struct kernel parameter", loc)

    def ptr_to_int(self, inst, it) -> None:
        """``ptrtoint``: ``PTRTOINT<P>(base, offset)`` truncated or extended to the result."""
        tr = self.tr
        p = tr.pointer(list(inst.operands)[0], it)
        e = tr.fns.uninterpreted(f"PTRTOINT{tr.P}", (il.INT, il.BvType(tr.P)), il.BvType(tr.P), p.base, p.offset)
        w = tr.result_type(inst).width
        if w < tr.P:
            e = il.BvExtract(e, w, 0)
        elif w > tr.P:
            e = tr.fns.extend(False, tr.P, w, e)
        tr.assign_result(inst, il.BinOp("!=", e, il.BvLit(0, 1)) if w == 1 else e)

    def int_to_ptr(self, inst, it) -> None:
        """``inttoptr``: no known array (base null), the integer as offset."""
        tr = self.tr
        x = tr.operand(list(inst.operands)[0])
        w = tr.value_type(list(inst.operands)[0]).width
        if w == 1:
            x = il.IfThenElse(x, il.BvLit(1, tr.P), il.BvLit(0, tr.P))
        elif w < tr.P:
            x = tr.fns.extend(False, w, tr.P, x)
        elif w > tr.P:
            x = il.BvExtract(x, tr.P, 0)
        tr.assign_ptr(inst, il.IntLit(0), x)


def _space(tr, t: PtrT) -> str:
    """Memory space of a by-value pointer field's array (a private pointer: global)."""
    s = space_of(t.addrspace, tr.nvptx)
    return "global" if s == "private" else s
