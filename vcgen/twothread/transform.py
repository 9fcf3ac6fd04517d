"""The lock-step transformer: one-thread IL (``.gbpl``) -> two-thread IL (``.bpl``).

Implements the two-thread reduction of paper 000 (sections 4 and 5, soundness theorem
4.1) on unstructured control flow (docs/design.md section 5):

* **Ids.** Two threads with symbolic local and group ids constrained by ``axiom``s to the
  launch configuration and distinct when the launch has two threads (docs/design.md
  5.1); the constraints are symmetric.
* **Predication.**  Each thread ``t`` has a program counter ``cur$t`` over the block
  numbers of a loop-aware linear order (``vcgen.analysis.loops``).  Blocks run in that order;
  a block is enabled for thread ``t`` when ``cur$t`` is its number (``p$t``).  A
  uniformly executed block (``vcgen.analysis.uniformity``) is entered by a real ``goto`` (both
  threads or neither), its commands are not predicated, and a uniform branch at its end
  stays a ``goto`` on the branch condition.  Each natural loop becomes exactly one loop
  of the two-thread program with the same header label, iterating while either thread
  is in it (paper 000, figure 9 generalised to unstructured CFGs).
* **Barriers** assert that both threads are enabled or both disabled when they share a
  group (barrier divergence), reset the access logs of the arrays the fence covers when
  the threads share a group, and havoc the equality-abstracted copies (arbitrary but
  equal when the fence covers the array and the group is shared).
* **Race logging (one-sided).** Thread 1 nondeterministically logs each access; thread
  2's accesses are checked against the log; thread 1 is logged before thread 2 is
  checked (paper 000, section 5; docs/design.md 5.5-5.8).
* Candidate invariants are added at loop heads by ``vcgen.candidates``.

``Lockstep`` is the predication of control flow; it composes the other parts, each in
its own module: ``kernel`` (facts of the one-thread kernel), ``builder`` (the output
blocks and declarations), ``threads`` (per-thread names, ``cur$t``), ``logs`` (access logs
and race checks), ``memory`` (reads, writes, atomics, barriers), ``queries`` (annotation
queries), ``async_copies``, ``warps``, ``launch`` (launch axioms) and the candidates
(``vcgen.candidates``), and ``products`` (cancellation lemmas for products with a
uniform factor).
"""
from __future__ import annotations

from .. import il
from ..analysis.loops import LoopItem, flatten
from ..candidates import CandidateFactory, LoopFacts
from ..candidates.bvexpr import args_of
from ..il.attributes import sourceloc, where
from ..il.errors import ExitCode, ToolError
from .async_copies import WAIT_PROC, AsyncCopies
from .barrier_invariants import BarrierInvariantChecks, is_barrier_invariant
from .builder import ProgramBuilder
from .kernel import KernelInfo, atomic_array, error, source_name
from .kernel_args import apply_kernel_args
from .launch import buffer_limit, launch_axioms, symbolic_launch_attrs
from .logs import AccessLogs
from .memory import MemoryOps
from .options import LockstepOptions
from .parts import Parts
from .products import LatchLemmas, LoopHeads, ProductLemmas, RemainderLemmas, log_remainders
from .queries import AnnotationQueries
from .threads import THREADS, Threads
from .user_annotations import filter_annotations
from .warps import Warps


