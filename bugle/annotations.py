"""The annotation language: ``__assert``, ``__invariant``, ``__requires``, ``__ensures``
and the two-thread queries, LLVM calls -> IL (docs/IL.md "Annotations").

Paper 000 section 3 introduces preconditions, loop invariants and assertions over the
two threads of the reduction; GPUVerify's annotation language adds queries about the
other thread, enabledness and the access logs.  Here:

* **Statements.** ``__assert(e)`` -> ``assert {:user_assert} e``; ``__assume(e)`` ->
  ``assume {:user_assume} e``; ``__invariant(e)`` -> ``assert {:user_invariant} e`` at the *start* of the
  loop header block holding the call.  An invariant is a property of the loop head: the
  call must be executed there, before the loop condition branches.  Short-circuit
  operators (``&&``, ``||``, ``?:``) in its argument make clang evaluate it through
  branches, which puts the call in a block after the head -- GPUVerify's semantics
  rejects such an invariant, and so does vcgen (the assert is emitted where the call is:
  "user-specified invariant does not appear at loop head", exit 5), as it rejects an
  invariant in the loop body.  clang folds some short-circuit operators away (``u >= 0 &&
  e`` for an unsigned ``u``), so the rule is read from the source: a header invariant
  whose argument text uses one gets ``{:short_circuit}`` and is rejected too
  (``bugle.source_text``); ``__requires(e)`` in the kernel -> ``requires e`` (kernel
  precondition, assumed), in an inlined function -> ``assert {:precondition} e`` at the
  call (checked at every call site); ``__ensures(e)`` -> ``assert {:postcondition} e``
  before every return of its function (``bugle.cc`` marks the returns of functions that
  have an ``__ensures`` with ``__bugle_return_<ty>(v)`` calls before inlining).  The
  ``__global_*`` forms add ``{:global_annotation}``: checked whether or not the thread is
  enabled.
* **Queries** (``__enabled``, ``__dominator_enabled``, ``__uniform_int``, ``__distinct_int``,
  ``__all``, ``__at_most_one``, ``__other_int``, ``__read``, ``__write``, ``__read_offset_bytes``,
  ``__write_offset_bytes``, ``__atomic_has_taken_value``, ``__return_val_int`` /
  ``_int4`` / ``_ptr`` and the ``_bool`` forms) have no
  one-thread value: every value depending on one is *deferred* — not assigned where LLVM
  computes it but rebuilt as an expression inside the annotation that uses it, so that
  lockstep evaluates it where the annotation is checked.  A branch on a deferred value
  (short-circuit ``&&`` inside an annotation) is a nondeterministic ``goto``; the
  rebuilt expression keeps the real condition.  A deferred value used by anything but
  an annotation is a BugleError -- except an access-log query's, which is an arbitrary
  value there (the log does not exist when the kernel runs).  A load at an address
  computed from a query (``A[__other_int(i)]``) is a read ``$$A[...]`` inside the
  annotation.  Two-thread queries become ``{:annotation ...}``
  functions; lockstep (``vcgen.twothread.queries``) expands them per thread.
* **Memory in preconditions and barrier invariants.**  The loads computing the argument
  of a ``__requires`` or a barrier invariant (``bugle.barrier_invariants``) that nothing
  else uses, and after which nothing writes memory before the call, are left out of the
  walk and rebuilt as reads ``$$A[i]`` inside the annotation.
* **Specification functions** (``__spec_*``, ``bugle.spec_functions``): in their instances
  ``__ensures`` are assumed after the call's ``__writes_to``/``__reads_from`` effects, not
  checked; their loads are rebuilt as reads after the call, ``__old_*`` are snapshots taken
  at the call.
* ``__implies(a, b)`` is ``!a || b`` (both evaluated); ``__old_int(x)`` is ``x`` as
  computed where it is called (in an ``__ensures`` at function entry: the entry value);
  ``__ptr_base(p)`` is the number of p's array (``bv32``), ``__ptr_offset_bytes(p)`` its
  offset in bytes.

Errors: BugleError (exit 4) naming the construct and line.
"""
from __future__ import annotations

import re
from collections import defaultdict
from typing import Any, NamedTuple

import llvmlite.binding as llvm
import networkx as nx

from vcgen import il
from vcgen.il.attributes import sourceloc

from . import BugleError, NotPure
from .barrier_invariants import NAMES as BARRIER_INVARIANT_CALLS
from .barrier_invariants import SNAPSHOT_CALL, BarrierInvariants
from .irtext import IntT, PtrT
from .source_text import call_argument, calls_defined_function, read_lines, uses_short_circuit
from .spec_functions import ACCESS_CALLS as SPEC_ACCESS_CALLS
from .spec_functions import PREFIX as SPEC_PREFIX
from .spec_functions import SpecFunctions, is_spec_function, result_declarations, spec_return

VK = llvm.ValueKind

LOOP_INVARIANTS = ("__invariant", "__global_invariant", "__candidate_invariant", "__candidate_global_invariant")
FUNCTION_WIDE = ("__function_wide_invariant", "__function_wide_candidate_invariant")
STATEMENTS = ("__requires", "__ensures", "__assert", "__assume", "__global_assert",
              "__global_requires", "__global_ensures") + LOOP_INVARIANTS + FUNCTION_WIDE + BARRIER_INVARIANT_CALLS
QUERIES = ("__enabled", "__dominator_enabled", "__uniform_int", "__uniform_bool", "__distinct_int", "__distinct_bool",
           "__all", "__at_most_one", "__other_int", "__other_bool", "__read", "__write",
           "__read_offset_bytes", "__write_offset_bytes", "__return_val_int", "__return_val_bool",
           "__return_val_int4", "__return_val_ptr", "__atomic_has_taken_value")
LOG_QUERIES = ("__read", "__write", "__read_offset_bytes", "__write_offset_bytes")
HELPERS = ("__implies", "__old_int", "__old_bool", "__ptr_base", "__ptr_offset_bytes", "__ite",
           "__add_noovfl_2", "__add_noovfl_3", "__add_noovfl_4")
# a + b with an assumption that it does not overflow (a value, and a trusted assumption)
NOOVFL_ADDS = {"__add_noovfl_int": True, "__add_noovfl_unsigned_int": False}  # name -> signed
ALL = STATEMENTS + QUERIES + HELPERS + tuple(NOOVFL_ADDS) + tuple(SPEC_ACCESS_CALLS)
AXIOM_PREFIX = "__bugle_axiom_"  # the functions the header's __axiom(e) defines
UNSUPPORTED_PREFIX = "__bugle_unsupported_"  # GPUVerify annotations not implemented here
RETURN_MARKER = re.compile(r"__bugle_return_(\w+)$")
# instructions a deferred value may flow through (they are rebuilt as expressions)
PURE_OPCODES = {"add", "sub", "mul", "udiv", "sdiv", "urem", "srem", "shl", "lshr", "ashr", "and",
                "or", "xor", "icmp", "select", "zext", "sext", "trunc", "phi", "freeze", "extractelement"}


