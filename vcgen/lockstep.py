"""The lock-step transformer: one-thread IL (``.gbpl``) -> two-thread IL (``.bpl``).

Implements the two-thread reduction of paper 000 (sections 4 and 5, soundness theorem
4.1) on unstructured control flow (DESIGN.md section 5):

* **Ids.** Two threads with symbolic local and group ids constrained by ``axiom``s to the
  launch configuration and distinct when the launch has two threads (DESIGN.md 5.1); the
  constraints are symmetric.
* **Predication.**  Each thread ``t`` has a program counter ``cur$t`` over the block
  numbers of a loop-aware linear order (``vcgen.loopnest``).  Blocks run in that order;
  a block is enabled for thread ``t`` when ``cur$t`` is its number (``p$t``).  A
  uniformly executed block (``vcgen.uniformity``) is entered by a real ``goto`` (both
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
  checked (paper 000, section 5; DESIGN.md 5.5-5.8).
* Candidate invariants are added at loop heads by ``vcgen.candidates``.

Parts in their own modules (mixins of ``Lockstep``): ``vcgen.annotation_queries`` (the
two-thread annotation queries), ``vcgen.async_copies`` (``async_work_group_copy``),
``vcgen.warps`` (``--warp-sync``, ``__syncwarp``, shuffles, votes), ``vcgen.tickets``
(distinct tickets from atomic counters); shared names in ``vcgen.twothread``.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from . import il
from .abstract import choose_abstraction
from .candidates import CandidateFactory, LoopFacts
from .annotation_queries import AnnotationQueries
from .async_copies import WAIT_PROC, AsyncCopies, async_sites
from .exitcodes import ExitCode, ToolError
from .prelude import bv_decl
from .loopnest import LoopItem, flatten, linear_order, natural_loops, successors
from .twothread import DIMS, INT, ArrayInfo, _atomic_array, _loc_key, _space, _where, error  # noqa: F401
from .uniformity import GROUP_CONSTS, ID_CONSTS, Uniformity, analyse
from .tickets import TicketOps, ticket_arrays
from .warps import WarpOps


@dataclass
class LaunchConfig:
    """Launch sizes per dimension (x, y, z); 1 for unused dimensions."""
    local_size: tuple = (1, 1, 1)
    num_groups: tuple = (1, 1, 1)
    global_offset: tuple = (0, 0, 0)


@dataclass
class LockstepOptions:
    launch: LaunchConfig = field(default_factory=LaunchConfig)
    only_intra_group: bool = False
    only_divergence: bool = False
    benign_tolerance: bool = True
    infer: bool = True  # generate candidate invariants
    warp_sync: int | None = None  # warp size when warps run in lock-step (pre-Volta CUDA)
    check_array_bounds: bool = False  # {:array_bounds} checks on arrays with {:elem_count}


class Lockstep(AnnotationQueries, AsyncCopies, WarpOps, TicketOps):
    """Builds the two-thread program; see the module docstring."""

    def __init__(self, prog: il.Program, opts: LockstepOptions):
        self.prog = prog
        self.opts = opts
        try:
            self.kernel = prog.kernel()
        except ValueError as e:
            raise error(str(e)) from None
        if self.kernel.blocks is None:
            raise error(f"kernel {self.kernel.name} has no body")
        prog = choose_abstraction(prog, force=("adversarial" if opts.only_divergence else None))
        self.prog = prog
        self.arrays = {}
        for d in prog.globals():
            if isinstance(d.type, il.MapType):
                sp = _space(d)
                eq = il.has_attr(d.attrs, "equality")
                self.arrays[d.name] = ArrayInfo(d.name, d, sp, eq, sp != "constant" and not opts.only_divergence)
        self.shared = set(self.arrays)
        self.uni: Uniformity = analyse(self.kernel, self.shared, opts.only_intra_group)
        self.local_types = {v.name: v.type for v in self.kernel.locals}
        self.local_types.update(dict(self.kernel.params))
        self.consts = prog.consts()
        self.declared_functions = set(prog.functions())
        self.annotation_fns = {d.name: il.attr(d.attrs, "annotation").args for d in prog.decls
                               if isinstance(d, il.FunctionDecl) and il.has_attr(d.attrs, "annotation")}
        self.dup_consts = {c for c in self.consts if c in ID_CONSTS + GROUP_CONSTS}
        self.fresh = 0
        self.warp_pending: set = set()  # arrays logged by the current instruction (--warp-sync)
        self.warp_pending_loc: tuple | None = None
        self.warp_havocked: set = set()  # equality arrays havocked for warp-mates in this instruction
        self.new_locals: dict = {}
        self.new_globals: dict = {}
        self.new_functions: dict = {}
        self.sourcelocs: dict = {}  # (file, line, col) -> number
        self.blocks: list = []
        self.open_label: str | None = None
        self.open_cmds: list = []
        self.rename = {t: self._renaming(t) for t in (1, 2)}
        self.loops = natural_loops(self.kernel)
        self.items = linear_order(self.kernel, self.loops)
        self.order = flatten(self.items)
        self.block_id = {l: i + 1 for i, l in enumerate(self.order)}
        self.exit_id = len(self.order) + 1
        self.src = {b.label: b for b in self.kernel.blocks}
        self.succ = successors(self.kernel)
        self.headers = {lp.header for lp in self.loops}
        self.atomic_arrays = {_atomic_array(c) for b in self.kernel.blocks for c in b.cmds
                              if isinstance(c, il.Call) and _atomic_array(c)}
        self.async_sites = async_sites(self.kernel)  # site number -> AsyncSite
        self.written_arrays = written_arrays(self.kernel) & set(self.arrays)
        self.distinct_pair = two_threads_exist(opts)
        self.ticket_arrays = ticket_arrays(self.kernel, self.arrays)  # DESIGN.md 5.9, vcgen.tickets
        self.write_widths = write_widths(self.kernel, set(self.arrays))  # (label, cmd index) -> cells
        self.mixed_widths = self._mixed_width_arrays()
        self.candidates = CandidateFactory(self)

    def _mixed_width_arrays(self) -> set:
        """Arrays whose logged writes need their width (DESIGN.md 5.8): those written at
        several widths, and those an async copy also writes (``COPY_WIDTH``)."""
        widths: dict = {}
        for (label, i), w in self.write_widths.items():
            widths.setdefault(self.src[label].cmds[i].lhss[0].name, set()).add(w)
        return {a for a, ws in widths.items() if len(ws) > 1} | \
            {x.dst for x in self.async_sites.values() if x.dst in widths}

    # ---------------------------------------------------------------- naming helpers

    def _renaming(self, t: int) -> dict:
        m = {}
        for n in self.dup_consts:
            m[n] = il.Var(f"{n}${t}")
        for n in self.local_types:
            if self.is_dup(n):
                m[n] = il.Var(f"{n}${t}")
        for a in self.arrays.values():
            if a.equality:
                m[a.name] = il.Var(f"{a.name}${t}")
        return m

    def is_dup(self, local: str) -> bool:
        """Is the one-thread local ``local`` duplicated per thread (non-uniform)?"""
        return local in self.uni.nonuniform_vars

    def name(self, n: str, t: int) -> str:
        v = self.rename[t].get(n)
        return v.name if v is not None else n

    def ex(self, e: il.Expr, t: int) -> il.Expr:
        return il.substitute(e, self.rename[t])

    def local(self, name: str, ty: il.Type) -> il.Var:
        self.new_locals[name] = ty
        return il.Var(name)

    def tmp(self, ty: il.Type, hint: str = "tmp") -> il.Var:
        self.fresh += 1
        return self.local(f"_{hint}${self.fresh}", ty)

    def glob(self, name: str, ty: il.Type, attrs=()) -> il.Var:
        self.new_globals.setdefault(name, il.VarDecl(name, ty, attrs))
        return il.Var(name)

    def bvfun(self, op: str, width: int, *_legacy) -> str:
        """Name of ``BV<width>_<op>`` (declaration from ``prelude/bitvector.bpl``), declared
        in the output if the input program lacks it."""
        name = f"BV{width}_{op}"
        if name not in self.declared_functions and name not in self.new_functions:
            self.new_functions[name] = bv_decl(op, width)
        return name

    def sourceloc_num(self, key: tuple | None) -> il.Expr:
        if key is None:
            return il.IntLit(0)
        if key not in self.sourcelocs:
            self.sourcelocs[key] = len(self.sourcelocs) + 1
        return il.IntLit(self.sourcelocs[key])

    def same_group(self) -> il.Expr:
        return il.and_all(il.BinOp("==", il.Var(f"group_id_{d}$1"), il.Var(f"group_id_{d}$2"))
                          for d in DIMS if f"group_id_{d}" in self.dup_consts)

    # ------------------------------------------------------------------ block emission

    def emit(self, c: il.Cmd) -> None:
        self.open_cmds.append(c)

    def close(self, transfer: il.Transfer) -> None:
        self.blocks.append(il.Block(self.open_label, tuple(self.open_cmds), transfer))
        self.open_label, self.open_cmds = None, []

    def start(self, label: str) -> None:
        assert self.open_label is None
        self.open_label, self.open_cmds = label, []

    def goto_new(self, label: str) -> None:
        """Close the open block with ``goto label`` and start ``label``."""
        self.close(il.Goto((label,)))
        self.start(label)

    def cur(self, t: int) -> il.Var:
        return self.local(f"cur${t}", INT)

    def pred(self, t: int) -> il.Var:
        return self.local(f"p${t}", il.BOOL)

    # ---------------------------------------------------------------------- main

    def run(self) -> il.Program:
        k = self.kernel
        self.start("$entry$lockstep")
        for t in (1, 2):
            self.emit(il.assign(self.cur(t).name, il.IntLit(self.block_id[k.blocks[0].label])))
        self._init_memory()
        for it in self.items:
            self._item(it)
        for t in (1, 2):
            self.emit(il.Assert(il.BinOp("==", self.cur(t), il.IntLit(self.exit_id)), (il.Attr("lockstep_check"),)))
        self.emit(il.Assert(il.FALSE, (il.Attr("vacuity_check"),)))
        self.close(il.Return())
        return self._assemble()

    def _init_memory(self) -> None:
        sg = self.same_group()
        for a in self.arrays.values():
            if a.logged:
                for kind in self.log_kinds(a):
                    self.emit(il.assign(self.log_var(a, kind, "HAS_OCCURRED").name, il.FALSE))
            if a.equality:
                # Copies start equal (group-shared ones only within one group); an
                # assignment says so without a map equality for the solver.
                m1, m2 = il.Var(f"{a.name}$1"), il.Var(f"{a.name}$2")
                self.emit(il.assign(m2.name, m1 if a.space != "group_shared" else il.ite(sg, m1, m2)))

    def log_kinds(self, a: ArrayInfo) -> tuple:
        """Access logs kept for ``a``: reads, writes, and atomics if the kernel has any on it."""
        return ("READ", "WRITE", "ATOMIC") if a.name in self.atomic_arrays else ("READ", "WRITE")

    def log_var(self, a: ArrayInfo, kind: str, what: str) -> il.Var:
        ty = {"HAS_OCCURRED": il.BOOL, "OFFSET": a.dom, "SOURCE": INT, "VALUE": a.rng, "WIDTH": INT,
              "EVENT": il.BV32}[what]
        return self.glob(f"_{kind}_{what}_{a.name}", ty)

    def _item(self, it) -> None:
        if isinstance(it, LoopItem):
            self._loop(it)
        else:
            self._block(self.src[it])

    def _loop(self, it: LoopItem) -> None:
        lp = it.loop
        blocks = flatten(it.items)
        lo = self.block_id[lp.header]
        ids = sorted(self.block_id[b] for b in blocks)
        assert ids == list(range(lo, lo + len(ids))), "loop blocks must be contiguous"
        hi = lo + len(ids)
        head = lp.header
        for t in (1, 2):
            self.emit(il.assign(self.local(f"cur${t}$entry{head}", INT).name, self.cur(t)))
        for g, ho in self.candidates.log_ghosts(lp):
            self.emit(il.assign(self.local(g, il.BOOL).name, ho))
        self.goto_new(head)
        invs = []
        returns = any(isinstance(self.src[b].transfer, il.Return) for b in lp.blocks)
        exits = sorted({self.block_id[x] for x in lp.exits(self.succ)} | ({self.exit_id} if returns else set()))
        if head in self.uni.uniform_blocks:
            exits = []  # every exit of a uniform loop jumps straight to its $done (see _leave)
        for t in (1, 2):
            c, e = self.cur(t), il.Var(f"cur${t}$entry{head}")
            at_head = il.BinOp("==", c, il.IntLit(lo))
            outside = il.or_all(il.BinOp("==", c, il.IntLit(x)) for x in exits)
            invs.append(il.Assert(il.or_all([at_head, il.BinOp("==", c, e), outside]), (il.Attr("invariant"),)))
            invs.append(il.Assert(il.implies(il.BinOp("!=", e, il.IntLit(lo)), il.BinOp("==", c, e)),
                                  (il.Attr("invariant"),)))
        for c in invs:
            self.emit(c)
        for c in self._user_invariants(lp.header, lo):
            self.emit(c)
        if self.opts.infer:
            for c in self.candidates.at_loop_head(LoopFacts(self, lp, lo, hi)):
                self.emit(c)
        body, done = f"{head}$body", f"{head}$done"
        self.close(il.Goto((body, done)))
        self.start(body)
        in1, in2 = (il.BinOp("==", self.cur(t), il.IntLit(lo)) for t in (1, 2))
        self.emit(il.Assume(il.BinOp("||", in1, in2)))
        self._block(self.src[head], is_header=True)
        for sub in it.items[1:]:
            self._item(sub)
        self.close(il.Goto((head,)))
        self.start(done)
        self.emit(il.Assume(il.BinOp("&&", il.not_(in1), il.not_(in2))))

    def _user_invariants(self, header: str, lo: int) -> list:
        """``{:user_invariant}`` asserts of the header, hoisted to the two-thread loop head.

        Definitions computed in the header before the assertion are substituted so that
        the invariant can be evaluated at the head; it is read "enabled => e" per thread
        (DESIGN.md 5.10).
        """
        out = []
        defs: dict = {}
        for c in self.src[header].cmds:
            if isinstance(c, il.Assign) and all(isinstance(l, il.VarLhs) for l in c.lhss):
                for l, r in zip(c.lhss, c.rhss):
                    if any(isinstance(x, il.MapSelect) and isinstance(x.map, il.Var) and x.map.name in self.shared
                           for x in il.subexprs(r)):
                        continue
                    defs[l.name] = il.substitute(r, defs)
            if isinstance(c, il.Assert) and il.has_attr(c.attrs, "user_invariant"):
                e = il.substitute(c.expr, defs)
                here = {u: il.BinOp("==", self.cur(u), il.IntLit(lo)) for u in (1, 2)}
                for t in self.ann_threads(e):
                    inv = self.ann(e, t, here)
                    if not il.has_attr(c.attrs, "global_annotation"):
                        inv = il.implies(here[t], inv)
                    out.append(il.Assert(inv, c.attrs + (il.Attr("thread", (il.IntLit(t),)),)))
        return out

    # ---------------------------------------------------------------- blocks

    def _block(self, b: il.Block, is_header: bool = False) -> None:
        bid = self.block_id[b.label]
        uniform = b.label in self.uni.uniform_blocks
        label = f"{b.label}$hdr" if is_header else b.label
        if uniform:
            skip = f"{b.label}$skip"
            self.close(il.Goto((label, skip)))
            self.start(skip)
            self.emit(il.Assume(il.BinOp("!=", self.cur(1), il.IntLit(bid))))
            skip_block = (self.open_label, self.open_cmds)
            self.open_label, self.open_cmds = None, []
            self.start(label)
            self.emit(il.Assume(il.BinOp("==", self.cur(1), il.IntLit(bid))))
            preds = {1: il.TRUE, 2: il.TRUE}
        else:
            self.goto_new(label)
            for t in (1, 2):
                self.emit(il.assign(self.pred(t).name, il.BinOp("==", self.cur(t), il.IntLit(bid))))
            preds = {t: self.pred(t) for t in (1, 2)}
            skip_block = None
        self._commands(b, preds)
        join = f"{b.label}$next"
        self._terminator(b, preds, uniform, join)
        if skip_block is not None:
            self.blocks.append(il.Block(skip_block[0], tuple(skip_block[1]), il.Goto((join,))))
        self.start(join)

    def _target_id(self, label: str) -> il.IntLit:
        return il.IntLit(self.block_id.get(label, self.exit_id))

    def _leave(self, src: str, target: str | None, uniform: bool, join: str) -> str:
        """Where control goes after ``src`` hands both threads to ``target`` (None: return).

        When both threads leave loops together (a uniform exit), they jump straight to
        the exit of the outermost loop left, as a structured loop exit does, instead of
        going round the back edge: the exit path then keeps the state of the last
        iteration (e.g. the negated loop condition) rather than only the invariants.
        """
        if not uniform:
            return join
        for lp in self.loops:  # outermost first
            if src in lp.blocks and (target is None or target not in lp.blocks):
                return f"{lp.header}$done"
        return join

    def _terminator(self, b: il.Block, preds: dict, uniform: bool, join: str) -> None:
        if isinstance(b.transfer, il.Return):
            for t in (1, 2):
                self.emit(il.assign(self.cur(t).name, il.ite(preds[t], il.IntLit(self.exit_id), self.cur(t))))
            self.close(il.Goto((self._leave(b.label, None, uniform, join),)))
            return
        targets = list(b.transfer.targets)
        if len(targets) == 1:
            for t in (1, 2):
                self.emit(il.assign(self.cur(t).name, il.ite(preds[t], self._target_id(targets[0]), self.cur(t))))
            self.close(il.Goto((self._leave(b.label, targets[0], uniform, join),)))
            return
        conds = [self._partition(x) for x in targets]
        if uniform and b.label not in self.uni.divergent_branches:
            # A uniform branch stays a goto: both threads take the same target.
            labels = [f"{b.label}$to${x}" for x in targets]
            self.close(il.Goto(tuple(labels)))
            for lab, x, c in zip(labels, targets, conds):
                self.start(lab)
                self.emit(il.Assume(self.ex(c, 1), (il.Attr("partition"),)))
                for t in (1, 2):
                    self.emit(il.assign(self.cur(t).name, self._target_id(x)))
                self.close(il.Goto((self._leave(b.label, x, True, join),)))
            return
        # Divergent branch: each enabled thread picks its own target.
        for t in (1, 2):
            if any(c is None for c in conds):
                choice = self.tmp(INT, "choice")
                self.emit(il.Havoc((choice.name,)))
                self.emit(il.Assume(il.or_all(il.BinOp("==", choice, self._target_id(x)) for x in targets)))
                new = choice
            else:
                new = self._target_id(targets[-1])
                for x, c in reversed(list(zip(targets[:-1], conds[:-1]))):
                    new = il.ite(self.ex(c, t), self._target_id(x), new)
            self.emit(il.assign(self.cur(t).name, il.ite(preds[t], new, self.cur(t))))
        self.close(il.Goto((join,)))

    def _partition(self, label: str) -> il.Expr | None:
        blk = self.src[label]
        if len([p for p, ss in self.succ.items() if label in ss]) != 1:
            return None
        first = blk.cmds[0] if blk.cmds else None
        if isinstance(first, il.Assume) and il.has_attr(first.attrs, "partition"):
            return first.expr
        return None

    # ---------------------------------------------------------------- commands

    def _commands(self, b: il.Block, preds: dict) -> None:
        loc = None
        for i, c in enumerate(b.cmds):
            if isinstance(c, il.Assume) and il.has_attr(c.attrs, "sourceloc"):
                self._warp_clear(_loc_key(c.attrs))
                loc = c.attrs
                if c.expr != il.TRUE:
                    self._assume(c, preds)
                continue
            if isinstance(c, il.Assume) and il.has_attr(c.attrs, "partition") and i == 0:
                continue  # consumed by the branch that leads here
            if isinstance(c, il.Assign):
                self._assign(c, preds, loc, self.write_widths.get((b.label, i), 1))
            elif isinstance(c, il.Assume):
                self._assume(c, preds)
            elif isinstance(c, il.Assert):
                if il.has_attr(c.attrs, "user_invariant"):
                    # at the loop head means in the header block, and not evaluated through
                    # short-circuit operators (bugle's {:short_circuit}; docs/IL.md)
                    if b.label not in self.headers or il.has_attr(c.attrs, "short_circuit"):
                        raise ToolError(f"{_where(c.attrs)}user-specified invariant does not appear at loop head",
                                        ExitCode.GPUVERIFYVCGEN_ERROR)
                    continue  # hoisted to the loop head by _loop
                glob = il.has_attr(c.attrs, "global_annotation")
                for t in self.ann_threads(c.expr):
                    e = self.ann(c.expr, t, preds)
                    self.emit(il.Assert(e if glob else il.implies(preds[t], e),
                                        c.attrs + (il.Attr("thread", (il.IntLit(t),)),)))
            elif isinstance(c, il.Havoc):
                for v in c.vars:
                    self._havoc_var(v, preds)
            elif isinstance(c, il.Call):
                self._call(c, preds, loc)
            else:
                raise error(f"unsupported command {c!r}")
        self._warp_clear(None, end=True)

    def _assume(self, c: il.Assume, preds: dict) -> None:
        """Per thread: ``enabled => e`` (the ``__global_`` forms: ``e`` whether enabled or not)."""
        glob = il.has_attr(c.attrs, "global_annotation")
        for t in self.ann_threads(c.expr):
            e = self.ann(c.expr, t, preds)
            self.emit(il.Assume(e if glob else il.implies(preds[t], e)))

    def _havoc_var(self, v: str, preds: dict) -> None:
        ty = self.local_types.get(v)
        for t in (1, 2) if self.is_dup(v) else (1,):
            if preds[t] == il.TRUE:
                self.emit(il.Havoc((self.name(v, t),)))
            else:
                h = self.tmp(ty, "havoc")
                self.emit(il.Havoc((h.name,)))
                self.emit(il.assign(self.name(v, t), il.ite(preds[t], h, il.Var(self.name(v, t)))))

    def _assign(self, c: il.Assign, preds: dict, loc, width: int = 1) -> None:
        shared_lhs = [l for l in c.lhss if l.name in self.arrays]
        reads = [(l, r) for l, r in zip(c.lhss, c.rhss)
                 if isinstance(r, il.MapSelect) and isinstance(r.map, il.Var) and r.map.name in self.arrays]
        if shared_lhs or reads:
            if len(c.lhss) != 1:
                raise error("a memory access must be a single assignment (docs/IL.md)")
            if shared_lhs:
                self._write(self.arrays[shared_lhs[0].name], shared_lhs[0].index, c.rhss[0], preds, loc, width)
            else:
                self._read(self.arrays[reads[0][1].map.name], reads[0][0].name, reads[0][1].index, preds, loc)
            return
        for e in c.rhss:
            for x in il.subexprs(e):
                if isinstance(x, il.MapSelect) and isinstance(x.map, il.Var) and x.map.name in self.arrays:
                    raise error("memory reads must be whole assignments `x := A[i];` (docs/IL.md)")
        self._private_bounds(c, preds, loc)
        lhss, rhss = [], []
        for t in (1, 2):
            for l, r in zip(c.lhss, c.rhss):
                if t == 2 and not self.is_dup(l.name):
                    continue
                cur_val = il.Var(self.name(l.name, t)) if isinstance(l, il.VarLhs) else \
                    il.MapSelect(il.Var(self.name(l.name, t)), self.ex(l.index, t))
                val = il.ite(preds[t], self.ex(r, t), cur_val)
                lhss.append(il.VarLhs(self.name(l.name, t)) if isinstance(l, il.VarLhs)
                            else il.MapLhs(self.name(l.name, t), self.ex(l.index, t)))
                rhss.append(val)
        self.emit(il.Assign(tuple(lhss), tuple(rhss)))

    # ------------------------------------------------------------- memory accesses

    def _log(self, a: ArrayInfo, kind: str, index: il.Expr, value: il.Expr | None, pred: il.Expr, loc,
             source: il.Expr | None = None, width: int = 1, event: il.Expr | None = None) -> None:
        """Thread 1 may record this access (paper 000 section 5): ``pred`` and a fresh
        nondeterministic choice.  A write also records its value (thread 1's expression)
        and, for arrays written at several widths, its width in cells (DESIGN.md 5.8); an
        async copy also records the event it joins (``event``, ``vcgen.async_copies``)."""
        nd = self.tmp(il.BOOL, "log")
        self.emit(il.Havoc((nd.name,)))
        g = il.BinOp("&&", pred, nd) if pred != il.TRUE else nd
        targets = [(self.log_var(a, kind, "HAS_OCCURRED"), il.TRUE),
                   (self.log_var(a, kind, "OFFSET"), self.ex(index, 1)),
                   (self.log_var(a, kind, "SOURCE"), source or self.sourceloc_num(_loc_key(loc or ())))]
        if kind == "WRITE":
            targets.append((self.log_var(a, kind, "VALUE"), self.ex(value, 1)))
            if a.name in self.mixed_widths:
                targets.append((self.log_var(a, kind, "WIDTH"), il.IntLit(width)))
        if event is not None:
            targets.append((self.log_var(a, kind, "EVENT"), self.ex(event, 1)))
        self.emit(il.Assign(tuple(il.VarLhs(v.name) for v, _ in targets),
                            tuple(il.ite(g, e, v) for v, e in targets)))
        if self.opts.warp_sync:
            self.warp_pending.add(a.name)
            self.warp_pending_loc = _loc_key(loc or ())

    def _check(self, a: ArrayInfo, logged: str, access: str, index: il.Expr, value: il.Expr | None,
               pred: il.Expr, loc, width: int = 1) -> None:
        """Assert that thread 2's access (``pred``, cell ``index``) does not conflict with
        the ``logged`` access of thread 1.  Benign write-write races (DESIGN.md 5.8, paper
        000 section 5): unless ``--no-benign-tolerance``, two writes of the same value and
        the same width do not conflict, whatever the array's abstraction (the values are
        expressions of each thread: under the adversarial abstraction a value read from
        shared memory is arbitrary per thread, so it never looks benign).  Read-write
        races are never tolerated."""
        if not self.distinct_pair:
            return  # one thread (DESIGN.md 5.1): no second thread to race with
        idx2 = self.ex(index, 2)
        conflict = [pred, self.log_var(a, logged, "HAS_OCCURRED"),
                    il.BinOp("==", self.log_var(a, logged, "OFFSET"), idx2)]
        if a.space == "group_shared":
            conflict.append(self.same_group())
        if logged == "WRITE" and access == "WRITE" and value is not None and self.opts.benign_tolerance:
            differs = il.BinOp("!=", self.log_var(a, "WRITE", "VALUE"), self.ex(value, 2))
            if a.name in self.mixed_widths:
                differs = il.BinOp("||", differs, il.BinOp("!=", self.log_var(a, "WRITE", "WIDTH"), il.IntLit(width)))
            conflict.append(differs)
        attrs = (il.Attr("race", (f"{logged.lower()}-{access.lower()}", a.name)),) + \
            tuple(x for x in (loc or ()) if x.name == "sourceloc") + (il.Attr("check_offset", (idx2,)),)
        self.emit(il.Assert(il.not_(il.and_all(x for x in conflict if x != il.TRUE)), attrs))

    def _bounds_check(self, name: str, decl_attrs, index: il.Expr, preds: dict, loc) -> None:
        """With ``check_array_bounds``: per enabled thread, assert the cell index is below
        the array's ``{:elem_count}`` (unsigned, so a negative index wraps and fails).
        Arrays of unknown size (kernel pointer arguments) are not checked."""
        n = il.attr(decl_attrs, "elem_count")
        if not self.opts.check_array_bounds or n is None or not n.args:
            return
        src = tuple(x for x in (loc or ()) if x.name == "sourceloc")
        ty = self.arrays[name].dom if name in self.arrays else self.local_types[name].domain
        for t in (1, 2):
            i = self.ex(index, t)
            below = il.FunApp(self.bvfun("ULT", ty.width), (i, il.BvLit(n.args[0].value, ty.width))) \
                if isinstance(ty, il.BvType) else il.BinOp("<", i, il.IntLit(n.args[0].value))
            self.emit(il.Assert(il.implies(preds[t], below), (il.Attr("array_bounds", (name,)),) + src + (
                il.Attr("thread", (il.IntLit(t),)), il.Attr("check_offset", (i,)))))

    def _private_bounds(self, c: il.Assign, preds: dict, loc) -> None:
        """Bounds checks for the accesses of ``c`` to private arrays (procedure-local maps)."""
        if not self.opts.check_array_bounds:
            return
        private = getattr(self, "_private_maps", None)
        if private is None:
            private = self._private_maps = {v.name: v for v in self.kernel.locals if isinstance(v.type, il.MapType)}
        for l in c.lhss:
            if isinstance(l, il.MapLhs) and l.name in private:
                self._bounds_check(l.name, private[l.name].attrs, l.index, preds, loc)
        for e in c.rhss:
            for x in il.subexprs(e):
                if isinstance(x, il.MapSelect) and isinstance(x.map, il.Var) and x.map.name in private:
                    self._bounds_check(x.map.name, private[x.map.name].attrs, x.index, preds, loc)

    def _read(self, a: ArrayInfo, target: str, index: il.Expr, preds: dict, loc) -> None:
        self._bounds_check(a.name, a.decl.attrs, index, preds, loc)
        if a.logged:
            self._log(a, "READ", index, None, preds[1], loc)
            self._check(a, "WRITE", "READ", index, None, preds[2], loc)
            if a.name in self.atomic_arrays:
                self._check(a, "ATOMIC", "READ", index, None, preds[2], loc)
        for t in (1, 2) if self.is_dup(target) else (1,):
            tgt = self.name(target, t)
            if a.equality:
                val = il.MapSelect(il.Var(self.name(a.name, t)), self.ex(index, t))
            else:
                val = self.tmp(self.local_types[target], "read")
                self.emit(il.Havoc((val.name,)))
            self.emit(il.assign(tgt, il.ite(preds[t], val, il.Var(tgt))))

    def _write(self, a: ArrayInfo, index: il.Expr, value: il.Expr, preds: dict, loc, width: int = 1) -> None:
        if a.space == "constant":
            raise error(f"write to constant array {a.name}")
        self._bounds_check(a.name, a.decl.attrs, index, preds, loc)
        if a.logged:
            self._log(a, "WRITE", index, value, preds[1], loc, width=width)
            self._check(a, "READ", "WRITE", index, value, preds[2], loc)
            self._check(a, "WRITE", "WRITE", index, value, preds[2], loc, width)
            if a.name in self.atomic_arrays:
                self._check(a, "ATOMIC", "WRITE", index, None, preds[2], loc)
        if a.equality and self.opts.warp_sync:
            self._warp_write(a, index, value, preds)
        elif a.equality:
            for t in (1, 2):
                m, i = self.name(a.name, t), self.ex(index, t)
                self.emit(il.Assign((il.MapLhs(m, i),),
                                    (il.ite(preds[t], self.ex(value, t), il.MapSelect(il.Var(m), i)),)))

    # ---------------------------------------------------------------- barrier

    def _atomic(self, c: il.Call, preds: dict, loc) -> None:
        """An atomic read-modify-write (DESIGN.md 5.9): logged and checked against plain
        accesses but never against other atomics; returns an arbitrary value and leaves
        that element of the thread's own copy arbitrary -- except that a ticket counter
        (``vcgen.tickets``) never returns one value to both threads."""
        name = _atomic_array(c)
        if name not in self.arrays:
            raise error(f"atomic on unknown array {name}")
        a, index = self.arrays[name], c.args[0]
        if a.space == "constant":
            raise error(f"atomic on constant array {a.name}")
        self._bounds_check(a.name, a.decl.attrs, index, preds, loc)
        if a.logged:
            self._log(a, "ATOMIC", index, None, preds[1], loc)
            self._check(a, "READ", "ATOMIC", index, None, preds[2], loc)
            self._check(a, "WRITE", "ATOMIC", index, None, preds[2], loc)
        if a.equality and self.opts.warp_sync:
            self._warp_mates_wrote(a)
        for t in (1, 2):
            if a.equality:
                h = self.tmp(a.rng, "atomic")
                self.emit(il.Havoc((h.name,)))
                m, i = self.name(a.name, t), self.ex(index, t)
                self.emit(il.Assign((il.MapLhs(m, i),), (il.ite(preds[t], h, il.MapSelect(il.Var(m), i)),)))
        for out in c.outs:
            self._havoc_var(out, preds)
            if name in self.ticket_arrays:
                self._tickets(a, out, preds)

    def _call(self, c: il.Call, preds: dict, loc) -> None:
        if _atomic_array(c) is not None:
            return self._atomic(c, preds, loc)
        if il.has_attr(c.attrs, "async_copy"):
            return self._async_copy(c, preds, loc)
        if c.proc == WAIT_PROC:
            return self._wait_events(c, preds)
        callee = next((p for p in self.prog.procedures() if p.name == c.proc), None)
        if callee is not None and il.has_attr(callee.attrs, "warp_op"):
            return self._warp_op(c, il.attr(callee.attrs, "warp_op").args[0], preds)
        if callee is None or not il.has_attr(callee.attrs, "barrier"):
            raise error(f"call to {c.proc}: only the barrier may be called in a kernel (inline calls first)")
        lf, gf = (a == il.BvLit(1, 1) for a in c.args)
        sg = self.same_group()
        srcloc = tuple(x for x in c.attrs if x.name == "sourceloc")
        # In a uniformly executed block both threads are at the barrier together iff the
        # uniformity analysis is right: the check then guards that analysis too.
        both_here = il.BinOp("==", preds[1], preds[2]) if preds[1] != il.TRUE else \
            il.BinOp("==", self.cur(2), self.cur(1))
        self.emit(il.Assert(il.implies(sg, both_here), (il.Attr("barrier_divergence"),) + srcloc))
        for a in self.arrays.values():
            covered = lf if a.space == "group_shared" else gf if a.space == "global" else False
            if a.logged and covered:
                both = il.and_all(x for x in (preds[1], sg) if x != il.TRUE)
                for kind in self.log_kinds(a):
                    v = self.log_var(a, kind, "HAS_OCCURRED")
                    self.emit(il.assign(v.name, il.ite(self._not_async(a, kind, both), il.FALSE, v)))
            if a.equality and a.name in self.written_arrays:  # unwritten arrays keep their contents
                h1 = self.glob(f"_HAVOC_{a.name}$1", a.decl.type)
                h2 = self.glob(f"_HAVOC_{a.name}$2", a.decl.type)
                self.emit(il.Havoc((h1.name, h2.name)))
                m1, m2 = il.Var(f"{a.name}$1"), il.Var(f"{a.name}$2")
                shared_copy = il.and_all([sg]) if covered else il.FALSE
                self.emit(il.Assign((il.VarLhs(m1.name), il.VarLhs(m2.name)),
                                    (il.ite(preds[1], h1, m1),
                                     il.ite(preds[2], il.ite(shared_copy, h1, h2), m2))))

    # ---------------------------------------------------------------- assembly

    def _assemble(self) -> il.Program:
        lc = self.opts.launch
        decls = []
        for d in self.prog.decls:
            if isinstance(d, il.ProcedureDecl) or (isinstance(d, il.FunctionDecl) and d.name in self.annotation_fns):
                continue
            if isinstance(d, il.ConstDecl) and d.name in self.dup_consts:
                for t in (1, 2):
                    decls.append(il.ConstDecl(f"{d.name}${t}", d.type, d.unique, d.attrs + (il.Attr("thread", (il.IntLit(t),)),)))
                continue
            if isinstance(d, il.VarDecl) and d.name in self.arrays:
                a = self.arrays[d.name]
                if a.equality:
                    for t in (1, 2):
                        decls.append(il.VarDecl(f"{d.name}${t}", d.type, d.attrs + (il.Attr("thread", (il.IntLit(t),)),)))
                else:
                    decls.append(il.VarDecl(d.name, d.type, d.attrs))  # kept for its attributes; never accessed
                continue
            decls.append(d)
        axioms = self._launch_axioms()  # may declare bit-vector functions: before listing them
        decls += self.new_functions.values()
        decls += axioms
        decls += self.new_globals.values()
        for (f, l, c, *_site), n in sorted(self.sourcelocs.items(), key=lambda kv: kv[1]):
            decls.append(il.ConstDecl(f"$sourceloc_{n}", INT, attrs=(
                il.Attr("sourceloc_num", (il.IntLit(n),)), il.Attr("sourceloc", (f, il.IntLit(l), il.IntLit(c))))))
        decls += self.candidates.declarations()
        k = self.kernel
        specs = []
        for s in k.specs:
            for t in self.ann_threads(s.expr):
                specs.append(il.Spec(s.kind, self.ann(s.expr, t, {1: il.TRUE, 2: il.TRUE}), s.free, s.attrs))
        locals_ = []
        seen = set()
        for v in k.locals:
            for t in (1, 2) if self.is_dup(v.name) else (1,):
                n = self.name(v.name, t)
                if n not in seen:
                    seen.add(n)
                    locals_.append(il.VarDecl(n, v.type, v.attrs))
        for n, ty in self.new_locals.items():
            if n not in seen:
                seen.add(n)
                locals_.append(il.VarDecl(n, ty))
        dup_params = [(n, ty) for n, ty in k.params if self.is_dup(n)]
        if dup_params:
            raise error(f"kernel parameter {dup_params[0][0]} is assigned in the kernel; parameters must be read-only")
        mode = tuple(il.Attr(n) for n, on in (("only_intra_group", self.opts.only_intra_group),
                                               ("only_divergence", self.opts.only_divergence),
                                               ("check_array_bounds", self.opts.check_array_bounds)) if on)
        proc = il.ProcedureDecl(k.name, k.params, k.outs, tuple(specs), (), k.attrs + (il.Attr("two_thread"),) + mode,
                                tuple(locals_), tuple(self.blocks))
        return il.Program(tuple(decls) + (proc,))

    def _launch_axioms(self) -> list:
        lc, out = self.opts.launch, []
        ty = {n: d.type for n, d in self.consts.items()}

        def lit(name: str, v: int) -> il.Expr:
            return il.BvLit(v, ty[name].width) if isinstance(ty[name], il.BvType) else il.IntLit(v)

        def ult(a: str, b: str) -> il.Expr:
            w = ty[b].width
            return il.FunApp(self.bvfun("ULT", w), (il.Var(a), il.Var(b)))

        for i, d in enumerate(DIMS):
            for name, val in ((f"group_size_{d}", lc.local_size[i]), (f"num_groups_{d}", lc.num_groups[i]),
                              (f"global_offset_{d}", lc.global_offset[i])):
                if name in ty:
                    out.append(il.AxiomDecl(il.BinOp("==", il.Var(name), lit(name, val))))
            for t in (1, 2):
                if f"local_id_{d}" in ty and f"group_size_{d}" in ty:
                    out.append(il.AxiomDecl(ult(f"local_id_{d}${t}", f"group_size_{d}")))
                if f"group_id_{d}" in ty and f"num_groups_{d}" in ty:
                    out.append(il.AxiomDecl(ult(f"group_id_{d}${t}", f"num_groups_{d}")))
        if self.distinct_pair:
            distinct_local = il.or_all(il.BinOp("!=", il.Var(f"local_id_{d}$1"), il.Var(f"local_id_{d}$2"))
                                       for d in DIMS if f"local_id_{d}" in ty)
            out.append(il.AxiomDecl(il.implies(self.same_group(), distinct_local), (il.Attr("distinct_threads"),)))
        if self.opts.only_intra_group:
            out.append(il.AxiomDecl(self.same_group(), (il.Attr("only_intra_group"),)))
        return out


def two_threads_exist(opts: LockstepOptions) -> bool:
    """Does the launch have two distinct threads for the pair (DESIGN.md 5.1)?  With
    ``--only-intra-group`` they must share a group.  When it has not (one work item per
    launch, or per group with ``--only-intra-group``), the pair is one thread twice: there
    is no distinctness axiom and no race check (no race is possible), while assertions,
    contracts and divergence checks still apply to that thread -- such a launch is never
    reported as vacuous.  Either way the constraints stay symmetric in the two threads."""
    lc = opts.launch
    per_group = lc.local_size[0] * lc.local_size[1] * lc.local_size[2]
    groups = lc.num_groups[0] * lc.num_groups[1] * lc.num_groups[2]
    return per_group >= 2 or (groups >= 2 and not opts.only_intra_group)


def write_widths(kernel: il.ProcedureDecl, arrays: set) -> dict:
    """Width in cells of each plain write to one of ``arrays``: ``(block label, command
    index) -> cells``.  bugle emits a multi-cell access as one write per cell, each after
    the same ``{:sourceloc}`` marker, at indices ``i``, ``BVP_ADD(i, 1)``, ... (docs/IL.md);
    such a run is one write of that width.  Benign-race tolerance compares widths
    (DESIGN.md 5.8)."""
    out: dict = {}
    for b in kernel.blocks:
        run: list = []  # command indices of the open run
        key = None  # (array, marker, first index) of the open run
        loc = None

        def close():
            for i in run:
                out[(b.label, i)] = len(run)
            run.clear()
        for i, c in enumerate(b.cmds):
            if isinstance(c, il.Assume) and il.has_attr(c.attrs, "sourceloc"):
                loc = il.attr(c.attrs, "sourceloc")
                continue
            lhs = c.lhss[0] if isinstance(c, il.Assign) and len(c.lhss) == 1 else None
            if not (isinstance(lhs, il.MapLhs) and lhs.name in arrays):
                close()
                key = None
                continue
            if run and key[:2] == (lhs.name, loc) and _is_cell_after(lhs.index, key[2], len(run)):
                run.append(i)
                continue
            close()
            run.append(i)
            key = (lhs.name, loc, lhs.index)
        close()
    return out


def _is_cell_after(index: il.Expr, first: il.Expr, k: int) -> bool:
    """Is ``index`` bugle's ``BVP_ADD(first, kbvP)``?"""
    return (isinstance(index, il.FunApp) and index.name.endswith("_ADD") and len(index.args) == 2
            and index.args[0] == first and isinstance(index.args[1], il.BvLit) and index.args[1].value == k)


def written_arrays(kernel: il.ProcedureDecl) -> set:
    """Names of the maps the one-thread ``kernel`` may write: assignment targets, atomics
    and async-copy destinations.  Barriers leave every other array's contents alone."""
    out = {l.name for b in kernel.blocks for c in b.cmds if isinstance(c, il.Assign)
           for l in c.lhss if isinstance(l, il.MapLhs)}
    out |= {_atomic_array(c) for b in kernel.blocks for c in b.cmds
            if isinstance(c, il.Call) and _atomic_array(c)}
    return out | {x.dst for x in async_sites(kernel).values()}


def lockstep(prog: il.Program, opts: LockstepOptions) -> il.Program:
    """Two-thread program of the one-thread ``prog`` (see the module docstring).

    Raises ToolError(GPUVERIFYVCGEN_ERROR) on programs outside the conventions of
    docs/IL.md, irreducible control flow, or user invariants that are not at loop heads.
    """
    return Lockstep(prog, opts).run()
