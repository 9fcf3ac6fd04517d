"""OpenCL asynchronous work-group copies (OpenCL 1.2 section 6.12.10) -> IL calls.

``async_work_group_copy(dst, src, n, ev)`` / ``async_work_group_strided_copy(dst, src, n,
stride, ev)`` become (docs/IL.md "Asynchronous copies")::

    assume {:sourceloc "k.cl", 5, 14} true;
    call {:sourceloc "k.cl", 5, 14} {:async_copy "$$tile", "$$in", 0}
        $bugle_async_copy_bv32(dst_off, src_off, count, dst_stride, src_stride, span, ev_in);
    $e := BV32_OR(ev_in, 1bv32);

Element ``k < count`` of the copy covers the cells ``off + k*stride + j`` (``j < span``)
of each side: offsets, strides and span are in cells of the array (bvP), so a ``float4``
copy of a float array has span 4 and a strided copy multiplies the stride of the global
side (OpenCL: the global side is strided, the local side contiguous).  The third
attribute argument is the copy's *site number* N (0..31).

The event argument ``ev_in`` is passed too: like every argument of the copy it must be
the same for all work-items of the group (OpenCL 1.2 6.12.10), which lockstep checks.
Events are ``bv32`` bit sets (``event_t`` is ``i32`` after ``bugle.cc``): the copy returns
its ``ev`` argument with bit N set, so one event shared by several copies (the spec's
event argument) names all of them.  ``wait_group_events(n, list)`` reads the ``n``
events of the (private) list and becomes
``call {:sourceloc ...} $bugle_wait_group_events(e0 | e1 | ...);``: it waits for every
copy whose bit is set.  Which copies an event names is thus resolved exactly by the
program's own data flow (the lock-step stage decides per thread), never guessed.

Both calls are group-collective; vcgen.twothread.async_copies checks them like barriers and gives them
their race semantics (see ``Lockstep._async_copy``).

A ``dst``/``src`` pointer that may point to several arrays (or null) gives a case split
over the (dst, src) pairs, one copy site each, and the null-pointer check.

Errors (BugleError, exit 4): more than 32 copy sites, a non-constant ``num_events``,
a ``dst``/``src`` pointer to private memory, element sizes that are not a whole number
of cells.
"""
from __future__ import annotations

import re
from typing import Any

from vcgen import il

from . import BugleError
from .builtins import demangle_opencl
from .irtext import FloatT, IntT
from .memory_model import ClassFacts, cell_bytes

COPY = ("async_work_group_copy", "async_work_group_strided_copy")
WAIT = "wait_group_events"
WAIT_PROC = "$bugle_wait_group_events"
MAX_SITES = 32
# Itanium builtin type codes of OpenCL gentypes: code -> (bytes, float?)
_CODES = {"c": (1, False), "a": (1, False), "h": (1, False), "s": (2, False), "t": (2, False),
          "i": (4, False), "j": (4, False), "l": (8, False), "m": (8, False), "f": (4, True),
          "d": (8, True), "Dh": (2, True)}
_GENTYPE = re.compile(r"PU3AS\d[KVr]*(Dv(\d+)_)?(Dh|[cahstijlmfd])")


def copy_proc(P: int) -> str:
    """Name of the copy procedure for pointer width ``P``: ``$bugle_async_copy_bv32``."""
    return f"$bugle_async_copy_bv{P}"


def gentype(callee: str) -> tuple[int, Any]:
    """``(components, scalar IR type)`` of the copied gentype, read from the mangled name
    (``..._Z21async_work_group_copyPU3AS3Dv4_fPU3AS1K...`` -> ``(4, float)``)."""
    m = _GENTYPE.search(callee)
    if m is None:
        raise ValueError(callee)
    size, is_float = _CODES[m.group(3)]
    scalar = FloatT(8 * size) if is_float else IntT(8 * size)
    return (int(m.group(2)) if m.group(1) else 1), scalar


