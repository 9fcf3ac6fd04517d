"""``async_work_group_copy`` and ``wait_group_events`` in the two-thread program (OpenCL 1.2
section 6.12.10; docs/IL.md "Asynchronous copies").

A copy is a collective operation of the work group (divergence-checked like a barrier,
same arguments -- its event included -- in both threads) whose accesses stay in the
access logs under the copy's own source number.  GPUVerify's conservative model: the
data a copy brings in is visible to the other work-items only after a barrier that
follows a ``wait_group_events`` on its event; a barrier before the wait leaves the copy
in flight, a wait without a barrier orders nothing between work-items.  In a group of one
work item the copy is still the group's, asynchronous to that work item until its wait
(``AsyncCopies.check_own_copies``)."""
from __future__ import annotations

from .. import il
from ..analysis.uniformity import ID_CONSTS
from ..il.attributes import sourceloc_attrs
from .kernel import DIMS, ArrayInfo, AsyncSite, KernelInfo, error
from .launch import ZEXT64, coordinate_dims, group_coordinates_lemma
from .part import TransformPart
from .threads import THREADS

WAIT_PROC = "$bugle_wait_group_events"
COPY_WIDTH = 0  # logged width of a copy's write: no plain write has it, so none is benign with it


class AsyncCopies(TransformPart):
    """Asynchronous copies and waits of one kernel (its sites: ``KernelInfo.async_sites``)."""

    def source(self, site: AsyncSite, waited: bool = False) -> il.Expr:
        """The log source number of a copy site: its own number, distinct from every other
        access even at the same source location (a helper inlined twice).  ``waited``: the
        number its log entries get once a wait covered them (same source location); only
        then may a barrier remove them (``not_in_flight``)."""
        return self.builder.sourceloc_num(tuple(site.loc) + (f"async{site.number}" + ("-waited" if waited else ""),))

    def not_in_flight(self, a: ArrayInfo, kind: str, cond: il.Expr) -> il.Expr:
        """``cond`` and "the logged ``kind`` access of ``a`` is not an un-waited async
        copy's": a barrier orders plain accesses and copies already waited for; a copy
        stays in flight until its wait."""
        log = {"READ": lambda x: x.src, "WRITE": lambda x: x.dst}.get(kind)
        srcs = [self.source(x) for x in self.info.async_sites.values() if log and log(x) == a.name]
        if not srcs:
            return cond
        ours = il.or_all(il.BinOp("==", self.logs.var(a, kind, "SOURCE"), n) for n in srcs)
        return il.and_all(x for x in (cond, il.not_(ours)) if x != il.TRUE)

    def _collective(self, c: il.Call, preds: dict[int, il.Expr], what: str) -> None:
        """Divergence check of a group-collective call: threads of one group reach it
        together (as a barrier, paper 000 section 4) with equal arguments
        (OpenCL 1.2 6.12.10: "the same argument values ... for all work-items")."""
        sg = self.threads.same_group()
        srcloc = sourceloc_attrs(c.attrs)
        both_here = il.BinOp("==", preds[1], preds[2]) if preds[1] != il.TRUE else \
            il.BinOp("==", self.threads.cur(2), self.threads.cur(1))
        self.builder.emit(il.Assert(il.implies(sg, both_here), (il.Attr("barrier_divergence"),) + srcloc))
        same = il.and_all(il.BinOp("==", self.threads.ex(x, 1), self.threads.ex(x, 2)) for x in c.args
                          if self.threads.ex(x, 1) != self.threads.ex(x, 2) and not self._group_uniform(x))
        if same != il.TRUE:
            both = il.and_all(x for x in (sg, preds[1], preds[2]) if x != il.TRUE)
            self.builder.emit(il.Assert(il.implies(both, same), (il.Attr("barrier_divergence"),
                                                         il.Attr("collective_args", (what,))) + srcloc))

    def _group_uniform(self, x: il.Expr) -> bool:
        """Is the one-thread expression ``x`` provably equal in two threads of one group?
        It reads no memory and only variables that the uniformity analysis finds uniform
        when group ids are (``KernelInfo.group_nonuniform``; paper 000 section 5.1, the
        analysis ``--only-intra-group`` relies on): ``get_group_id(0) * n``, a copy's
        offset, is.  Such an argument needs no equality check -- which with a symbolic
        group size would ask the solver to see ``g1 == g2 ==> g1 * n == g2 * n`` through
        bit-blasted multipliers (over 60 s)."""
        if any(isinstance(e, il.MapSelect) for e in il.subexprs(x)):
            return False
        return not (il.free_vars(x) & (self.info.group_nonuniform | set(ID_CONSTS)))

    def one_per_group(self) -> il.Expr:
        """When does a work group have exactly one work item?  ``FALSE`` when a dimension's
        group size is a number of at least 2, else the symbolic group sizes all equal 1."""
        ls = self.opts.launch.local_size
        if any(s is not None and s >= 2 for s in ls):
            return il.FALSE
        return il.and_all(il.BinOp("==", il.Var(f"group_size_{d}"), il.BvLit(1, 32))
                          for d, s in zip(DIMS, ls) if s is None and f"group_size_{d}" in self.info.consts)

    def check_own_copies(self, a: ArrayInfo, access: str, index: il.Expr, pred: il.Expr,
                         loc: il.Attrs | None) -> None:
        """In a work group of one work item, the work item's own ``access`` (READ | WRITE |
        ATOMIC) of cell ``index`` (a one-thread expression), enabled when ``pred`` (thread
        1's predicate), must not touch a cell an un-waited copy of its group reads (for a
        write) or writes: {:race} assertions against thread 1's logs, emitted before thread
        1 logs the access.

        OpenCL 1.2 6.12.10: the copy is performed by the work group, asynchronously, until a
        ``wait_group_events`` on its event; in a group of two or more work items the pair's
        other thread covers every work item of the group (``copy``), in a group of one the
        pair is in two groups, so the work item is checked against its own group's copies
        here (symmetric in the threads: thread 1 is any work item).  After the wait the copy
        is complete for its only work item: only un-waited entries conflict."""
        one = self.one_per_group()
        if one == il.FALSE or not a.logged or self.opts.only_log:
            return
        idx = self.threads.ex(index, 1)
        for logged in ("READ", "WRITE") if access != "READ" else ("WRITE",):
            log = {"READ": lambda x: x.src, "WRITE": lambda x: x.dst}[logged]
            srcs = [self.source(x) for x in self.info.async_sites.values() if log(x) == a.name]
            if not srcs:
                continue
            ours = il.or_all(il.BinOp("==", self.logs.var(a, logged, "SOURCE"), n) for n in srcs)
            conflict = [one, pred, self.logs.var(a, logged, "HAS_OCCURRED"), ours,
                        il.BinOp("==", self.logs.var(a, logged, "OFFSET"), idx)]
            attrs = (il.Attr("race", (f"{logged.lower()}-{access.lower()}", a.name)),) + \
                sourceloc_attrs(loc or ()) + (il.Attr("check_offset", (idx,)), il.Attr("own_copy"))
            self.builder.emit(il.Assert(il.not_(il.and_all(x for x in conflict if x != il.TRUE)), attrs))

    def copy(self, c: il.Call, preds: dict[int, il.Expr], loc: il.Attrs | None) -> None:
        """``call {:async_copy "$$dst", "$$src", N} $bugle_async_copy_bvP(dst, src, count,
        dst_stride, src_stride, span, event)`` (bugle.async_copy, docs/IL.md).

        OpenCL 1.2 section 6.12.10: the whole group performs the copy; its reads of src and
        writes of dst may happen at any time until a ``wait_group_events`` on its event.
        Encoding (paper 000 section 5, one-sided logging; docs/design.md 5.5-5.6):
          * collective: divergence-checked like a barrier, arguments equal in one group
            (the event too: a copy joining different events in different work-items is
            reported like barrier divergence) unless uniform within a group
            (``_group_uniform``);
          * the copy is an access to an arbitrary element ``k < count`` (cell ``off +
            k*stride + j``, ``j < span``) of each array, logged for thread 1 with the
            site's own source number and checked for thread 2: READ src / WRITE dst
            (write value arbitrary and width ``COPY_WIDTH``, so benign tolerance never
            hides a conflict);
          * thread 2 is checked *before* thread 1 logs this instance, against everything
            logged so far -- plain accesses and un-waited earlier copies, also earlier
            instances of this very site in a loop -- and *after* it only for threads of
            different groups (one copy of two groups to overlapping global cells races;
            inside one group the copy's own cells are one operation);
          * the log entries stay until a barrier after a wait on the copy's event (a
            barrier before the wait does not reset them, ``not_in_flight``), so any plain
            access of another thread of the group to a cell in flight is a race; in a
            group of one work item, whose pair is in two groups, the work item's own
            accesses are checked against its group's copies (``check_own_copies``);
          * element ``k`` is ``off + k`` for stride and span 1 (``_cell``), and with a
            symbolic size the group-coordinates lemma is assumed for the two threads' ``k``
            (``_coordinate_lemmas``): ``group_id * n + k``, ``k < n``, is seen injective;
          * the log entries also record the event the copy joins (its ``event``
            argument: OpenCL returns that same event object when it is not 0), so a wait
            on that event waits for this copy too;
          * data: each thread's equality-abstracted copy of dst becomes arbitrary
            (independently per thread: sound, the cells in flight are unknown).
        """
        self._collective(c, preds, "async_copy")
        site = next(x for x in self.info.async_sites.values() if il.attr_args(c.attrs, "async_copy")[2].value == x.number)
        dst, src = self.info.arrays.get(site.dst), self.info.arrays.get(site.src)
        if dst is None or src is None or dst.space == "constant":
            raise error(f"async copy between unknown or constant arrays {site.dst}, {site.src}")
        doff, soff, count, dstride, sstride, span, event = c.args
        assert isinstance(dst.dom, il.BvType)  # cells are indexed by bit-vectors (docs/IL.md)
        P = dst.dom.width
        idx, ks = {}, {}
        for t in THREADS:
            k, j = self.builder.tmp(dst.dom, "copy_k"), self.builder.tmp(dst.dom, "copy_j")
            self.builder.emit(il.Havoc((k.name, j.name)))
            self.builder.emit(il.Assume(il.BinOp("&&", il.FunApp(self.builder.bvfun("ULT", P), (k, count)),
                                         il.FunApp(self.builder.bvfun("ULT", P), (j, span)))))
            ks[t] = k
            idx[t] = {a: self._cell(off, k, stride, j, span, P)
                      for a, off, stride in (("dst", doff, dstride), ("src", soff, sstride))}
        self._coordinate_lemmas(ks, P)
        vals = {t: self.builder.tmp(dst.rng, "copy_val") for t in THREADS}
        self.builder.emit(il.Havoc(tuple(v.name for v in vals.values())))
        logged = {"src": src.logged, "dst": dst.logged}

        def check(pred: il.Expr) -> None:
            if logged["src"]:
                self.logs.check(src, "WRITE", "READ", idx[2]["src"], None, pred, loc)
                if src.name in self.info.atomic_arrays:
                    self.logs.check(src, "ATOMIC", "READ", idx[2]["src"], None, pred, loc)
            if logged["dst"]:
                for kind in ("READ", "WRITE") + (("ATOMIC",) if dst.name in self.info.atomic_arrays else ()):
                    self.logs.check(dst, kind, "WRITE", idx[2]["dst"], vals[2], pred, loc, COPY_WIDTH)
        check(preds[2])
        self.check_own_copies(src, "READ", idx[1]["src"], preds[1], loc)
        self.check_own_copies(dst, "WRITE", idx[1]["dst"], preds[1], loc)
        n = self.source(site)
        if logged["src"]:
            self.logs.log(src, "READ", idx[1]["src"], None, preds[1], loc, source=n, event=event)
        if logged["dst"]:
            self.logs.log(dst, "WRITE", idx[1]["dst"], vals[1], preds[1], loc, source=n, width=COPY_WIDTH,
                          event=event)
        other_group = il.not_(self.threads.same_group()) if self.threads.same_group() != il.TRUE else il.FALSE
        if other_group != il.FALSE:
            check(il.and_all(x for x in (preds[2], other_group) if x != il.TRUE))
        if dst.equality:
            for t in THREADS:
                h = self.builder.glob(f"_HAVOC_{dst.name}${t}", dst.decl.type)
                self.builder.emit(il.Havoc((h.name,)))
                m = il.Var(self.threads.name(dst.name, t))
                self.builder.emit(il.assign(m.name, il.ite(preds[t], h, m)))

    def _cell(self, off: il.Expr, k: il.Expr, stride: il.Expr, j: il.Expr, span: il.Expr, width: int) -> il.Expr:
        """The cell ``off + k*stride + j`` of element ``k`` (``j < span``), written ``off + k``
        for the common stride 1 and span 1 (then ``j`` is 0): the form of a global id,
        ``group_id * n + k``, that ``_coordinate_lemmas`` are about."""
        def bv(op: str, *args: il.Expr) -> il.Expr:
            return il.FunApp(self.builder.bvfun(op, width), args)
        one = il.BvLit(1, width)
        scaled = k if stride == one else bv("MUL", k, stride)
        return bv("ADD", off, scaled if span == one else bv("ADD", scaled, j))

    def _coordinate_lemmas(self, ks: dict[int, il.Var], width: int) -> None:
        """With a symbolic size in a dimension, assume the group-coordinates lemma
        (``launch.group_coordinates_lemma``, valid under the launch axioms) for the two
        threads' element indices ``ks`` of this copy and for each against the other
        thread's local id: a copy of ``group_id * n + k`` (``k < n``, ``n`` the symbolic
        group size) then needs no bit-level proof that the product is injective to be
        seen disjoint from another group's copy or accesses ``group_id * n + local_id``.

        With 64-bit offsets (``--spir64``, ``size_t`` arguments) the kernel computes
        ``zext(group_id) * zext(n) + k`` in bv64: the same lemma on the zero-extended ids
        and size (``group_coordinates_lemma`` at width 64), valid for every 32-bit value (the
        sum is below ``(group_id + 1) * n <= 2^64``, so it cannot wrap)."""
        dims = coordinate_dims(self.opts.launch, set(self.info.consts))
        if width == 64 and ZEXT64 not in self.builder.declared_functions:
            return  # the kernel computes no zero-extended id: no term of the lemma's form
        if width not in (32, 64):
            return
        for d in dims:
            lid: dict[int, il.Expr] = {t: il.Var(f"local_id_{d}${t}") for t in THREADS}
            if width == 64:
                lid = {t: il.FunApp(ZEXT64, (x,)) for t, x in lid.items()}
            for x1, x2 in ((ks[1], ks[2]), (ks[1], lid[2]), (lid[1], ks[2])):
                self.builder.emit(il.Assume(group_coordinates_lemma(self.builder, d, x1, x2, width),
                                            (il.Attr("global_id_lemma"),)))

    def wait(self, c: il.Call, preds: dict[int, il.Expr]) -> None:
        """``call $bugle_wait_group_events(events)``: collective (as ``_collective``); the
        log entries of every copy site whose bit is set in thread 1's ``events`` are
        marked waited (their source number becomes the site's *waited* number): the copy
        is complete, but in GPUVerify's conservative model its data reaches the other
        work-items only through a later barrier, which then removes the entries for
        threads of one group (``not_in_flight`` no longer protects them).  For threads of
        different groups nothing ever removes them: nothing orders other groups."""
        b = self.builder
        self._collective(c, preds, "wait_group_events")
        ev = self.threads.ex(c.args[0], 1)
        for site in sorted(self.info.async_sites.values(), key=lambda x: x.number):
            n, waited = self.source(site), self.source(site, waited=True)
            for name, kind in ((site.src, "READ"), (site.dst, "WRITE")):
                a = self.info.arrays.get(name)
                if a is None or not a.logged:
                    continue
                mine = il.FunApp(b.bvfun("OR", 32), (il.BvLit(1 << site.number, 32), self.logs.var(a, kind, "EVENT")))
                bit = il.BinOp("!=", il.FunApp(b.bvfun("AND", 32), (ev, mine)), il.BvLit(0, 32))
                v = self.logs.var(a, kind, "SOURCE")
                cond = il.and_all(x for x in (preds[1], bit, il.BinOp("==", v, n)) if x != il.TRUE)
                b.emit(il.assign(v.name, il.ite(cond, waited, v)))
