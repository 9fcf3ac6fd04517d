"""Specification functions: ``__spec_`` functions, ``__writes_to`` and ``__reads_from``.

GPUVerify's annotation language lets a kernel call an external routine (a library call, a
device function verified elsewhere) through a *specification function*: a function whose
name starts with ``__spec_`` and whose body holds only annotations.  It is a contract
without a body -- the Boogie procedure without an implementation of paper 000 (GPUVerify,
TOPLAS 2014) section 5.2, "Handling Multiple Procedures", whose call asserts the
``requires``, havocs what the procedure ``modifies`` and assumes the ``ensures``.  Which
functions are specifications is decided by the name alone (GPUVerify's convention): a
function with another name whose body holds only annotations is an ordinary function, its
``__ensures`` checked at its returns.

``bugle cc`` inlines a specification function like any other (``mark_spec_returns`` puts
the return marker of ``bugle.annotations`` in it, even without ``__ensures``, and replaces
the value it returns by a fresh one); here its instance (``instance``) is translated as:

1. ``__requires(e)``: ``assert {:precondition} {:call_site ...} e`` where it is written,
   reported at the call ("a precondition for this call might not hold"), as for any
   inlined function (``Annotations``);
2. ``__old_int(e)`` / ``__old_bool(e)`` inside an ``__ensures``: where the ``__ensures`` is
   written (before any effect of the call), ``havoc $spec$old$N; assume $spec$old$N == e``
   (memory read as it is at the call); the ``__ensures`` then uses ``$spec$old$N``;
3. at the return: for each ``__writes_to(p)`` / ``__reads_from(p)`` and each array ``A``
   ``p`` may point to (case split on its base, as for a dereference), the effect of a
   bodiless call (``BodilessCalls.effect``, paper 000 section 5.2 ``LOG_WR``/``LOG_RD``):
   one logged, race-checked access to an arbitrary cell of ``A`` (a write, resp. a read),
   standing for every access the routine makes, and for ``__writes_to`` ``havoc $$A``.  The
   accesses are marked *external* (``{:sourceloc F, L, C, "external"}``, the call's
   location): race reports say "from external source location".  Before each access,
   the conjuncts of the ``__ensures`` about this array's log (``__write_implies(p,
   __write_offset_bytes(p) / 4 == gid)``) are assumed of the access itself (the log
   queries replaced by "this access, at this cell"), so that they constrain the accesses of
   both threads of the two-thread program, not only the logging thread's log; conjuncts
   that also read memory are not (memory is read after the call);
4. every ``__ensures(e)`` becomes ``assume {:user_assume} {:spec_ensures} e`` after the
   effects: a plain load in ``e`` reads memory after the havoc, ``__write(p)`` and
   ``__write_offset_bytes(p)`` see the logged access (``__global_ensures``: for every thread).

With ``--no-inline`` a specification function is never verified on its own (it has no
body; ``bugle.modular``).  BugleError (exit 4) for: ``__writes_to``/``__reads_from``
outside a ``__spec_`` function, with a non-pointer argument, ``__writes_to`` of
``__constant`` memory, an access that is not executed on every path to the return,
anything but annotations in a ``__spec_`` body (stores, calls of other functions, reads of
memory outside annotations), and a ``__spec_`` function returning a pointer or aggregate.
"""
from __future__ import annotations

import re

import llvmlite.binding as llvm

from vcgen import il

from . import BugleError
from .builtins import demangle_opencl
from .irtext import PtrT

VK = llvm.ValueKind

PREFIX = "__spec_"
ACCESS_CALLS = {"__bugle_writes_to": "write", "__bugle_reads_from": "read"}  # header functions
SOURCE_NAMES = {"write": "__writes_to", "read": "__reads_from"}
RESULT = re.compile(r"__bugle_spec_result_(\w+)$")
OLD_CALLS = ("__old_int", "__old_bool")
_SCALAR_RESULT = re.compile(r"(?:i\d+|half|float|double)$")


def is_spec_function(name: str) -> bool:
    """Is ``name`` (a source name or an LLVM name, possibly Itanium-mangled or quoted) the
    name of a specification function (``__spec_...``)?"""
    return demangle_opencl(name.strip('"')).startswith(PREFIX)


def spec_return(ind: str, ty: str, val: str, dbg: str, n: int) -> tuple[list[str], str]:
    """IR lines replacing the returned value ``val`` (type ``ty``) of a specification
    function by a fresh one, and that value's name: a specification function has no body,
    so what it returns is arbitrary (constrained by its ``__ensures``).  BugleError for a
    pointer or aggregate result."""
    if ty == "void":
        return [], val
    if not _SCALAR_RESULT.match(ty):
        raise BugleError(f"a __spec_ function may only return void, an integer or a floating-point value "
                         f"(not {ty})")
    fresh = f"%bugle.spec.result.{n}"
    return [f"{ind}{fresh} = call {ty} @__bugle_spec_result_{ty}(){dbg}"], fresh