class AsyncCopies:
    """Translation of async copies and waits for the translator ``tr`` (bugle.translate)."""

    def __init__(self, tr):
        self.tr = tr
        self.sites = 0
        self.used_copy = False
        self.used_wait = False
        self.events = 0  # event variables $event$N read by waits
        self._it = None  # text of the call being translated
        self.pairs: list = []  # (dst node, src node) of every copy (points-to nodes)

    @staticmethod
    def kind(callee: str) -> str | None:
        """``"copy"``, ``"strided"``, ``"wait"`` for the OpenCL builtins, else None."""
        if not callee.startswith("_Z"):
            return None
        base = demangle_opencl(callee)
        return {COPY[0]: "copy", COPY[1]: "strided", WAIT: "wait"}.get(base)

    # ------------------------------------------------------------ pre-pass facts
    def facts(self, inst, it) -> bool:
        """Record element accesses of a copy's dst/src for the memory model; False if
        ``inst`` is not a copy or wait."""
        tr = self.tr
        ops = list(inst.operands)
        k = self.kind(ops[-1].name)
        if k is None:
            return False
        if k == "wait":
            tr.facts(tr.node(ops[1], it)).access_sizes.add(4)
            return True
        n, scalar = self._gentype(ops[-1].name, tr.loc(it))
        size = tr.layout.size(scalar)
        self.pairs.append((tr.node(ops[0], it), tr.node(ops[1], it)))
        for p in ops[:2]:
            f = tr.facts(tr.node(p, it))
            f.access_sizes.add(size)
            f.access_types.append(scalar)
            f.steps.add(size)
        return True

    def align_cells(self, by_class: dict, natural) -> None:
        """Give the two sides of every copy one cell size: a copy's span counts cells of
        both arrays, so when the memory model would choose different cell sizes for the
        destination's and the source's points-to classes (a ``char`` copy of a ``float``
        array into a ``float`` tile), both become byte-level.  ``by_class``: class
        representative -> ClassFacts (updated); ``natural(rep)``: the declared element size."""
        pts = self.tr.pts
        changed = True
        while changed:
            changed = False
            for d, s in self.pairs:
                rd, rs = pts.class_of(d), pts.class_of(s)
                fd, fs = by_class.setdefault(rd, ClassFacts()), by_class.setdefault(rs, ClassFacts())
                if cell_bytes(fd, natural(rd)) != cell_bytes(fs, natural(rs)):
                    fd.force_bytes = fs.force_bytes = True
                    changed = True

    def _gentype(self, callee: str, loc) -> tuple:
        try:
            return gentype(callee)
        except (ValueError, KeyError):
            raise BugleError(f"{demangle_opencl(callee)} of this element type is not supported",
                             loc) from None

    # ------------------------------------------------------------ translation
    def translate(self, inst, it, callee: str, args: list, loc) -> bool:
        """Emit the copy or wait of a call; False if ``callee`` is neither."""
        k = self.kind(callee)
        if k is None:
            return False
        self._it = it
        if k == "wait":
            self._wait(args, loc)
        else:
            self._copy(inst, callee, args, k == "strided", loc)
        return True

    def _arrays(self, v, what: str, loc):
        """``(pointer, arrays)``: the arrays a copy operand may point to (its points-to set
        without null) and its pointer; BugleError for private memory."""
        tr = self.tr
        p = tr.pointer(v, self._it)
        arrays = [tr.arrays[o] for o in tr.targets(p.cls) if o in tr.arrays]
        for a in arrays:
            if a.space == "private":
                raise BugleError(f"async copy {what} in private memory ({a.source_name}) is not "
                                 "allowed (OpenCL 1.2 6.12.10: global <-> local only)", loc)
        return p, arrays

    def _copy(self, inst, callee: str, args: list, strided: bool, loc) -> None:
        """The copy call; when ``dst``/``src`` may point to several arrays (or null), a case
        split over the (dst, src) pairs as for any dereference (paper 000 section 5.1),
        one copy site per pair, ending in the null-pointer check."""
        tr = self.tr
        n, scalar = self._gentype(callee, loc)
        elem = n * tr.layout.size(scalar)
        pd, dsts = self._arrays(args[0], "destination", loc)
        ps, srcs = self._arrays(args[1], "source", loc)
        pairs = [(d, s) for d in dsts for s in srcs]
        exact = len(tr.targets(pd.cls)) == 1 and len(tr.targets(ps.cls)) == 1 and len(pairs) == 1
        if exact:
            self._copy_call(inst, args, strided, loc, elem, pairs[0], pd.offset, ps.offset)
            return
        # the event when no copy happens (only the null branch, which fails its check)
        tr.assign_result(inst, tr.operand(args[-1]))
        tr.split_count += 1
        stem = f"{tr.cur_label}${tr.split_count}"
        join = f"{stem}$join"
        labels = [f"{stem}${d.name[2:]}${s.name[2:]}" for d, s in pairs] + [f"{stem}$null"]
        tr.end_block(il.Goto(tuple(labels)))
        conds = []
        for (d, s), lab in zip(pairs, labels):
            tr.start_block(lab)
            c = il.BinOp("&&", il.BinOp("==", pd.base, il.IntLit(d.ident)), il.BinOp("==", ps.base, il.IntLit(s.ident)))
            conds.append(c)
            tr.emit(il.Assume(c, (il.Attr("partition"),)))
            self._copy_call(inst, args, strided, loc, elem, (d, s), pd.offset, ps.offset)
            tr.end_block(il.Goto((join,)))
        tr.start_block(labels[-1])
        tr.emit(il.Assume(il.and_all(il.not_(c) for c in conds), (il.Attr("partition"),)))
        tr.marker(loc)
        tr.emit(il.Assert(il.FALSE, (tr.sourceloc(loc), il.Attr("null_pointer"))))
        tr.end_block(il.Goto((join,)))
        tr.start_block(join)

    def _copy_call(self, inst, args: list, strided: bool, loc, elem: int, pair: tuple, doff, soff) -> None:
        """One copy between the arrays ``pair`` = (dst, src) of ``elem``-byte elements."""
        tr = self.tr
        if self.sites >= MAX_SITES:
            raise BugleError(f"more than {MAX_SITES} async copy sites are not supported", loc)
        dst, src = pair
        if dst.space == "constant":
            raise BugleError(f"async copy into constant memory ({dst.source_name})", loc)
        P = tr.P
        spans = []
        for a in (dst, src):
            if elem % a.cell:
                raise BugleError(f"async copy of {elem}-byte elements on {a.source_name} with "
                                 f"{a.cell}-byte cells is not supported", loc)
            spans.append(elem // a.cell)
        count = self._size(args[2])
        stride = self._size(args[3]) if strided else il.BvLit(1, P)
        # the global side is the strided one (6.12.10)
        dst_local = dst.space == "group_shared"
        dstride = tr.fns.bv("MUL", P, stride, il.BvLit(spans[0], P)) if strided and not dst_local \
            else il.BvLit(spans[0], P)
        sstride = tr.fns.bv("MUL", P, stride, il.BvLit(spans[1], P)) if strided and dst_local \
            else il.BvLit(spans[1], P)
        if spans[0] != spans[1]:
            raise BugleError("async copy between arrays of different cell sizes is not supported", loc)
        site = self.sites
        self.sites += 1
        self.used_copy = True
        tr.written.add(dst.name)
        ev_in = tr.operand(args[-1])
        tr.marker(loc)
        tr.emit(il.Call(copy_proc(P), (doff, soff, count, dstride, sstride, il.BvLit(spans[0], P), ev_in), (),
                        (tr.sourceloc(loc), il.Attr("async_copy", (dst.name, src.name, il.IntLit(site))))))
        tr.assign_result(inst, tr.fns.bv("OR", 32, ev_in, il.BvLit(1 << site, 32)))

    def _size(self, v) -> il.Expr:
        """A ``size_t`` operand as a bvP."""
        tr = self.tr
        w = tr.int_width(tr.value_type(v))
        return tr.fns.extend(False, w, tr.P, tr.operand(v)) if w < tr.P else tr.operand(v)

    def _wait(self, args: list, loc) -> None:
        tr = self.tr
        n = tr.const_int(args[0])
        if n is None or n > 64:
            raise BugleError("wait_group_events with a non-constant (or over 64) number of events "
                             "is not supported", loc)
        p = tr.pointer(args[1], self._it)
        evs = []
        for k in range(n):
            self.events += 1
            d = tr.local(f"$event${self.events}", il.BV32)
            evs.append(d)
            tr.access(p, IntT(32), loc,
                       lambda arr, idx, k=k, d=d: tr.read_cells(arr, tr.cell_index(arr, idx, 4 * k), IntT(32), d))
        mask = il.BvLit(0, 32)
        for e in evs:
            mask = e if mask == il.BvLit(0, 32) else tr.fns.bv("OR", 32, mask, e)
        self.used_wait = True
        tr.marker(loc)
        tr.emit(il.Call(WAIT_PROC, (mask,), (), (tr.sourceloc(loc),)))

    # ------------------------------------------------------------ declarations
    def decls(self) -> list[il.ProcedureDecl]:
        """``procedure {:async_copy} $bugle_async_copy_bvP(dst, src, count, dst_stride,
        src_stride, span: bvP, event: bv32);`` and ``procedure {:wait_group_events}
        $bugle_wait_group_events(events: bv32);`` when used."""
        out = []
        P = il.BvType(self.tr.P)
        if self.used_copy:
            out.append(il.ProcedureDecl(copy_proc(self.tr.P), tuple(
                (x, P) for x in ("dst", "src", "count", "dst_stride", "src_stride", "span")) + (("event", il.BV32),),
                (), attrs=(il.Attr("async_copy"),)))
        if self.used_wait:
            out.append(il.ProcedureDecl(WAIT_PROC, (("events", il.BV32),), (),
                                        attrs=(il.Attr("wait_group_events"),)))
        return out