class LoopInvariant(NamedTuple):
    """An ``__invariant``-like call in a loop header: ``glob`` for the ``__global_`` forms,
    ``short`` when its source argument uses ``&&``/``||``/``?:``, ``candidate`` for the
    ``__candidate_`` forms, ``reads`` when its value depends on a load in the header (then
    it is emitted where the call is, and lockstep substitutes the header's reads)."""
    inst: Any
    it: Any
    glob: bool
    short: bool
    candidate: bool
    reads: bool


def _and(a: il.Expr, b: il.Expr) -> il.Expr:
    return b if a == il.TRUE else a if b == il.TRUE else il.BinOp("&&", a, b)


def _signed_overload(callee: str) -> bool:
    """Is the first parameter of the mangled overload ``callee`` signed (``_Z4__fooij``:
    ``i``, ``l``, ``x``, ``s``, ``a`` are signed Itanium type codes)?"""
    m = re.match(r"_Z(\d+)", callee)
    code = callee[m.end() + int(m.group(1)):][:1] if m else ""
    return code in ("i", "l", "x", "s", "a")


def base_name(callee: str) -> str:
    """``_Z13__uniform_inti`` -> ``__uniform_int`` (overloads are mangled)."""
    m = re.match(r"_Z(\d+)", callee)
    return callee[m.end():m.end() + int(m.group(1))] if m else callee


