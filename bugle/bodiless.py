"""Calls to functions that are declared but not defined ("bodiless" functions).

GPUVerify verifies a kernel that calls ``int bar(int);`` or ``void f(__global int *p);``
without seeing their bodies by over-approximating what such a call may do.  Paper 000
(GPUVerify TOPLAS 2014) section 5.1: a call ``foo(p)`` passes the pointer pair
(base, offset) on, and every dereference through a pointer is a case split over its
possible bases with a final ``assert(false)`` for null (Table V); a callee without a
body is a procedure with no implementation, so all its caller knows is its effect on
the state it can reach.  Here, per call (``BodilessCalls.translate``):

* the result (scalar, vector or struct) is a fresh arbitrary value (``havoc``): a
  different value per call and per thread, never a function of the arguments (the
  callee may read memory or keep state);
* for each pointer argument ``p`` and each array ``A`` its points-to class may reach
  (``bugle.steensgaard``), and each array of the classes of pointers stored there,
  transitively (``bugle.stored_pointers``), selected by a case split on the base as for a
  dereference (a null base reaches nothing: passing null is not an error in itself):

  - unless ``A`` is private: a *read* and (unless ``A`` is ``__constant``) a *write* of
    one arbitrary cell of ``A``, logged like any access of the kernel at the call's
    source location.  The access logs keep one nondeterministically chosen access per
    array (paper 000 section 5.2, ``LOG_RD``/``LOG_WR``), so one access at an arbitrary
    offset stands for every access the callee may make: a race between the callee's
    accesses and another thread's is reported (as a race at the call's line);
  - unless ``A`` is ``__constant``: ``havoc $$A`` -- all of its contents become
    arbitrary (lock-step havocs each enabled thread's copy, ``vcgen.twothread.memory``);

* a pointer result is an arbitrary pointer (fresh base and offset) whose points-to class
  holds null and the arrays of the pointer arguments: a dereference of it case-splits
  over those arrays and reports a possible null pointer access otherwise.

``--bodiless-calls=error`` makes such a call a BugleError naming the function instead.
The effect on one array (``BodilessCalls.effect``) is also what a specification function's
``__writes_to``/``__reads_from`` does at its call (``bugle.spec_functions``).
"""
from __future__ import annotations

from typing import Callable

from vcgen import il

from . import BugleError
from .aggregates import leaf_types, unflatten
from .irtext import OtherT, PtrT, VectorT
from .memory_model import Array, Ptr
from .steensgaard import NULL

MODES = ("havoc", "error")