def result_declarations(types: set[str]) -> list[str]:
    """``declare`` lines of the fresh-result functions ``spec_return`` used."""
    return [f"declare {ty} @__bugle_spec_result_{ty}()" for ty in sorted(types) if ty != "void"]


class _Access:
    """A ``__writes_to(p)`` / ``__reads_from(p)`` reached in the walk: ``kind`` "write" or
    "read", ``ptr`` (``Ptr``), ``label`` its LLVM block, ``loc`` its location."""

    def __init__(self, kind: str, ptr, label: str, loc):
        self.kind, self.ptr, self.label, self.loc = kind, ptr, label, loc


class SpecFunctions:
    """The specification function instances of one kernel translation (``annots``: its
    ``bugle.annotations.Annotations``; module docstring)."""

    def __init__(self, annots):
        self.annots = annots
        self.tr = annots.tr
        self.accesses: dict = {}  # instance key -> [_Access]
        self.olds: dict = {}  # LLVM name of an __old_* call -> the IL local of its snapshot
        self._instance: dict = {}  # DILocation id -> instance key (memo)
        self._labels: dict = {}  # id(instruction) -> LLVM block, for the instances' instructions
        self.count = 0

    # ---------------------------------------------------------------- instances
    def instance(self, it) -> int | None:
        """The instance of a specification function the instruction ``it`` belongs to (the
        ``inlinedAt`` location of the call, through any function inlined into it), or None."""
        md = it.dbg
        if md is None:
            return None
        if md not in self._instance:
            self._instance[md] = self._find_instance(md)
        return self._instance[md]

    def _find_instance(self, md: int) -> int | None:
        mt = self.tr.mt
        for _ in range(64):
            name = self._subprogram_name(md)
            up = mt.inlined_at(md)
            if name is not None and is_spec_function(name):
                if up is None:
                    raise BugleError(f"{name} is a specification function: it has no body to verify",
                                     mt.location(md))
                return up
            if up is None:
                return None
            md = up
        return None

    def _subprogram_name(self, md: int) -> str | None:
        """The name of the function whose code the DILocation ``md`` is in."""
        mt = self.tr.mt
        node = mt.metadata.get(md)
        ref = node[1].get("scope") if node and node[0] == "DILocation" else None
        for _ in range(100):
            if not (ref and ref.startswith("!")):
                return None
            n = mt.metadata.get(int(ref[1:]))
            if n is None:
                return None
            if n[0] == "DISubprogram":
                return mt.subprogram_name(int(ref[1:]))
            ref = n[1].get("scope")
        return None

    # ---------------------------------------------------------------- prescan
    def check_bodies(self, walk, allowed) -> None:
        """Every instruction of a specification function instance is part of an annotation:
        ``allowed(inst)`` (``Annotations``: pure values, address computations, annotation
        and id calls) and not a read of memory the annotations do not rebuild.  BugleError
        naming the first other instruction."""
        tr = self.tr
        for label, pairs in walk:
            for inst, it in pairs:
                if self.instance(it) is None:
                    continue
                self._labels[id(inst)] = label
                op = inst.opcode
                callee = self._callee(inst)
                if op == "load" and self.annots.is_deferred(inst):
                    continue
                if op == "load":
                    what = "a read of memory outside its annotations (annotations may read arrays " \
                           "through indexing of the function's pointer arguments)"
                elif callee is not None and (RESULT.match(callee) or allowed(inst)):
                    continue
                elif op != "load" and op != "call" and (allowed(inst) or op == "addrspacecast"):
                    continue
                else:
                    what = f"a call of {callee}" if callee else f"a {op}"
                raise BugleError(f"a __spec_ function may only contain annotations, not {what}", tr.loc(it))

    @staticmethod
    def _callee(inst) -> str | None:
        if inst.opcode != "call":
            return None
        c = list(inst.operands)[-1]
        return c.name if c.value_kind == VK.function else None

    # ---------------------------------------------------------------- the walk
    def access(self, inst, base: str, args: list, it, loc) -> None:
        """``__bugle_writes_to(p)`` / ``__bugle_reads_from(p)`` reached in the walk: remember
        it for the return of its instance (module docstring, 3)."""
        tr = self.tr
        kind = ACCESS_CALLS[base]
        name = SOURCE_NAMES[kind]
        key = self.instance(it)
        if key is None:
            raise BugleError(f"{name} may only be used in a specification function (a function whose name "
                             f"starts with {PREFIX}): it says what the function's caller may see it access", loc)
        if len(args) != 1 or not isinstance(tr.value_type(args[0]), PtrT):
            raise BugleError(f"{name} expects pointers (the arrays the function may "
                             f"{'write' if kind == 'write' else 'read'})", loc)
        self.accesses.setdefault(key, []).append(_Access(kind, tr.pointer(args[0], it), self._labels[id(inst)], loc))

    def result(self, inst, loc) -> None:
        """``__bugle_spec_result_<ty>()``: the value the specification function returns,
        arbitrary (a fresh havocked local)."""
        tr = self.tr
        tr.assign_result(inst, tr.fresh(tr.il_type(tr.result_type(inst), loc)))

    def snapshot_olds(self, ensures_arg, loc, glob: bool) -> None:
        """At an ``__ensures`` of a specification function: each ``__old_*(e)`` it uses
        becomes a local holding ``e`` now, before the call's effects (module docstring, 2)."""
        tr, annots = self.tr, self.annots
        for old in self._old_calls(ensures_arg):
            if old.name in self.olds:
                continue
            arg = list(old.operands)[0]
            e = annots.expr(arg, loc, eager=glob, value=True)
            self.count += 1
            v = tr.local(f"$spec$old${self.count}", tr.il_type(tr.value_type(arg), loc))
            tr.emit(il.Havoc((v.name,)))
            tr.emit(il.Assume(il.BinOp("==", v, e), (il.Attr("user_assume"),) + annots.glob_attrs(glob)))
            self.olds[old.name] = v

    def _old_calls(self, v) -> list:
        """The ``__old_*`` calls the value ``v`` is computed from (outermost ones)."""
        tr, annots = self.tr, self.annots
        out, seen, work = [], set(), [v]
        while work:
            x = work.pop()
            if x.value_kind != VK.instruction or not x.name or x.name in seen or x.name not in tr.defs:
                continue
            seen.add(x.name)
            inst = tr.defs[x.name][0]
            callee = self._callee(inst)
            if callee is not None and demangle_opencl(callee) in OLD_CALLS:
                out.append(inst)
                continue
            if inst.opcode == "phi" and annots.heads_loop(annots.block_of.get(x.name, "")):
                continue
            work.extend(inst.operands)
        return out

    def old_value(self, inst) -> il.Var | None:
        """The snapshot local of the ``__old_*`` call ``inst``, if it belongs to a
        specification function's ``__ensures``."""
        return self.olds.get(inst.name) if inst.name else None

    # ---------------------------------------------------------------- the return
    def return_point(self, key: int, ensures: list, inst, it) -> None:
        """The return of the instance ``key``: its accesses, then its ``__ensures`` assumed.
        ``ensures``: ``[(IL expression, location, global?)]``."""
        tr = self.tr
        site = self.annots.call_site(it)
        external = (*(site or tr.loc(it) or (tr.source_path or "?", 0, 0)), "external")
        marker = self._labels[id(inst)]
        for acc in self.accesses.get(key, ()):
            if not self.annots.dominates(acc.label, marker):
                raise BugleError(f"{SOURCE_NAMES[acc.kind]} must be executed on every path through the "
                                 "specification function", acc.loc)
            tr.access(acc.ptr, None, external, lambda a, _off, acc=acc: self._effect(acc, a, ensures),
                      null_check=False)
        for e, loc, glob in ensures:
            tr.emit(il.Assume(e, (il.Attr("user_assume"), il.Attr("spec_ensures")) + self.annots.glob_attrs(glob)))

    def _effect(self, acc: _Access, a, ensures: list) -> list:
        if acc.kind == "write" and a.space == "constant":
            raise BugleError(f"__writes_to: {a.source_name} is __constant memory, which cannot be written",
                             acc.loc)
        write = acc.kind == "write"
        return self.tr.bodiless.effect(a, read=not write, write=write,
                                       constrain=lambda kind, at, index: self._constraints(kind, a, at, index, ensures))

    def _constraints(self, kind: str, a, at: il.Var, index: il.Type, ensures: list) -> list:
        """``assume`` of the ``__ensures`` conjuncts about ``a``'s ``kind`` log, of the
        access at cell ``at`` itself (module docstring, 3); none for arrays not indexed by
        pointer-wide offsets (images)."""
        if index != il.BvType(self.tr.P):
            return []
        names = {f"__{kind}_{a.name}": il.TRUE, f"__{kind}_offset_{a.name}": at}
        out = []
        for e, _, glob in ensures:
            for c in il.conjuncts(e):
                apps = [x for x in il.subexprs(c) if isinstance(x, il.FunApp) and x.name in names]
                if not apps or any(isinstance(x, il.MapSelect) for x in il.subexprs(c)):
                    continue
                own = il.rewrite(c, lambda x: names.get(x.name) if isinstance(x, il.FunApp) else None)
                if isinstance(own, il.BinOp) and own.op == "==>" and own.left == il.TRUE:
                    own = own.right  # __write_implies(p, e) of this write: e
                out.append(il.Assume(own, (il.Attr("user_assume"), il.Attr("spec_ensures"))
                                     + self.annots.glob_attrs(glob)))
        return out