class Annotations:
    """Annotation handling for one kernel translation ``tr`` (``bugle.translate.Translator``).

    ``prescan()`` runs once the CFG and definitions are known (after the translator's parameters)."""

    def __init__(self, tr):
        self.tr = tr
        self.deferred: set = set()  # LLVM value names rebuilt inside annotations
        self.block_of: dict = {}
        self.invariants: dict = defaultdict(list)  # header -> [(inst, it, global, short-circuit?)]
        self.misplaced: set = set()  # __invariant calls outside a loop header: emitted where they are
        self.ensures: dict = defaultdict(list)  # inlining key -> [(inst, it, global)]
        self.markers: dict = defaultdict(list)  # inlining key -> [label]
        self._idom: dict | None = None
        self._ipdom: dict | None = None
        self.short_circuit: set = set()  # labels of short-circuit regions of annotations
        self.function_wide: list = []  # [(inst, it, candidate?, LLVM label)]
        self.barrier_invariants = BarrierInvariants(self)  # bugle.barrier_invariants
        self.invariant_only: set = set()  # values used only by barrier invariants (rebuilt there)
        self.arbitrary: set = set()  # log queries whose value code uses: arbitrary values there
        self.specs = SpecFunctions(self)  # __spec_ function instances (bugle.spec_functions)

    # ------------------------------------------------------------------ prescan
    def prescan(self) -> None:
        tr = self.tr
        users = tr.users  # value name -> [(inst, it)] using it (``Translator.run``)
        sources = []
        bi_calls = []
        for label, pairs in tr.walk:
            for inst, it in pairs:
                if inst.name:
                    self.block_of[inst.name] = label
                name = self._callee(inst)
                if name is None:
                    continue
                base = base_name(name)
                if base in QUERIES:
                    sources.append(inst)
                elif base in BARRIER_INVARIANT_CALLS or base in ("__requires", "__global_requires"):
                    bi_calls.append(inst)  # their loads read memory where they are: rebuilt as reads
                elif base in LOOP_INVARIANTS:
                    if self._heads_loop(label):
                        self.invariants[label].append(LoopInvariant(
                            inst, it, "global" in base, self._short_circuit_source(it), "candidate" in base,
                            self._reads_memory(list(inst.operands)[0], label)))
                    else:
                        self.misplaced.add(id(inst))
                elif base in FUNCTION_WIDE:
                    self.function_wide.append((inst, it, "candidate" in base, label))
                elif base in ("__ensures", "__global_ensures"):
                    self.ensures[self._inline_key(it)].append((inst, it, base.startswith("__global")))
                    if self.specs.instance(it) is not None:
                        bi_calls.append(inst)  # its loads read memory after the call: rebuilt as reads
                elif RETURN_MARKER.match(name):
                    self.markers[self._inline_key(it)].append(label)
        if bi_calls:
            self.invariant_only = self.barrier_invariants.exclusive(bi_calls, users, self._rebuildable)
            self.deferred |= self.invariant_only
        sources = [s for s in sources if not self._escaping_log_query(s, users)]
        work = [s.name for s in sources]
        while work:  # short-circuit joins of deferred branches defer more values
            self._defer(work, users)
            work = self._short_circuits()
        self._check_ensures()
        self.specs.check_bodies(tr.walk, lambda i: self._annotation_only(i)
                                or bool(RETURN_MARKER.match(self._callee(i) or "")))
        for inst, it, _, label in self.function_wide:
            self._check_function_wide(it, label)

    def _callee(self, inst) -> str | None:
        if inst.opcode != "call":
            return None
        c = list(inst.operands)[-1]
        return c.name if c.value_kind == VK.function else None

    def _escaping_log_query(self, inst, users: dict) -> bool:
        """Is ``inst`` an access-log query (``__read``, ``__write``, ``__read_offset_bytes``,
        ``__write_offset_bytes``) whose value reaches code outside annotations?  Such a value
        does not exist when the kernel runs (it is about the verifier's log), so the code
        gets an arbitrary value (``arbitrary_query``): every value it might see is covered."""
        if base_name(self._callee(inst) or "") not in LOG_QUERIES:
            return False
        saved = set(self.deferred)
        try:
            self._defer([inst.name], users)
            return False
        except BugleError:
            self.arbitrary.add(inst.name)
            return True
        finally:
            self.deferred = saved

    def _defer(self, names: list, users: dict) -> None:
        """Forward closure of the query results over pure instructions."""
        tr = self.tr
        work = list(names)
        self.deferred.update(work)
        while work:
            v = work.pop()
            for inst, it in users.get(v, ()):
                callee = self._callee(inst)
                base = base_name(callee) if callee else None
                if base in STATEMENTS or inst.opcode == "br" or (inst.name and inst.name in self.invariant_only):
                    continue
                if base in QUERIES + HELPERS or inst.opcode in PURE_OPCODES or self._annotation_read(inst):
                    if inst.name not in self.deferred:
                        self.deferred.add(inst.name)
                        work.append(inst.name)
                    continue
                first = self._source_of(v)
                raise BugleError(f"the value of {first} may only be used inside annotations "
                                 f"(used by {inst.opcode})", tr.loc(it))

    def _short_circuits(self) -> list:
        """Blocks between a branch on a deferred value and its join: the short-circuit
        evaluation of an annotation.  Their pure values are rebuilt too (the branch is
        nondeterministic in the IL, so their locals may be unassigned), and so are the
        phis of the join (returned, to be deferred); anything else there (a store, a
        barrier, a call) means the query steers real code: a BugleError."""
        tr = self.tr
        self.short_circuit = set()
        new: list = []
        blocks = dict(tr.walk)
        for label, pairs in tr.walk:
            inst, it = pairs[-1]
            if inst.opcode != "br" or len(list(inst.operands)) != 3:
                continue
            cond = list(inst.operands)[0]
            if not (cond.value_kind == VK.instruction and cond.name in self.deferred):
                continue
            join = self._post_dominators().get(label)
            region, work = set(), [s for s in tr.cfg.successors(label)]
            while work:
                b = work.pop()
                if b == join or b in region:
                    continue
                region.add(b)
                work.extend(tr.cfg.successors(b))
            for b in region:
                for i2, it2 in blocks[b]:
                    if not self._annotation_only(i2):
                        raise BugleError(f"the value of {self._source_of(cond.name)} may only be used "
                                         f"inside annotations (it controls a {i2.opcode})", tr.loc(it2))
            self.short_circuit |= region
            for phi, _ in tr.phis.get(join, ()):
                if phi.name not in self.deferred:
                    new.append(phi.name)
        return new

    def _annotation_read(self, inst) -> bool:
        """Is ``inst`` an address computation or plain load (a query-dependent one is a read
        of the thread's own copy inside the annotation: ``A[__other_int(i)]``)?"""
        if inst.opcode == "load":
            return not self.tr.defs[inst.name][1].is_atomic_access()
        return inst.opcode in ("getelementptr", "bitcast", "addrspacecast")

    def _rebuildable(self, inst) -> bool:
        """May ``inst`` be left out of the walk and rebuilt inside a barrier invariant: a
        pure instruction (not a loop-carried phi), a plain load, an address computation or
        a work-item function / annotation query."""
        op = inst.opcode
        if op == "phi":
            return not self._heads_loop(self.block_of.get(inst.name, ""))
        if op == "load":
            return not self.tr.defs[inst.name][1].is_atomic_access() and self.barrier_invariants.reads_shared(inst)
        if op in ("br", "store"):
            return False
        return self._annotation_only(inst) and not (op == "call" and base_name(self._callee(inst) or "")
                                                     in STATEMENTS)

    def _work_item_call(self, inst) -> bool:
        """A call of a work-item function (``get_group_id``, CUDA's special registers):
        pure, so ``eager`` annotations rebuild it rather than read a stale local."""
        callee = self._callee(inst) if inst.opcode == "call" else None
        return callee is not None and (base_name(callee).startswith("get_")
                                       or callee.startswith("llvm.nvvm.read.ptx.sreg"))

    def _annotation_only(self, inst) -> bool:
        op = inst.opcode
        if op in PURE_OPCODES or op in ("br", "load", "getelementptr", "bitcast"):
            return True
        callee = self._callee(inst) if op == "call" else None
        if callee is None:
            return False
        return base_name(callee) in ALL or callee.startswith("llvm.dbg") or self._work_item_call(inst)

    def _post_dominators(self) -> dict:
        if self._ipdom is None:
            g = self.tr.cfg.reverse(copy=True)
            for n in list(self.tr.cfg):
                if self.tr.cfg.out_degree(n) == 0:
                    g.add_edge("$exit", n)
            self._ipdom = nx.immediate_dominators(g, "$exit")
        return self._ipdom

    def _source_of(self, v: str) -> str:
        inst, _ = self.tr.defs[v]
        callee = self._callee(inst)
        if callee and base_name(callee) in QUERIES:
            return base_name(callee) + "()"
        for o in inst.operands:
            if o.value_kind == VK.instruction and o.name in self.deferred:
                return self._source_of(o.name)
        return "an annotation query"

    def _inline_key(self, it) -> int | None:
        """The inlined instance an instruction comes from (its ``inlinedAt`` location)."""
        return self.tr.mt.inlined_at(it.dbg)

    def _check_ensures(self) -> None:
        for key, calls in self.ensures.items():
            labels = self.markers.get(key, [])
            for inst, it, _ in calls:
                loc = self.tr.loc(it)
                if not labels:
                    raise BugleError("cannot find the returns of the function of this __ensures", loc)
                own = self.block_of[inst.name]
                for lab in labels:
                    if not self._dominates(own, lab):
                        raise BugleError("__ensures must be executed on every path to the return "
                                         "of its function (put it first in the function)", loc)

    # ------------------------------------------------------------------ dominators
    def idom(self) -> dict[str, str]:
        if self._idom is None:
            self._idom = nx.immediate_dominators(self.tr.cfg, self.tr.block_names[0])
        return self._idom

    def _dominates(self, a: str, b: str) -> bool:
        idom = self.idom()
        while True:
            if a == b:
                return True
            if idom.get(b, b) == b:
                return False
            b = idom[b]

    def _short_circuit_source(self, it) -> bool:
        """Is the ``__invariant`` call of ``it`` written with ``&&``, ``||`` or ``?:`` in
        its argument (read from the source file; False when it cannot be read)?"""
        loc = self.tr.loc(it)
        if loc is None:
            return False
        lines = read_lines(self.tr.mt.location_path(it.dbg)) or read_lines(loc[0])
        arg = call_argument(lines, loc[1], loc[2], ("__invariant", "__global_invariant")) if lines else None
        return arg is not None and uses_short_circuit(arg)

    def _heads_loop(self, label: str) -> bool:
        """Is ``label`` the header of a natural loop (the target of a back edge)?"""
        return any(self._dominates(label, p) for p in self.tr.cfg.predecessors(label))

    # ------------------------------------------------------------------ hooks
    def is_deferred(self, inst) -> bool:
        return bool(inst.name) and inst.name in self.deferred

    def block_start(self, label: str) -> None:
        """Emit the invariants of the loop headed by ``label`` (start of its block; values
        the header computes before the call are rebuilt there)."""
        tr = self.tr
        for inv in self.invariants.get(label, ()):
            if inv.reads:
                continue  # emitted where the call is (statement)
            loc = tr.loc(inv.it)
            e = self.expr(list(inv.inst.operands)[0], loc, region={label}, head=label, eager=inv.glob)
            tr.marker(loc)
            tr.emit(il.Assert(e, self._invariant_attrs(loc, inv.glob, inv.candidate, inv.short)))

    def _invariant_attrs(self, loc, glob: bool, candidate: bool, short: bool = False) -> tuple:
        return ((self.tr.sourceloc(loc), il.Attr("user_invariant")) + self._glob(glob)
                + ((il.Attr("candidate_invariant"),) if candidate else ())
                + ((il.Attr("short_circuit"),) if short else ()))

    def _header_invariant(self, inst) -> LoopInvariant | None:
        label = self.block_of.get(inst.name) if inst.name else None
        for lab in ([label] if label else self.invariants):
            for inv in self.invariants.get(lab, ()):
                if inv.inst is inst:
                    return inv
        return None

    def _reads_memory(self, v, label: str) -> bool:
        """Does the value ``v`` of an invariant in header ``label`` depend on a load the
        header makes before the call (through pure instructions of the header)?"""
        tr, seen, work = self.tr, set(), [v]
        while work:
            x = work.pop()
            if x.value_kind != VK.instruction or x.name in seen or self.block_of.get(x.name) != label:
                continue
            seen.add(x.name)
            inst = tr.defs[x.name][0] if x.name in tr.defs else None
            if inst is None or inst.opcode == "phi":
                continue
            if inst.opcode == "load":
                return True
            work.extend(inst.operands)
        return False

    def statement(self, inst, it, callee: str, args: list, loc) -> None:
        """An annotation statement call reached in the walk."""
        tr = self.tr
        base = base_name(callee)
        if base == SNAPSHOT_CALL:
            return self.barrier_invariants.snapshot(args, loc)
        if len(args) != 1:
            raise BugleError(f"{base} expects one argument", loc)
        glob = self._glob("global" in base)
        if base in LOOP_INVARIANTS:
            inv = None if id(inst) in self.misplaced else self._header_invariant(inst)
            if inv is None or inv.reads:
                # not in a loop header: kept where it is, for vcgen to reject (GPUVerify's
                # "user-specified invariant does not appear at loop head", exit 5); reading
                # memory: kept after the header's loads, which lockstep substitutes
                e = self.expr(args[0], loc, eager=bool(glob))
                tr.marker(loc)
                tr.emit(il.Assert(e, self._invariant_attrs(loc, bool(glob), "candidate" in base,
                                                           inv is not None and inv.short)))
            return  # else emitted at the loop head (block_start)
        if base in FUNCTION_WIDE:
            e = self.expr(args[0], loc, leaf=self._fixed_leaf, eager=True)
            tr.marker(loc)
            tr.emit(il.Assert(e, (tr.sourceloc(loc), il.Attr("function_wide_invariant"))
                              + ((il.Attr("candidate_invariant"),) if "candidate" in base else ())))
            return
        if base in ("__ensures", "__global_ensures"):
            if self.specs.instance(it) is not None:
                self.specs.snapshot_olds(args[0], loc, bool(glob))  # __old_*(e): e now
            return  # emitted at the returns
        if base in BARRIER_INVARIANT_CALLS:
            return self.barrier_invariants.call(base, args, loc)
        if base in ("__requires", "__global_requires"):
            return self._requires(inst, it, args[0], loc, glob)
        e = self.expr(args[0], loc, eager=bool(glob))
        if base == "__assume":
            tr.emit(il.Assume(e, (il.Attr("user_assume"),)))
            return
        tr.marker(loc)
        tr.emit(il.Assert(e, (tr.sourceloc(loc), il.Attr("user_assert")) + glob))

    def _requires(self, inst, it, arg, loc, glob: tuple) -> None:
        """A kernel's ``__requires``: ``requires e`` (assumed); in the entry of a modular
        function check (``bugle.modular``): ``assume {:precondition} e`` where it is (the
        arguments are locals there); in an inlined function: ``assert {:precondition}
        {:call_site FILE, L, C} e`` checked at the call (reported at the call, with a note
        pointing at the precondition)."""
        tr = self.tr
        if self._in_kernel(it):
            if not tr.postdominates_entry(self.block_of[inst.name]):
                raise BugleError("__requires must be executed unconditionally at kernel entry", loc)
            if tr.entry is not None:
                e = self.expr(arg, loc, eager=bool(glob))
                tr.emit(il.Assume(e, (il.Attr("precondition"),) + glob))
                return
            e = self.expr(arg, loc, leaf=lambda v: self._pure_leaf(v, "__requires"), eager=True)
            tr.requires.append(il.Spec("requires", e, attrs=(tr.sourceloc(loc),) + glob))
            return
        e = self.expr(arg, loc, eager=bool(glob))
        tr.marker(loc)
        site = self._call_site(it)
        tr.emit(il.Assert(e, (tr.sourceloc(loc), il.Attr("precondition")) + glob
                          + ((il.Attr("call_site", tr.sourceloc(site).args),) if site else ())))

    def _call_site(self, it) -> tuple | None:
        """``(file, line, column)`` of the call that inlined the function of ``it``."""
        tr = self.tr
        site = tr.mt.location(self._inline_key(it))
        if site is None:
            return None
        f, line, col = site
        if tr.source_path and (f is None or f == tr.main_file):
            f = tr.source_path
        return (f or tr.source_path or tr.main_file or "?", line, col)

    def pure_leaf(self, v, what: str) -> il.Expr:
        """``v`` as an expression of kernel arguments, ids, sizes and constants (BugleError
        naming ``what`` otherwise)."""
        return self._pure_leaf(v, what)

    def _pure_leaf(self, v, what: str) -> il.Expr:
        try:
            return self.tr.pure_value(v)
        except NotPure as np:
            raise BugleError(f"{what} may only depend on kernel arguments and ids ({np})",
                             self.tr.last_loc) from None

    def _in_kernel(self, it) -> bool:
        """Is the call in the kernel's own body (not in a function inlined into it)?"""
        mt = self.tr.mt
        node = mt.metadata.get(it.dbg) if it.dbg is not None else None
        ref = node[1].get("scope") if node and node[0] == "DILocation" else None
        seen = 0
        while ref and ref.startswith("!") and seen < 100:
            seen += 1
            n = mt.metadata.get(int(ref[1:]))
            if n is None:
                break
            if n[0] == "DISubprogram":
                return mt.subprogram_name(int(ref[1:])) == self.tr.kname
            ref = n[1].get("scope")
        return True

    # ------------------------------------------------------------------ function-wide
    def fixed_leaf(self, v) -> il.Expr:
        """``v`` as an expression of arguments, ids, sizes and constants, else its local."""
        return self._fixed_leaf(v)

    def _fixed_leaf(self, v) -> il.Expr:
        """A value of a function-wide invariant: its pure form (ids, sizes, arguments) when
        it has one, else its local (valid only if the invariant's block computes it)."""
        try:
            return self.tr.pure_value(v)
        except NotPure:
            return self.tr.operand(v)

    def _check_function_wide(self, it, label: str) -> None:
        """GPUVerify's placement rule: a function-wide invariant is written at the end of
        the kernel: from its block on, control runs straight to the return."""
        tr, loc = self.tr, self.tr.loc(it)
        if not self._in_kernel(it):
            raise BugleError("__function_wide_invariant may only be written in the kernel itself", loc)
        lines = read_lines(tr.mt.location_path(it.dbg)) or (read_lines(loc[0]) if loc else None)
        arg = call_argument(lines, loc[1], loc[2], FUNCTION_WIDE) if lines and loc else None
        called = calls_defined_function(arg, lines) if arg and lines else None
        if called:  # GPUVerify evaluates it at loop heads, where no procedure can be called
            raise BugleError(f"a function-wide invariant may not call a function ({called})", loc)
        b, seen = label, set()
        while True:
            succ = list(tr.cfg.successors(b))
            if not succ:
                return
            if len(succ) > 1 or b in seen:
                raise BugleError("__function_wide_invariant must be written at the end of the kernel, "
                                 "after its last loop and branch", loc)
            seen.add(b)
            b = succ[0]

    def hoist_function_wide(self, blocks: list[il.Block]) -> list[il.Block]:
        """Move each ``assert {:function_wide_invariant} e`` (emitted where the call is, at
        the end of the kernel) to the head of every loop of the kernel's own body, as a
        loop invariant (``{:user_invariant} {:global_annotation}``, a Houdini candidate with
        ``{:candidate_invariant}``): not guarded by the thread's predicate (a fact of the
        kernel's state, which a loop-cut predicated loop havocs for a thread not running it
        too).  The values the call's block computes are substituted,
        so ``e`` is evaluated at each loop head: reads of arrays become reads at the head;
        anything else must be a kernel argument, an id, a size or a constant (GPUVerify's
        rule; else a BugleError: a parameter reassigned in the kernel, a value computed in
        a loop, the result of a call).  Without loops the invariant states nothing."""
        if not self.function_wide:
            return blocks
        tr = self.tr
        hoisted: list[il.Assert] = []
        out = []
        for blk in blocks:
            defs: dict[str, il.Expr] = {}
            cmds: list = []
            for c in blk.cmds:
                if isinstance(c, il.Assign) and all(isinstance(x, il.VarLhs) for x in c.lhss):
                    for lhs, r in zip(c.lhss, c.rhss):
                        defs[lhs.name] = il.substitute(r, defs)
                if isinstance(c, il.Assert) and il.has_attr(c.attrs, "function_wide_invariant"):
                    e = il.substitute(c.expr, defs)
                    bad = sorted(v for v in il.free_vars(e) if v in tr.locals)
                    if bad:
                        raise BugleError("a function-wide invariant may only use kernel arguments that the "
                                         "kernel does not modify, ids, sizes, constants and memory "
                                         f"(it uses the local value {bad[0]})", sourceloc(c.attrs))
                    attrs = tuple(a for a in c.attrs if a.name != "function_wide_invariant")
                    # a fact of the whole kernel, not of the threads that run the loop: a
                    # thread that left (or never entered) a predicated loop must keep it
                    # while the loop havocs the logs for the other thread
                    hoisted.append(il.Assert(e, attrs + (il.Attr("user_invariant"), il.Attr("global_annotation"))))
                    if cmds and isinstance(cmds[-1], il.Assume) and cmds[-1].expr == il.TRUE:
                        cmds.pop()  # its source marker
                    continue
                cmds.append(c)
            out.append(il.Block(blk.label, tuple(cmds), blk.transfer))
        heads = {tr.il_label(lab) for lab, _ in tr.walk if self._heads_loop(lab) and self._own_loop(lab)}
        return [il.Block(b.label, tuple(hoisted) + b.cmds, b.transfer) if b.label in heads else b for b in out]

    def _own_loop(self, label: str) -> bool:
        """Is the loop headed by ``label`` in the kernel's own body (not inlined)?"""
        for _, it in dict(self.tr.walk)[label]:
            if it.dbg is not None:
                return self._in_kernel(it)
        return True

    def axioms(self) -> list[il.Spec]:
        """``__axiom(e)`` at file scope (the header defines ``__bugle_axiom_LINE`` whose body
        is ``__assume(e)``): ``requires e`` of the kernel, for every thread; ``e`` may
        depend on ids, sizes and constants only (BugleError otherwise)."""
        tr = self.tr
        out = []
        for name, ft in tr.mt.functions.items():
            if not name.startswith(AXIOM_PREFIX) or ft.cconv in ("spir_kernel", "ptx_kernel"):
                continue
            sub = tr.sub_translator(name)
            for _, pairs in sub.walk:
                for inst, it in pairs:
                    if base_name(self._callee(inst) or "") != "__assume":
                        continue
                    arg = list(inst.operands)[0]
                    try:
                        e = sub.pure_value(arg)
                    except NotPure as np:
                        raise BugleError(f"__axiom may only depend on ids, sizes and constants ({np})",
                                         sub.loc(it)) from None
                    t = sub.value_type(arg)
                    if isinstance(t, IntT) and t.width > 1:
                        e = il.BinOp("!=", e, il.BvLit(0, t.width))
                    out.append(il.Spec("requires", e, attrs=(tr.sourceloc(sub.loc(it)), il.Attr("axiom"))))
        return out

    def noovfl_add(self, inst, callee: str, args: list, loc) -> None:
        """``__add_noovfl_int(a, b)`` / ``__add_noovfl_unsigned_int(a, b)``: ``a + b``, and
        ``assume`` that the addition does not overflow (trusted, like ``__assume``)."""
        tr = self.tr
        a, b = (tr.operand(x) for x in args)
        w = tr.int_width(tr.value_type(args[0]))
        signed = NOOVFL_ADDS[base_name(callee)]
        tr.emit(il.Assume(self._no_overflow([a, b], w, signed), (il.Attr("user_assume"),)))
        tr.assign_result(inst, tr.fns.bv("ADD", w, a, b))

    def _no_overflow(self, xs: list, w: int, signed: bool) -> il.Expr:
        """The sum of the ``w``-bit values ``xs`` fits in ``w`` bits (signed or unsigned):
        computed ``w + 2`` bits wide, it equals the extension of its truncation."""
        fns, wide = self.tr.fns, w + 2
        total: il.Expr = fns.extend(signed, w, wide, xs[0])
        for x in xs[1:]:
            total = fns.bv("ADD", wide, total, fns.extend(signed, w, wide, x))
        return il.BinOp("==", total, fns.extend(signed, w, wide, il.BvExtract(total, w, 0)))

    def return_point(self, inst, it, args: list, loc) -> None:
        """``__bugle_return_<ty>(v)`` (from ``bugle.cc``): check the ``__ensures`` of the
        function instance returning here."""
        tr = self.tr
        rv = args[0] if args else None
        key = self._inline_key(it)
        spec = self.specs.instance(it)
        contract = []
        for ens, eit, glob in self.ensures.get(key, ()):
            eloc = tr.loc(eit)
            e = self.expr(list(ens.operands)[0], eloc, retval=rv, eager=glob)
            if spec is not None:
                contract.append((e, eloc, glob))  # assumed after the call's effects
                continue
            tr.marker(eloc)
            tr.emit(il.Assert(e, (tr.sourceloc(eloc), il.Attr("postcondition")) + self._glob(glob)))
        if spec is not None:
            self.specs.return_point(spec, contract, inst, it)

    def arbitrary_query(self, inst) -> bool:
        """A log query whose value code uses (``_escaping_log_query``): assign it an
        arbitrary value (havoc, per thread).  False for other calls."""
        if not inst.name or inst.name not in self.arbitrary:
            return False
        tr = self.tr
        tr.assign_result(inst, tr.fresh(tr.il_type(tr.result_type(inst), tr.last_loc)))
        return True

    def helper(self, inst, callee: str, args: list, loc) -> None:
        """``__implies``/``__old_*``/``__ptr_*`` outside deferred expressions: plain values."""
        self.tr.assign_result(inst, self._call_expr(inst, base_name(callee), args, loc,
                                                    self.tr.operand, None))

    @staticmethod
    def _glob(on: bool) -> tuple:
        return (il.Attr("global_annotation"),) if on else ()

    def glob_attrs(self, on: bool) -> tuple[il.Attr, ...]:
        """``({:global_annotation},)`` for the ``__global_`` forms, else ``()``."""
        return self._glob(on)

    def dominates(self, a: str, b: str) -> bool:
        """Does the LLVM block ``a`` dominate ``b``?"""
        return self._dominates(a, b)

    def heads_loop(self, label: str) -> bool:
        """Is the LLVM block ``label`` the header of a natural loop?"""
        return self._heads_loop(label)

    def call_site(self, it) -> tuple[str, int, int] | None:
        """``(file, line, column)`` of the call that inlined the function of ``it``."""
        return self._call_site(it)

    # ------------------------------------------------------------------ rebuilding
    def expr(self, v, loc, retval=None, leaf=None, region: set | frozenset = frozenset(), head=None,
             eager: bool = False, value: bool = False) -> il.Expr:
        """The IL expression of the annotation argument ``v`` (an ``i1`` or integer):
        deferred values and values defined in ``region`` (labels) are rebuilt, every other
        value is ``leaf(v)`` (default: its IL local); so are the phis of the loop header
        ``head`` (loop-carried: their locals hold the value at the head).  ``eager``
        (``__global_*`` forms, checked for threads that skip the annotation) also
        rebuilds every pure non-phi instruction, whose local would be stale there.
        Deferred loads (a barrier invariant's, or at a query-dependent address) are reads
        ``$$A[i]`` of their array (``BarrierInvariants.load``);
        ``value``: an integer ``v`` stays an integer (else it is read as ``v != 0``)."""
        tr = self.tr
        leaf = leaf or tr.operand
        memo: dict = {}

        def rebuilt(x) -> bool:
            if x.name in self.deferred:
                return True
            blk = self.block_of.get(x.name)
            inst = tr.defs[x.name][0]
            op = inst.opcode
            if op == "call" and base_name(self._callee(inst) or "") in HELPERS:
                return True
            if blk in region:
                return not (blk == head and op == "phi")
            if blk in self.short_circuit and op in PURE_OPCODES:
                return True
            return eager and ((op in PURE_OPCODES and op != "phi") or self._work_item_call(inst))

        def rec(x):
            if x.value_kind != VK.instruction or not rebuilt(x):
                return leaf(x)
            if x.name not in memo:
                memo[x.name] = self._rebuild(x, rec, loc, retval)
            return memo[x.name]
        e = rec(v)
        t = tr.value_type(v)
        if isinstance(t, IntT) and t.width > 1 and not value:
            e = il.BinOp("!=", e, il.BvLit(0, t.width))
        return e

    def _rebuild(self, x, rec, loc, retval) -> il.Expr:
        tr = self.tr
        inst, it = tr.defs[x.name]
        op = inst.opcode
        if op == "load":  # a barrier invariant's, or one at a query-dependent address
            return self.barrier_invariants.load(inst, rec, loc)
        if op == "extractelement":  # __return_val_int4().x
            return tr.aggs.extractelement(inst, rec)
        if op == "icmp" and isinstance(tr.value_type(list(inst.operands)[0]), PtrT):
            return self._pointer_compare(inst, it, retval, loc)
        if op == "call":
            callee = self._callee(inst)
            if callee is None:
                raise BugleError("indirect call inside an annotation", loc)
            base = base_name(callee)
            if base in QUERIES + HELPERS:
                return self._call_expr(inst, base, list(inst.operands)[:-1], loc, rec, retval)
            return self._pure_leaf(x, "an annotation")  # work-item functions
        if op == "phi":
            return self._phi(inst, rec, loc)
        if op not in PURE_OPCODES:
            raise BugleError(f"an annotation in a loop condition may not use {op} "
                             "(compute the value before the loop)", loc)
        return tr.pure(inst, it, rec)

    def _phi(self, inst, rec, loc) -> il.Expr:
        """A phi of a short-circuit region: the incoming value whose path from the phi
        block's immediate dominator was taken."""
        block = self.block_of[inst.name]
        top = self.idom()[block]
        preds = [b.name for b in inst.incoming_blocks]
        out = None
        for pb, v in reversed(list(zip(preds, inst.operands))):
            cond = _and(self._path(pb, top, rec, loc, 0), self._edge(pb, block, rec))
            val = rec(v)
            if out is None:
                out = val
            elif val == il.FALSE:
                out = _and(il.not_(cond), out)
            elif val == il.TRUE:
                out = il.or_all([cond, out])
            else:
                out = il.IfThenElse(cond, val, out)
        assert out is not None  # a phi has incoming values
        return out

    def _path(self, label: str, top: str, rec, loc, depth: int) -> il.Expr:
        if label == top:
            return il.TRUE
        if depth > 64 or not self._dominates(top, label):
            raise BugleError("annotation with control flow that is not a short-circuit expression", loc)
        conds = [_and(self._path(p, top, rec, loc, depth + 1), self._edge(p, label, rec))
                 for p in self.tr.cfg.predecessors(label)]
        return il.or_all(conds)

    def _edge(self, src: str, dst: str, rec) -> il.Expr:
        inst, _ = self.tr.terms[src]
        ops = list(inst.operands)
        if len(ops) == 1 or ops[1].name == ops[2].name:
            return il.TRUE
        c = rec(ops[0])
        return c if dst == ops[2].name else il.not_(c)

    def _pointer_compare(self, inst, it, retval, loc) -> il.Expr:
        """``p == q`` / ``p != q`` in an annotation, ``__return_val_ptr()`` being the
        returned pointer: same array and same offset."""
        tr = self.tr
        ptrs = []
        for v in list(inst.operands)[:2]:
            if v.value_kind == VK.instruction and v.name in tr.defs and \
                    base_name(self._callee(tr.defs[v.name][0]) or "") == "__return_val_ptr":
                if retval is None:
                    raise BugleError("__return_val_ptr may only be used in an __ensures of a function "
                                     "that returns a pointer", loc)
                v = retval
            elif v.value_kind == VK.instruction and v.name in self.deferred:
                raise BugleError("an annotation may only compare pointers it does not compute", loc)
            ptrs.append(tr.pointer(v, it))
        a, b = ptrs
        pred = it.predicate()
        if pred not in ("eq", "ne"):
            raise BugleError("annotations may only compare pointers with == or !=", loc)
        same = il.and_all([il.BinOp("==", a.base, b.base), il.BinOp("==", a.offset, b.offset)])
        return same if pred == "eq" else il.not_(same)

    # ------------------------------------------------------------------ queries
    def _call_expr(self, inst, base: str, args: list, loc, opnd, retval) -> il.Expr:
        tr, fns = self.tr, self.tr.fns
        if base == "__implies":
            return il.implies(opnd(args[0]), opnd(args[1]))
        if base in ("__old_int", "__old_bool"):
            snapshot = self.specs.old_value(inst)  # in a __spec_ function's __ensures
            return snapshot if snapshot is not None else opnd(args[0])
        if base == "__return_val_ptr":
            raise BugleError("__return_val_ptr() may only be compared (== or !=) with a pointer", loc)
        if base in ("__return_val_int", "__return_val_bool", "__return_val_int4"):
            if retval is None:
                raise BugleError(f"{base} may only be used in an __ensures of a function "
                                 "that returns a value", loc)
            return opnd(retval)
        if base in ("__ptr_base", "__ptr_offset_bytes"):
            return self._ptr_query(inst, base, args[0], loc)
        if base == "__ite":
            return il.IfThenElse(opnd(args[0]), opnd(args[1]), opnd(args[2]))
        if base in ("__add_noovfl_2", "__add_noovfl_3", "__add_noovfl_4"):
            return self._int_helper(inst, args, opnd)
        if base == "__enabled":
            return fns.annotation("__enabled", (), il.BOOL, ("enabled",))
        if base == "__dominator_enabled":
            return fns.annotation("__dominator_enabled", (), il.BOOL, ("dominator_enabled",))
        if base in ("__all", "__at_most_one"):
            return fns.annotation(base, (il.BOOL,), il.BOOL, (base[2:],), opnd(args[0]))
        if base in ("__read", "__write", "__read_offset_bytes", "__write_offset_bytes"):
            return self._log_query(inst, base, args[0], loc)
        if base == "__atomic_has_taken_value":
            return self._ticket_query(args, opnd, loc)
        kind = base[2:].rsplit("_", 1)[0]  # uniform / distinct / other
        t = tr.value_type(args[0])
        ty = il.BOOL if isinstance(t, IntT) and t.width == 1 else tr.il_type(t, loc)
        tname = "bool" if not isinstance(ty, il.BvType) else f"bv{ty.width}"
        ret = ty if kind == "other" else il.BOOL
        return fns.annotation(f"__{kind}_{tname}", (ty,), ret, (kind,), opnd(args[0]))

    def _int_helper(self, inst, args: list, opnd) -> il.Expr:
        """``__add_noovfl_N(...)``: the sum does not overflow (signedness from the mangled
        overload: ``i``/``l`` signed, ``j``/``m`` unsigned)."""
        w = self.tr.int_width(self.tr.value_type(args[0]))
        return self._no_overflow([opnd(a) for a in args], w, _signed_overload(self._callee(inst) or ""))

    def _array_of(self, p, base: str, loc):
        tr = self.tr
        if not isinstance(tr.value_type(p), PtrT):
            raise BugleError(f"{base} expects a pointer", loc)
        ptr = tr.pointer(p, None)
        return ptr, [o for o in tr.targets(ptr.cls) if o in tr.arrays]

    def _log_query(self, inst, base: str, p, loc) -> il.Expr:
        """``__write(p)`` / ``__write_offset_bytes(p)`` (and the read forms) about the log
        of the array ``p`` points into.  When ``p`` may point into several arrays (``d_in =
        cond ? &a[..] : &b[..]``), the query asks the log of the array ``p``'s base names:
        ``(base == A && __write_A) || ..`` and ``base == A ? offset_A : ..`` (GPUVerify's
        annotations are per pointer, paper 000 section 4)."""
        tr = self.tr
        ptr, targets = self._array_of(p, base, loc)
        if not targets:
            raise BugleError(f"{base}: the pointer points into no array", loc)
        answers = []
        for t in targets:
            a = tr.arrays[t]
            if a.space == "private":
                raise BugleError(f"{base} on private memory: accesses to it are never logged", loc)
            answers.append((il.BinOp("==", ptr.base, il.IntLit(a.ident)), self._log_query_of(inst, base, a)))
        if len(answers) == 1:
            return answers[0][1]
        if base.endswith("_bytes"):
            out = answers[-1][1]
            for cond, q in reversed(answers[:-1]):
                out = il.IfThenElse(cond, q, out)
            return out
        return il.or_all([il.BinOp("&&", cond, q) for cond, q in answers])

    def _log_query_of(self, inst, base: str, a) -> il.Expr:
        tr, fns = self.tr, self.tr.fns
        kind = "read" if base.startswith("__read") else "write"
        if base.endswith("_bytes"):
            off = fns.annotation(f"__{kind}_offset_{a.name}", (), il.BvType(tr.P),
                                 (f"{kind}_offset", a.name))
            return self._bytes(off, a.cell, tr.int_width(tr.result_type(inst)))
        return fns.annotation(f"__{kind}_{a.name}", (), il.BOOL, (kind, a.name))

    def _ticket_query(self, args: list, opnd, loc) -> il.Expr:
        """``__atomic_has_taken_value(c, offset, v)``: ``{:annotation
        "atomic_has_taken_value", "$$c"}`` of ``v`` (lockstep: ``v`` is in the thread's set of
        tickets of the counter, ``vcgen.twothread.tickets``).  The counter has one element,
        so ``offset`` names it."""
        tr, fns = self.tr, self.tr.fns
        if len(args) != 3:
            raise BugleError("__atomic_has_taken_value expects a counter, an offset and a value", loc)
        _, targets = self._array_of(args[0], "__atomic_has_taken_value", loc)
        if len(targets) != 1:
            raise BugleError("__atomic_has_taken_value: the pointer must point into exactly one array", loc)
        a = tr.arrays[targets[0]]
        w = tr.int_width(tr.value_type(args[2]))
        return fns.annotation(f"__atomic_has_taken_value_{a.name}", (il.BvType(w),), il.BOOL,
                              ("atomic_has_taken_value", a.name), opnd(args[2]))

    def _bytes(self, cells: il.Expr, cell: int, w: int) -> il.Expr:
        """``cells * cell`` (bytes) as a ``w``-bit value (truncated or zero-extended)."""
        tr, fns = self.tr, self.tr.fns
        e = cells if cell == 1 else fns.bv("MUL", tr.P, cells, il.BvLit(cell, tr.P))
        if w < tr.P:
            return il.BvExtract(e, w, 0)
        return fns.extend(False, tr.P, w, e)

    def _ptr_query(self, inst, base: str, p, loc) -> il.Expr:
        tr = self.tr
        ptr, targets = self._array_of(p, base, loc)
        w = tr.int_width(tr.result_type(inst))
        if base == "__ptr_offset_bytes":
            cell = {tr.arrays[o].cell for o in targets} or {1}
            if len(cell) != 1:
                raise BugleError("__ptr_offset_bytes: arrays of different cell sizes", loc)
            return self._bytes(ptr.offset, cell.pop(), w)
        if isinstance(ptr.base, il.IntLit):
            return il.BvLit(ptr.base.value, w)
        out: il.Expr = il.BvLit(0, w)
        for o in targets:
            n = tr.arrays[o].ident
            out = il.IfThenElse(il.BinOp("==", ptr.base, il.IntLit(n)), il.BvLit(n, w), out)
        return out