class BodilessCalls:
    """Bodiless calls for the translator ``tr`` (``bugle.translate.Translator``), which
    provides ``pointer``, ``node``, ``pts``, ``targets``, ``access``, ``fresh``,
    ``emit``, ``marker``, ``assign_result``, ``assign_pointer``, ``written``."""

    def __init__(self, tr, mode: str = "havoc"):
        if mode not in MODES:
            raise BugleError(f"--bodiless-calls must be one of {', '.join(MODES)}, not {mode!r}")
        self.tr = tr
        self.mode = mode
        self.count = 0

    def is_bodiless(self, callee) -> bool:
        """Is ``callee`` (an llvmlite function value) declared but not defined, and not an
        LLVM intrinsic?"""
        return callee.name not in self.tr.mt.functions and not callee.name.startswith("llvm.")

    def facts(self, inst, it) -> None:
        """Pointer analysis of a bodiless call returning a pointer: the result may be null
        or point into any array reachable from the pointer arguments."""
        tr = self.tr
        tr.pts.add_object(NULL)
        res = ("v", inst.name)
        tr.pts.unify(res, NULL)
        for a in list(inst.operands)[:-1]:
            if isinstance(tr.value_type(a), PtrT):
                tr.pts.unify(res, tr.node(a, it))

    def translate(self, inst, it, callee: str, args: list, loc) -> None:
        """Emit the effect of the call (module docstring).  BugleError with
        ``--bodiless-calls=error`` or for a result type without an IL value."""
        tr = self.tr
        if self.mode == "error":
            what = "with a pointer argument " if any(isinstance(tr.value_type(a), PtrT) for a in args) else ""
            raise BugleError(f"call to {callee} {what}which is declared but not defined "
                             "(--bodiless-calls=error)", loc)
        for a in args:
            if isinstance(tr.value_type(a), PtrT):
                p = tr.pointer(a, it)
                self._reach(p, loc)
                self._reach_stored(p.cls, loc)
        rt = tr.result_type(inst)
        if isinstance(rt, OtherT) and rt.text == "void":
            return
        if isinstance(rt, PtrT):
            return tr.assign_pointer(inst, tr.fresh(il.INT), tr.fresh(il.BvType(tr.P)))
        leaves = [tr.fresh(tr.il_type(t, loc)) for t in leaf_types(rt, tr.layout)]
        if len(leaves) == 1 and not isinstance(rt, VectorT):
            return tr.assign_result(inst, leaves[0])
        tr.assign_result(inst, unflatten(rt, leaves, tr.layout))

    def _reach(self, p: Ptr, loc) -> None:
        """What the callee may do to the arrays ``p`` may point to."""
        self.tr.access(p, None, loc, self._effect, null_check=False)

    def _reach_stored(self, cls, loc) -> None:
        """The callee may also follow pointers stored in what it reaches
        (``bugle.stored_pointers``): the fresh arrays of a by-value struct's pointer fields
        and the classes of stored pointers, transitively, each through a pointer of
        arbitrary base and offset."""
        tr, seen = self.tr, set()
        for obj in tr.targets(cls):  # a by-value struct's pointer fields: their fresh arrays
            arg = next((name for name, key in tr.byval.items() if key == obj), None)
            for off, _ in tr.sptr.pointer_fields(arg) if arg is not None else ():
                key = tr.sptr.field_array(arg, off)
                self._reach(Ptr(tr.fresh(il.INT), tr.fresh(il.BvType(tr.P)), tr.pts.class_of(key)), loc)
        node = tr.pts.stored(cls)
        while node is not None and tr.pts.class_of(node) not in seen:
            c = tr.pts.class_of(node)
            seen.add(c)
            if tr.targets(c):
                self._reach(Ptr(tr.fresh(il.INT), tr.fresh(il.BvType(tr.P)), c), loc)
            node = tr.pts.stored(c)

    def _effect(self, a: Array, _offset: il.Expr) -> list:
        """The commands of a bodiless call on array ``a``: a logged read and write of an
        arbitrary cell (non-private arrays), then ``havoc`` of the whole array (not
        ``__constant``)."""
        return self.effect(a)

    def effect(self, a: Array, read: bool = True, write: bool = True,
               constrain: Callable[[str, il.Var, il.Type], list] | None = None) -> list[il.Cmd]:
        """The commands of an unknown routine's effect on array ``a`` (module docstring):
        with ``read``, a logged read of one arbitrary cell; with ``write``, a logged write of
        an arbitrary value at one arbitrary cell and ``havoc`` of the whole array (neither
        for private arrays' logs nor ``__constant`` arrays' writes).  ``constrain(kind,
        at, index_type)`` (``kind`` "read"/"write", ``at`` the havocked cell index local)
        returns commands put between the choice of the cell and the access (assumptions on
        ``at``: ``bugle.spec_functions``)."""
        tr = self.tr
        self.count += 1
        mt = tr.map_type(a)  # images have their own index and cell types
        cell, index = mt.range, mt.domain
        more: Callable[[str, il.Var, il.Type], list] = constrain or (lambda _kind, _at, _index: [])
        cmds: list = []
        if a.space != "private" and read:
            at = tr.local(f"$bodiless${self.count}$at", index)
            got = tr.local(f"$bodiless${self.count}$read", cell)
            cmds += [il.Havoc((at.name,))] + self._in_bounds(a, at, index) + more("read", at, index)
            cmds.append(il.assign(got.name, il.MapSelect(il.Var(a.name), at)))
        if a.space not in ("private", "constant") and write:
            at2 = tr.local(f"$bodiless${self.count}$wat", index)
            val = tr.local(f"$bodiless${self.count}$val", cell)
            cmds += [il.Havoc((at2.name, val.name))] + self._in_bounds(a, at2, index) + more("write", at2, index)
            cmds.append(il.Assign((il.MapLhs(a.name, at2),), (val,)))
        if a.space != "constant" and write:
            tr.written.add(a.name)
            cmds.append(il.Havoc((a.name,)))
        return cmds

    def _in_bounds(self, a: Array, at: il.Var, index: il.Type) -> list:
        """``assume at < N`` for an array of known size N (cells): the callee's accesses
        stay inside the array (an access outside would be undefined behaviour in it)."""
        n = self.tr.elem_count(a)
        if n is None or not isinstance(index, il.BvType) or n >= 1 << index.width:
            return []
        return [il.Assume(self.tr.fns.bv("ULT", index.width, at, il.BvLit(n, index.width)))]