class Lockstep:
    """Builds the two-thread program; see the module docstring."""

    def __init__(self, prog: il.Program, opts: LockstepOptions):
        self.opts = opts
        self.info = info = KernelInfo(prog, opts)
        self.builder = b = ProgramBuilder(info.declared_functions)
        self.threads = th = Threads(info, b)
        self.logs = logs = AccessLogs(info, b, th, opts)
        self.queries = AnnotationQueries(info, th, logs, opts.asymmetric_asserts)
        self.warps = Warps(info, b, th, logs, opts)
        self.copies = AsyncCopies(info, b, th, logs, opts)
        self.memory = MemoryOps(info, b, th, logs, self.copies, self.warps, opts)
        self.barrier_invariants = BarrierInvariantChecks(info, b, th, logs, opts, self.queries)
        self.candidates = CandidateFactory(Parts(info, b, th, logs, self.warps, opts))
        # a symbolic launch's bound on its work items in all (an axiom: launch_axioms)
        grid_items = buffer_limit((a.decl for a in info.arrays.values()), info.widest_writes()) \
            if opts.launch.symbolic else None
        self.products = ProductLemmas(b, th, info.kernel, grid_items, opts.launch.global_offset)
        self.heads = LoopHeads()  # the enclosing loops' head assertions, for the lemmas below
        logs.remainders = RemainderLemmas(self.products, self._log_remainders(), self.heads)
        self.latches = LatchLemmas(self.heads)

    def _log_remainders(self) -> dict[str, list[tuple[il.Expr, int]]]:
        """The remainders of log offsets by a thread-uniform modulus that the kernel's
        annotations take (``products.log_remainders``), by log variable, over the
        two-thread names (``RemainderLemmas``)."""
        fns, q = self.info.annotation_fns, self.queries
        on: dict[int, il.Expr] = {1: il.TRUE, 2: il.TRUE}

        def offset_query(e: il.Expr) -> il.Var | None:
            if isinstance(e, il.FunApp) and e.name in fns and fns[e.name][0] in ("read_offset", "write_offset"):
                v = q.ann(e, 1, on)
                return v if isinstance(v, il.Var) else None
            return None
        out: dict[str, list[tuple[il.Expr, int]]] = {}
        exprs = [s.expr for s in self.info.kernel.specs] + \
            [c.expr for blk in self.info.kernel.blocks or () for c in blk.cmds if isinstance(c, il.Assert)]
        for e in exprs:
            for rem, scale, log in log_remainders(e, offset_query):
                modulus = args_of(rem)[1]
                if q.ann(modulus, 1, on) != q.ann(modulus, 2, on):
                    continue  # not thread-uniform
                two = q.ann(rem, 1, on)
                if (two, scale) not in out.setdefault(log.name, []):
                    out[log.name].append((two, scale))
        return out

    # ---------------------------------------------------------------------- main

    def run(self) -> il.Program:
        b, th, info = self.builder, self.threads, self.info
        b.start("$entry$lockstep")
        for t in THREADS:
            b.emit(il.assign(th.cur(t).name, il.IntLit(info.block_id[info.blocks[0].label])))
        self.memory.init()
        self._memory_preconditions()
        for it in info.items:
            self._item(it)
        for t in THREADS:
            b.emit(il.Assert(il.BinOp("==", th.cur(t), il.IntLit(info.exit_id)), (il.Attr("lockstep_check"),)))
        b.emit(il.Assert(il.FALSE, (il.Attr("vacuity_check"),)))
        b.close(il.Return())
        return self._assemble()

    def _memory_preconditions(self) -> None:
        """Kernel ``requires`` reading shared arrays (``__requires(A[i] == 0)``): assumed
        once the copies are set up (``MemoryOps.init``), per thread on its own copy; the
        other ``requires`` stay on the procedure (``_assemble``)."""
        for s in self.info.kernel.specs:
            if s.kind == "requires" and self._reads_arrays(s.expr):
                for t in self.queries.threads_of(s.expr):
                    self.builder.emit(il.Assume(self.queries.ann(s.expr, t, {1: il.TRUE, 2: il.TRUE})))

    def _reads_arrays(self, e: il.Expr) -> bool:
        return any(v in self.info.arrays for v in il.free_vars(e))

    def _item(self, it: LoopItem | str) -> None:
        if isinstance(it, LoopItem):
            self._loop(it)
        else:
            self._block(self.info.src[it])

    def _loop(self, it: LoopItem) -> None:
        b, th, info = self.builder, self.threads, self.info
        lp = it.loop
        blocks = flatten(it.items)
        lo = info.block_id[lp.header]
        ids = sorted(info.block_id[x] for x in blocks)
        assert ids == list(range(lo, lo + len(ids))), "loop blocks must be contiguous"
        hi = lo + len(ids)
        head = lp.header
        for t in THREADS:
            b.emit(il.assign(b.local(f"cur${t}$entry{head}", il.INT).name, th.cur(t)))
        for g, ty, e in self.candidates.log_ghosts(lp):
            b.emit(il.assign(b.local(g, ty).name, e))
        first = self.candidates.first_iteration_ghost(lp) if self.opts.infer else None
        if first:
            b.emit(il.assign(b.local(first, il.BOOL).name, il.TRUE))
        b.goto_new(head)
        invs = []
        returns = any(isinstance(info.src[x].transfer, il.Return) for x in lp.blocks)
        exits = sorted({info.block_id[x] for x in lp.exits(info.succ)} | ({info.exit_id} if returns else set()))
        if head in info.uni.uniform_blocks:
            exits = []  # every exit of a uniform loop jumps straight to its $done (see _leave)
        for t in THREADS:
            c, e = th.cur(t), il.Var(f"cur${t}$entry{head}")
            at_head = il.BinOp("==", c, il.IntLit(lo))
            outside = il.or_all(il.BinOp("==", c, il.IntLit(x)) for x in exits)
            invs.append(il.Assert(il.or_all([at_head, il.BinOp("==", c, e), outside]), (il.Attr("invariant"),)))
            invs.append(il.Assert(il.implies(il.BinOp("!=", e, il.IntLit(lo)), il.BinOp("==", c, e)),
                                  (il.Attr("invariant"),)))
        for cmd in invs:
            b.emit(cmd)
        asserts: list[il.Expr] = []  # the head's user invariants and candidates (LoopHeads)
        for cmd in self._user_invariants(LoopFacts(lp, lo, hi)):
            b.emit(cmd)
            asserts.append(cmd.expr)
        if self.opts.infer:
            for cmd in self.candidates.at_loop_head(LoopFacts(lp, lo, hi)):
                if self.opts.asymmetric_asserts and any(v.endswith("$2") for v in il.free_vars(cmd.expr)):
                    continue  # --asymmetric-asserts: assertions (candidates too) of the first thread only
                b.emit(cmd)
                asserts.append(cmd.expr)
            for fact in self.candidates.head_facts(LoopFacts(lp, lo, hi)):
                b.emit(fact)
        body, done = f"{head}$body", f"{head}$done"
        b.close(il.Goto((body, done)))
        b.start(body)
        in1, in2 = (il.BinOp("==", th.cur(t), il.IntLit(lo)) for t in THREADS)
        b.emit(il.Assume(il.BinOp("||", in1, in2)))
        self.heads.enter(asserts)
        self._block(info.src[head], is_header=True)
        for sub in it.items[1:]:
            self._item(sub)
        self.heads.leave()
        if first:
            b.emit(il.assign(first, il.FALSE))
        b.close(il.Goto((head,)))
        b.start(done)
        b.emit(il.Assume(il.BinOp("&&", il.not_(in1), il.not_(in2))))

    def _user_invariants(self, loop: LoopFacts) -> list[il.Assert]:
        """``{:user_invariant}`` asserts of the header, hoisted to the two-thread loop head.

        Definitions computed in the header before the assertion are substituted so that
        the invariant can be evaluated at the head; it is read "enabled => e" per thread
        (docs/design.md 5.10).
        """
        header = loop.loop.header
        out: list[il.Assert] = []
        defs: dict[str, il.Expr] = {}
        shared = self.info.shared
        written: set[str] = set()  # arrays the header writes before the invariant
        for c in self.info.src[header].cmds:
            if isinstance(c, il.Assign):
                written |= {l.name for l in c.lhss if isinstance(l, il.MapLhs)}
            if isinstance(c, il.Assign) and all(isinstance(l, il.VarLhs) for l in c.lhss):
                for l, r in zip(c.lhss, c.rhss):
                    reads = {x.map.name for x in il.subexprs(r)
                             if isinstance(x, il.MapSelect) and isinstance(x.map, il.Var) and x.map.name in shared}
                    if reads & written:
                        continue  # a read after a write of the header: not the value at the head
                    defs[l.name] = il.substitute(r, defs)
            if isinstance(c, il.Assert) and il.has_attr(c.attrs, "user_invariant"):
                out += self._user_invariant(il.substitute(c.expr, defs), c.attrs, loop)
        return out

    def _user_invariant(self, e: il.Expr, attrs: il.Attrs, loop: LoopFacts) -> list[il.Assert]:
        """The per-thread asserts of one user invariant ``e`` at the head of ``loop`` (its
        header has block number ``loop.lo``): checked invariants, or Houdini candidates for
        ``{:candidate_invariant}`` ones and under ``--invariants-as-candidates`` (dropped
        with ``--no-infer``: a candidate is never trusted unproved).  Reads of arrays in
        ``e`` are reads of the thread's copy (equality abstraction); an adversarial array
        has no copy: exit 5.  ``__dominator_enabled()`` is "the thread reached the loop"
        (its program counter just before the loop was the head)."""
        adversarial = sorted(v for v in il.free_vars(e) if v in self.info.arrays
                             and not self.info.arrays[v].equality)
        if adversarial:
            a = self.info.arrays[adversarial[0]]
            raise ToolError(f"{where(attrs)}this loop invariant reads {source_name(a.decl)}, whose values the "
                            "adversarial abstraction does not keep (drop --adversarial-abstraction)",
                            ExitCode.GPUVERIFYVCGEN_ERROR)
        candidate = il.has_attr(attrs, "candidate_invariant") or self.opts.invariants_as_candidates
        if candidate and not self.opts.infer:
            return []
        lo, header = loop.lo, loop.loop.header
        here: dict[int, il.Expr] = {u: il.BinOp("==", self.threads.cur(u), il.IntLit(lo)) for u in THREADS}
        out = []
        reached: dict[int, il.Expr] = {u: il.BinOp("==", il.Var(f"cur${u}$entry{header}"), il.IntLit(lo))
                                       for u in THREADS}
        for t in self.queries.threads_of(e):
            inv = self.queries.ann(e, t, here, reached)
            if not il.has_attr(attrs, "global_annotation"):
                inv = il.implies(here[t], inv)
            if candidate:
                out.append(self.candidates.user_candidate(inv, attrs + (il.Attr("thread", (il.IntLit(t),)),), loop))
            else:
                out.append(il.Assert(inv, attrs + (il.Attr("thread", (il.IntLit(t),)),)))
        return out

    # ---------------------------------------------------------------- blocks

    def _block(self, blk: il.Block, is_header: bool = False) -> None:
        b, th, info = self.builder, self.threads, self.info
        bid = info.block_id[blk.label]
        uniform = blk.label in info.uni.uniform_blocks
        label = f"{blk.label}$hdr" if is_header else blk.label
        preds: dict[int, il.Expr]
        if uniform and not is_header and info.items and info.items[0] == blk.label == info.blocks[0].label:
            # the entry block, first in the order: both threads start there (``run``), so
            # a path skipping it is infeasible; without it the variables it assigns get no
            # join incarnation and stay the terms they are assigned (their global ids)
            b.goto_new(label)
            preds = {1: il.TRUE, 2: il.TRUE}
            skip_block = None
        elif uniform:
            skip = f"{blk.label}$skip"
            b.close(il.Goto((label, skip)))
            b.start(skip)
            b.emit(il.Assume(il.BinOp("!=", th.cur(1), il.IntLit(bid))))
            skip_block = b.detach()
            b.start(label)
            b.emit(il.Assume(il.BinOp("==", th.cur(1), il.IntLit(bid))))
            preds = {1: il.TRUE, 2: il.TRUE}
        else:
            b.goto_new(label)
            for t in THREADS:
                b.emit(il.assign(th.pred(t).name, il.BinOp("==", th.cur(t), il.IntLit(bid))))
            preds = {t: th.pred(t) for t in THREADS}
            skip_block = None
        self._commands(blk, preds)
        join = f"{blk.label}$next"
        self._terminator(blk, preds, uniform, join)
        if skip_block is not None:
            b.add_block(il.Block(skip_block[0], tuple(skip_block[1]), il.Goto((join,))))
        b.start(join)

    def _target_id(self, label: str) -> il.IntLit:
        return il.IntLit(self.info.block_id.get(label, self.info.exit_id))

    def _leave(self, src: str, target: str | None, uniform: bool, join: str) -> str:
        """Where control goes after ``src`` hands both threads to ``target`` (None: return).

        When both threads leave loops together (a uniform exit), they jump straight to
        the exit of the outermost loop left, as a structured loop exit does, instead of
        going round the back edge: the exit path then keeps the state of the last
        iteration (e.g. the negated loop condition) rather than only the invariants.
        """
        if not uniform:
            return join
        for lp in self.info.loops:  # outermost first
            if src in lp.blocks and (target is None or target not in lp.blocks):
                return f"{lp.header}$done"
        return join

    def _terminator(self, blk: il.Block, preds: dict[int, il.Expr], uniform: bool, join: str) -> None:
        b, th = self.builder, self.threads
        if isinstance(blk.transfer, il.Return):
            for t in THREADS:
                b.emit(il.assign(th.cur(t).name, il.ite(preds[t], il.IntLit(self.info.exit_id), th.cur(t))))
            b.close(il.Goto((self._leave(blk.label, None, uniform, join),)))
            return
        targets = list(blk.transfer.targets)
        if len(targets) == 1:
            for t in THREADS:
                b.emit(il.assign(th.cur(t).name, il.ite(preds[t], self._target_id(targets[0]), th.cur(t))))
            b.close(il.Goto((self._leave(blk.label, targets[0], uniform, join),)))
            return
        conds = [self._partition(x) for x in targets]
        if uniform and blk.label not in self.info.uni.divergent_branches:
            # A uniform branch stays a goto: both threads take the same target.
            labels = [f"{blk.label}$to${x}" for x in targets]
            b.close(il.Goto(tuple(labels)))
            for lab, x, c in zip(labels, targets, conds):
                assert c is not None  # a uniform branch has partition conditions
                b.start(lab)
                b.emit(il.Assume(th.ex(c, 1), (il.Attr("partition"),)))
                for t in THREADS:
                    b.emit(il.assign(th.cur(t).name, self._target_id(x)))
                b.close(il.Goto((self._leave(blk.label, x, True, join),)))
            return
        # Divergent branch: each enabled thread picks its own target.
        for t in THREADS:
            new: il.Expr
            if any(c is None for c in conds):
                choice = b.tmp(il.INT, "choice")
                b.emit(il.Havoc((choice.name,)))
                b.emit(il.Assume(il.or_all(il.BinOp("==", choice, self._target_id(x)) for x in targets)))
                new = choice
            else:
                new = self._target_id(targets[-1])
                for x, c in reversed(list(zip(targets[:-1], conds[:-1]))):
                    assert c is not None
                    new = il.ite(th.ex(c, t), self._target_id(x), new)
            b.emit(il.assign(th.cur(t).name, il.ite(preds[t], new, th.cur(t))))
        b.close(il.Goto((join,)))

    def _partition(self, label: str) -> il.Expr | None:
        blk = self.info.src[label]
        if len([p for p, ss in self.info.succ.items() if label in ss]) != 1:
            return None
        first = blk.cmds[0] if blk.cmds else None
        if isinstance(first, il.Assume) and il.has_attr(first.attrs, "partition"):
            return first.expr
        return None

    # ---------------------------------------------------------------- commands

    def _commands(self, blk: il.Block, preds: dict[int, il.Expr]) -> None:
        b, q = self.builder, self.queries
        loc = None
        for i, c in enumerate(blk.cmds):
            if isinstance(c, il.Assume) and il.has_attr(c.attrs, "sourceloc"):
                self.warps.clear_after_instruction(sourceloc(c.attrs))
                loc = c.attrs
                if c.expr != il.TRUE:
                    self._assume(c, preds)
                continue
            if isinstance(c, il.Assume) and il.has_attr(c.attrs, "partition") and i == 0:
                continue  # consumed by the branch that leads here
            if isinstance(c, il.Assign):
                for lemma in self.products.lemmas(c):  # valid for every value: unpredicated
                    b.emit(il.Assume(lemma))
                self._assign(c, preds, loc, self.info.write_widths.get((blk.label, i), 1))
            elif isinstance(c, il.Assume):
                self._assume(c, preds)
            elif is_barrier_invariant(c):
                self.barrier_invariants.check(c, preds)  # assumed after the barrier (_call)
            elif isinstance(c, il.Assert):
                if il.has_attr(c.attrs, "user_invariant"):
                    # at the loop head means in the header block, and not evaluated through
                    # short-circuit operators (bugle's {:short_circuit}; docs/IL.md)
                    if blk.label not in self.info.headers or il.has_attr(c.attrs, "short_circuit"):
                        raise ToolError(f"{where(c.attrs)}user-specified invariant does not appear at loop head",
                                        ExitCode.GPUVERIFYVCGEN_ERROR)
                    continue  # hoisted to the loop head by _loop
                glob = il.has_attr(c.attrs, "global_annotation")
                for t in q.threads_of(c.expr):
                    e = q.ann(c.expr, t, preds)
                    b.emit(il.Assert(e if glob else il.implies(preds[t], e),
                                     c.attrs + (il.Attr("thread", (il.IntLit(t),)),)))
            elif isinstance(c, il.Havoc):
                for v in c.vars:
                    if v in self.info.arrays:  # a bodiless call's effect (bugle.bodiless)
                        self.memory.havoc_array(self.info.arrays[v], preds)
                    else:
                        self.threads.havoc(v, preds)
            elif isinstance(c, il.Call):
                self._call(c, preds, loc)
            else:
                raise error(f"unsupported command {c!r}")
        self.warps.clear_after_instruction(None, end=True)
        self.barrier_invariants.end_of_block()

    def _assume(self, c: il.Assume, preds: dict[int, il.Expr]) -> None:
        """Per thread: ``enabled => e`` (the ``__global_`` forms: ``e`` whether enabled or not)."""
        glob = il.has_attr(c.attrs, "global_annotation")
        for t in self.queries.threads_of(c.expr):
            e = self.queries.ann(c.expr, t, preds)
            self.builder.emit(il.Assume(e if glob else il.implies(preds[t], e)))

    def _assign(self, c: il.Assign, preds: dict[int, il.Expr], loc: il.Attrs | None, width: int = 1) -> None:
        th, arrays = self.threads, self.info.arrays
        shared_lhs = [l for l in c.lhss if l.name in arrays]
        reads = [(l, r) for l, r in zip(c.lhss, c.rhss)
                 if isinstance(r, il.MapSelect) and isinstance(r.map, il.Var) and r.map.name in arrays]
        if shared_lhs and isinstance(c.lhss[0], il.VarLhs):
            return self.memory.snapshot(c, preds)
        if shared_lhs or reads:
            if len(c.lhss) != 1:
                raise error("a memory access must be a single assignment (docs/IL.md)")
            if shared_lhs:
                lhs = shared_lhs[0]
                assert isinstance(lhs, il.MapLhs)
                self.memory.write(arrays[lhs.name], lhs.index, c.rhss[0], preds, loc, width)
            else:
                target, r = reads[0]
                assert isinstance(r.map, il.Var)
                self.memory.read(arrays[r.map.name], target.name, r.index, preds, loc)
            return
        for e in c.rhss:
            for x in il.subexprs(e):
                if isinstance(x, il.MapSelect) and isinstance(x.map, il.Var) and x.map.name in arrays:
                    raise error("memory reads must be whole assignments `x := A[i];` (docs/IL.md)")
        self.memory.private_bounds(c, preds, loc)
        lhss: list[il.Lhs] = []
        rhss: list[il.Expr] = []
        for t in THREADS:
            for l, r in zip(c.lhss, c.rhss):
                if t == 2 and not th.is_dup(l.name):
                    continue
                name = th.name(l.name, t)
                if l.name in self.info.uni.constant_vars:
                    # a run-time constant runs unpredicated: its one value, whichever
                    # thread is enabled (vcgen.analysis.uniformity, why that is sound)
                    lhss.append(il.VarLhs(name))
                    rhss.append(th.ex(r, t))
                elif l.name in self.info.once_vars:
                    # assigned once outside loops, read only where it dominates: per
                    # thread, unpredicated (vcgen.analysis.uniformity.once_vars, why sound)
                    lhss.append(il.VarLhs(name))
                    rhss.append(th.ex(r, t))
                elif isinstance(l, il.VarLhs):
                    lhss.append(il.VarLhs(name))
                    rhss.append(il.ite(preds[t], th.ex(r, t), il.Var(name)))
                else:
                    i = th.ex(l.index, t)
                    lhss.append(il.MapLhs(name, i))
                    rhss.append(il.ite(preds[t], th.ex(r, t), il.MapSelect(il.Var(name), i)))
        for lemma in self.latches.before(tuple(lhss), tuple(rhss)):  # valid for every value
            self.builder.emit(il.Assume(lemma))
        self.builder.emit(il.Assign(tuple(lhss), tuple(rhss)))

    def _call(self, c: il.Call, preds: dict[int, il.Expr], loc: il.Attrs | None) -> None:
        if atomic_array(c) is not None:
            return self.memory.atomic(c, preds, loc)
        if il.has_attr(c.attrs, "async_copy"):
            return self.copies.copy(c, preds, loc)
        if c.proc == WAIT_PROC:
            return self.copies.wait(c, preds)
        callee = self.info.procedure(c.proc)
        warp_op = il.attr(callee.attrs, "warp_op") if callee is not None else None
        if warp_op is not None:
            return self.warps.op(c, str(warp_op.args[0]), preds)
        if callee is None or not il.has_attr(callee.attrs, "barrier"):
            raise error(f"call to {c.proc}: only the barrier may be called in a kernel (inline calls first)")
        self.memory.barrier(c, preds)
        self.barrier_invariants.after_barrier(preds)

    # ---------------------------------------------------------------- assembly

    def _assemble(self) -> il.Program:
        info, b, th, q = self.info, self.builder, self.threads, self.queries
        decls: list[il.Decl] = []
        for d in info.prog.decls:
            if isinstance(d, il.ProcedureDecl) or (isinstance(d, il.FunctionDecl) and d.name in info.annotation_fns):
                continue
            if isinstance(d, il.ConstDecl) and d.name in info.dup_consts:
                for t in THREADS:
                    decls.append(il.ConstDecl(f"{d.name}${t}", d.type, d.unique, d.attrs + (il.Attr("thread", (il.IntLit(t),)),)))
                continue
            if isinstance(d, il.VarDecl) and d.name in info.arrays:
                a = info.arrays[d.name]
                if a.equality:
                    for t in THREADS:
                        decls.append(il.VarDecl(f"{d.name}${t}", d.type, d.attrs + (il.Attr("thread", (il.IntLit(t),)),)))
                else:
                    decls.append(il.VarDecl(d.name, d.type, d.attrs))  # kept for its attributes; never accessed
                continue
            decls.append(d)
        # may declare bit-vector functions: before listing them
        max_items = buffer_limit((a.decl for a in info.arrays.values()), info.widest_writes()) \
            if self.opts.launch.symbolic else None  # a bound on symbolic sizes only
        axioms = launch_axioms(info.consts, self.opts, b, th, info.language, max_items)
        decls += b.new_functions.values()
        decls += axioms
        decls += b.new_globals.values()
        decls += b.sourceloc_decls()
        decls += self.candidates.declarations()
        k = info.kernel
        specs = []
        for s in k.specs:
            if s.kind == "requires" and self._reads_arrays(s.expr):
                continue  # assumed after the copies are set up (_memory_preconditions)
            for t in q.threads_of(s.expr):
                specs.append(il.Spec(s.kind, q.ann(s.expr, t, {1: il.TRUE, 2: il.TRUE}), s.free, s.attrs))
        locals_ = []
        seen = set()
        for v in k.locals:
            for t in THREADS if th.is_dup(v.name) else (1,):
                n = th.name(v.name, t)
                if n not in seen:
                    seen.add(n)
                    locals_.append(il.VarDecl(n, v.type, v.attrs))
        for n, ty in b.new_locals.items():
            if n not in seen:
                seen.add(n)
                locals_.append(il.VarDecl(n, ty))
        dup_params = [(n, ty) for n, ty in k.params if th.is_dup(n)]
        if dup_params:
            raise error(f"kernel parameter {dup_params[0][0]} is assigned in the kernel; parameters must be read-only")
        mode = tuple(il.Attr(n) for n, on in (("only_intra_group", self.opts.only_intra_group),
                                               ("only_divergence", self.opts.only_divergence),
                                               ("check_array_bounds", self.opts.check_array_bounds)) if on)
        mode += symbolic_launch_attrs(self.opts.launch, max_items)
        proc = il.ProcedureDecl(k.name, k.params, k.outs, tuple(specs), (), k.attrs + (il.Attr("two_thread"),) + mode,
                                tuple(locals_), tuple(b.blocks))
        return il.Program(tuple(decls) + (proc,))


def run(program: il.Program, options: LockstepOptions) -> il.Program:
    """The ``vcgen lockstep`` stage: ``options.kernel_args`` fixed, then ``lockstep``."""
    return lockstep(apply_kernel_args(program, options.kernel_args), options)


def lockstep(prog: il.Program, opts: LockstepOptions) -> il.Program:
    """Two-thread program of the one-thread ``prog`` (see the module docstring).

    Raises ToolError(GPUVERIFYVCGEN_ERROR) on programs outside the conventions of
    docs/IL.md, irreducible control flow, or user invariants that are not at loop heads.
    """
    return Lockstep(filter_annotations(prog, opts.annotations), opts).run()