_DEFINE = re.compile(r"^define [^\n]*\{$", re.M)
# __return_val_<ty>() -> the LLVM return type it requires
_RETURN_VAL_TYPES = {"__return_val_int": "i32", "__return_val_bool": "i1", "__return_val_int4": "<4 x i32>"}


def _check_return_val_types(body: str) -> None:
    """GPUVerify's rule: ``__return_val_int()`` (``__return_val_bool()``) may only be used
    in a function returning ``int`` (``bool``); BugleError otherwise."""
    rets = {m.group(2) for m in (_RET.match(line) for line in body.split("\n")) if m}
    pointers = all(r.startswith("ptr") for r in rets)
    if "@__return_val_ptr(" in body and rets and not pointers:
        raise BugleError("Type of __return_val function does not match return type "
                         f"(__return_val_ptr in a function returning {' or '.join(sorted(rets))})")
    for fn, ty in _RETURN_VAL_TYPES.items():
        if f"@{fn}(" in body and rets and rets != {ty}:
            raise BugleError("Type of __return_val function does not match return type "
                             f"({fn} in a function returning {' or '.join(sorted(rets))})")
_RET = re.compile(r"^(\s+)ret (void|i\d+|half|float|double|<\d+ x i\d+>|ptr(?: addrspace\(\d+\))?)"
                  r"( [^,\s]+)?(, !dbg !\d+)?\s*$")


