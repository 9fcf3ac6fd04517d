"""Access logs of the two-thread program: one-sided race logging (paper 000 section 5;
docs/design.md sections 5.5-5.8).

For each logged array ``A`` and access kind ``K`` (READ, WRITE, and ATOMIC for arrays with
atomics) the globals ``_K_HAS_OCCURRED_A``, ``_K_OFFSET_A``, ``_K_SOURCE_A`` (and
``_WRITE_VALUE_A``) hold one access of thread 1, chosen nondeterministically; thread 2's
accesses are checked against them.  Logging thread 1 before checking thread 2 at each
access finds races inside one instruction.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import il
from ..il.attributes import sourceloc, sourceloc_attrs
from .builder import ProgramBuilder
from .kernel import ArrayInfo, KernelInfo
from .options import LockstepOptions
from .threads import Threads

if TYPE_CHECKING:  # products imports the candidates, which import this module
    from .products import RemainderLemmas


class AccessLogs:
    """Logging and race checks.  ``recent`` holds the logs (array name, kind) filled since
    ``take_recent`` was last called and ``recent_loc`` the source location that filled them
    (warps clear such logs after each instruction, ``vcgen.twothread.warps``)."""

    def __init__(self, info: KernelInfo, builder: ProgramBuilder, threads: Threads, opts: LockstepOptions):
        self.info = info
        self.builder = builder
        self.threads = threads
        self.opts = opts
        self.recent: set[tuple[str, str]] = set()
        self.recent_loc: tuple | None = None
        # lemmas about the annotations' remainders of log offsets (set by the transform)
        self.remainders: RemainderLemmas | None = None

    def kinds(self, a: ArrayInfo) -> tuple[str, ...]:
        """Access logs kept for ``a``: reads, writes, and atomics if the kernel has any on it."""
        return ("READ", "WRITE", "ATOMIC") if a.name in self.info.atomic_arrays else ("READ", "WRITE")

    def var(self, a: ArrayInfo, kind: str, what: str) -> il.Var:
        """The log variable ``_KIND_WHAT_A`` (``what``: HAS_OCCURRED bool, OFFSET in cells,
        SOURCE int, VALUE a cell, WIDTH in cells (int), EVENT the bv32 event an async copy
        joins)."""
        return self.builder.glob(f"_{kind}_{what}_{a.name}", self.field_type(a, what))

    def fields(self, a: ArrayInfo, kind: str) -> tuple[str, ...]:
        """What every access logged in the ``kind`` log of ``a`` records besides
        HAS_OCCURRED: its OFFSET and SOURCE, a write's VALUE, and its WIDTH for arrays
        written at several widths (an async copy's EVENT is recorded by copies only)."""
        if kind != "WRITE":
            return ("OFFSET", "SOURCE")
        return ("OFFSET", "SOURCE", "VALUE") + (("WIDTH",) if a.name in self.info.mixed_widths else ())

    @staticmethod
    def field_type(a: ArrayInfo, what: str) -> il.Type:
        """The type of a log's ``what`` variable (see ``var``)."""
        return {"HAS_OCCURRED": il.BOOL, "OFFSET": a.dom, "SOURCE": il.INT, "VALUE": a.rng, "WIDTH": il.INT,
                "EVENT": il.BV32}[what]

    def log(self, a: ArrayInfo, kind: str, index: il.Expr, value: il.Expr | None, pred: il.Expr,
            loc: il.Attrs | None, source: il.Expr | None = None, width: int = 1,
            event: il.Expr | None = None) -> None:
        """Thread 1 (enabled when ``pred``) may record this access (``index`` a one-thread
        expression) in the ``kind`` log of ``a`` (paper 000 section 5): ``pred`` and a fresh
        nondeterministic choice.  ``source`` defaults to the number of ``loc``'s source
        location.  A write also records its value (thread 1's expression) and, for arrays
        written at several widths, its ``width`` in cells (docs/design.md 5.8); an async
        copy also records the ``event`` it joins (``vcgen.twothread.async_copies``)."""
        b = self.builder
        nd = b.tmp(il.BOOL, "log")
        b.emit(il.Havoc((nd.name,)))
        g = il.BinOp("&&", pred, nd) if pred != il.TRUE else nd
        recorded = {"OFFSET": self.threads.ex(index, 1),
                    "SOURCE": source or b.sourceloc_num(sourceloc(loc or ())),
                    "WIDTH": il.IntLit(width)}
        if kind == "WRITE":
            assert value is not None
            recorded["VALUE"] = self.threads.ex(value, 1)
        targets = [(self.var(a, kind, "HAS_OCCURRED"), il.TRUE)] + \
            [(self.var(a, kind, w), recorded[w]) for w in self.fields(a, kind)]
        if event is not None:
            targets.append((self.var(a, kind, "EVENT"), self.threads.ex(event, 1)))
        b.emit(il.Assign(tuple(il.VarLhs(v.name) for v, _ in targets),
                         tuple(il.ite(g, e, v) for v, e in targets)))
        if self.remainders is not None:  # valid for every value: unpredicated
            for cmd in self.remainders.at_log(self.var(a, kind, "OFFSET"), index):
                b.emit(cmd)
        if self.opts.warp_sync:
            self.recent.add((a.name, kind))
            self.recent_loc = sourceloc(loc or ())

    def take_recent(self) -> set[tuple[str, str]]:
        """The logs (array name, kind) filled since the last call (and forget them)."""
        out, self.recent, self.recent_loc = self.recent, set(), None
        return out

    def check(self, a: ArrayInfo, logged: str, access: str, index: il.Expr, value: il.Expr | None,
              pred: il.Expr, loc: il.Attrs | None, width: int = 1) -> None:
        """Assert that thread 2's ``access`` (READ | WRITE | ATOMIC, enabled when ``pred``) of
        cell ``index`` does not conflict with the ``logged`` log of ``a``: a
        ``{:race "logged-access", A}`` check.  Group-shared arrays race only within a group.
        Benign write-write races (docs/design.md 5.8, paper 000 section 5): unless
        ``--no-benign-tolerance``, two writes of the same value and the same ``width`` do
        not conflict, whatever the array's abstraction (the values are expressions of each
        thread: under the adversarial abstraction a value read from shared memory is
        arbitrary per thread, so it never looks benign).  Read-write races never are.  A
        launch without two distinct threads has no race check (``two_threads``; with symbolic
        sizes the check is guarded by the condition that the launch has two)."""
        if self.info.distinct_pair == il.FALSE or self.opts.only_log:
            return
        idx2 = self.threads.ex(index, 2)
        conflict = [pred, self.info.distinct_pair, self.var(a, logged, "HAS_OCCURRED"),
                    il.BinOp("==", self.var(a, logged, "OFFSET"), idx2)]
        if a.space == "group_shared":
            conflict.append(self.threads.same_group())
        benign = False
        if logged == "WRITE" and access == "WRITE" and value is not None and self.opts.benign_tolerance:
            benign = True
            differs: il.Expr = il.BinOp("!=", self.var(a, "WRITE", "VALUE"), self.threads.ex(value, 2))
            if a.name in self.info.mixed_widths:
                differs = il.BinOp("||", differs, il.BinOp("!=", self.var(a, "WRITE", "WIDTH"), il.IntLit(width)))
            conflict.append(differs)
        attrs = (il.Attr("race", (f"{logged.lower()}-{access.lower()}", a.name)),) + \
            sourceloc_attrs(loc or ()) + (il.Attr("check_offset", (idx2,)),)
        if benign:  # the last conjunct compares the values (vcgen.vc.slicing tries without it first)
            attrs += (il.Attr("benign_value"),)
        if self.remainders is not None:
            for cmd in self.remainders.at_check(self.var(a, logged, "OFFSET"), index):
                self.builder.emit(cmd)
        self.builder.emit(il.Assert(il.not_(il.and_all(x for x in conflict if x != il.TRUE)), attrs))