def _marker_suffix(ty: str) -> str:
    """``i32`` -> ``i32``, ``<4 x i32>`` -> ``v4i32``, ``ptr addrspace(3)`` -> ``p3``."""
    m = re.match(r"<(\d+) x (i\d+)>$", ty)
    if m:
        return f"v{m.group(1)}{m.group(2)}"
    m = re.match(r"ptr(?: addrspace\((\d+)\))?$", ty)
    if m:
        return f"p{m.group(1) or 0}"
    return ty


def mark_returns(ir_text: str) -> str:
    """Before inlining: in every function that calls ``__ensures`` and in every
    specification function (``bugle.spec_functions``), put
    ``call void @__bugle_return_<ty>(<ty> v)`` (same debug location) before each ``ret``,
    so that its returns can still be found once it is inlined (``Annotations.return_point``);
    a specification function returns a fresh value (``spec_return``).
    Returns the IR text unchanged when no function has an ``__ensures`` or is a
    specification function.  BugleError for a specification function whose returns cannot
    be marked (an aggregate or pointer result)."""
    if "@__ensures(" not in ir_text and "@__global_ensures(" not in ir_text and SPEC_PREFIX not in ir_text:
        return ir_text
    lines = ir_text.split("\n")
    out, used, in_ens = [], set(), False
    results: set = set()  # types of the fresh values of specification functions
    returns = 0
    body: list = []
    for line in lines:
        if body or _DEFINE.match(line):
            body.append(line)
            if line == "}":
                text = "\n".join(body)
                name = _DEFINED_NAME.search(body[0])
                spec = name is not None and is_spec_function(name.group(1))
                in_ens = "@__ensures(" in text or "@__global_ensures(" in text or spec
                if in_ens:
                    _check_return_val_types(text)
                for b in body:
                    m = _RET.match(b) if in_ens else None
                    if spec and m is None and b.lstrip().startswith("ret "):
                        raise BugleError(f"a __spec_ function may only return void, an integer or a "
                                         f"floating-point value ({b.strip()})")
                    if m:
                        ind, ty, val, dbg = m.group(1), m.group(2), (m.group(3) or "").strip(), m.group(4) or ""
                        if spec:
                            returns += 1
                            fresh_lines, val = spec_return(ind, ty, val, dbg, returns)
                            out += fresh_lines
                            results.add(ty)
                            b = f"{ind}ret {ty}{' ' + val if val else ''}{dbg}"
                        used.add(ty)
                        arg = "" if ty == "void" else f"{ty} {val}"
                        out.append(f"{ind}call void @__bugle_return_{_marker_suffix(ty)}({arg}){dbg}")
                    out.append(b)
                body = []
            continue
        out.append(line)
    for ty in sorted(used):
        out.append(f"declare void @__bugle_return_{_marker_suffix(ty)}({'' if ty == 'void' else ty})")
    out += result_declarations(results)
    return "\n".join(out) + "\n"


_DEFINED_NAME = re.compile(r'@("(?:[^"\\]|\\.)*"|[-A-Za-z0-9_.$]+)\(')
