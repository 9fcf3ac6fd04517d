"""Differential test of the two-thread transformation (``vcgen lockstep``).

For a one-thread kernel program P (``.gbpl``) and its two-thread program L
(``lockstep(choose_abstraction(P, "equality"))``, every array under the equality
abstraction, no candidate invariants), a *sample* is a pair of distinct threads
(random local and group ids inside the launch configuration; same-group and
different-group pairs alternate), random scalar arguments satisfying ``requires``, random
initial memory and one seed for the pseudo-random uninterpreted functions.  For a sample
we run

* **the reference**: P twice, for thread 1's ids and for thread 2's ids, as a concrete
  execution of a work group made of just these two threads.  The two interpreter runs
  execute in lock-step at barriers (two Python threads that meet at every barrier).
  Between barriers each thread sees the memory of the last barrier plus its own writes;
  at a barrier whose fence covers an array, when the threads share a group, both
  continue with the *merged* memory: last barrier's memory updated with thread 1's
  and then thread 2's writes (cells whose value changed).  Otherwise (other group, fence
  not covering the array) a thread keeps its own memory.  Group-shared arrays of
  threads in different groups are different storage with independent initial contents.
* **the subject**: L once, with ``local_id_x$1`` ... set to the same ids, the same
  inputs, and a havoc policy that gives the barrier's fresh copies (``_HAVOC_$$A$t``,
  see ``vcgen.twothread``) exactly the memory the reference thread t had after that
  barrier.  The policy counts, per thread, the barriers the thread passes *enabled*
  (``cur$t`` equals the barrier block's number in the ``Lockstep`` object's
  ``block_id``); a disabled thread's copy is not touched, so the value does not matter.
  The race-log nondeterminism (``havoc _log$N``) is left random: it only decides which
  access thread 1 logs and never flows into thread values.

This is a legal execution of L (havoc may pick any value), and it is the execution that
corresponds to the reference run if lockstep preserves each thread's semantics.  We then
compare, per thread t:

1. the **sequence of memory accesses** ``(read|write, array, index, value)`` with the
   thread's barriers interleaved: in P the events on ``$$A``, in L those on ``$$A$t``.
   An access of a disabled thread in L is a write ``A[i] := if p then v else A[i]``
   that evaluates to the old value: the interpreter records it as a read and a write of
   the same cell *by the same command* (same block and command index); that pair is
   dropped, everything else counts.  Reads under ``if p$t then A[i] else x`` are only
   evaluated when the thread is enabled.
2. the **final values of the thread's variables**: ``$x`` of P against ``$x$t`` of L,
   or the shared ``$x`` when lockstep found ``$x`` uniform (so a wrong uniformity
   verdict shows).  Uninitialised locals get the same arbitrary value in both programs.
   A run-time constant (assigned unpredicated) is compared only if the thread assigned it.
3. the **final memory as the thread sees it** (``$$A`` vs ``$$A$t``).
4. the **user assertions that fail** for the thread.

and, for kernels expected to verify (``//pass`` without ``known_gap``), that no race,
barrier-divergence or structural check of L fails in the run (a concrete counterexample
to a proof would be a soundness bug).  Candidate invariants are not generated (they are
assertions guarded by existential constants and never change state), and the final
``{:vacuity_check}`` ``assert false`` is ignored.

Samples the reference cannot run are *skipped* with the reason: inputs violating
``requires``, step bound, barrier divergence within the group (then the threads cannot
meet), a path the interpreter had to backtrack over a barrier.  Programs whose thread
values are not determined by ids and inputs (``havoc`` of variables, nondeterministic
branches) are rejected as unsupported.

API: ``Subject`` (program + launch), ``load_corpus_kernel(path)``,
``subject_from_text(name, text, launch)``, ``Differential(subject)``,
``.check(seed) -> Outcome``, ``run_subject(subject, seeds) -> list[Outcome]``.
Command line: ``python tests/differential.py KERNEL... [--seeds N]``.
"""
from __future__ import annotations

import random
import re
import sys
import threading
import zlib
from dataclasses import dataclass, field, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vcgen import il  # noqa: E402
from vcgen.analysis.abstraction import choose_abstraction  # noqa: E402
from vcgen.il.errors import ExitCode, ToolError  # noqa: E402
from vcgen.interp.interpreter import Interpreter
from vcgen.interp.values import InterpError, MapVal, value_from_hash  # noqa: E402
from vcgen.twothread.options import LaunchConfig, LockstepOptions
from vcgen.twothread.transform import Lockstep
from vcgen.twothread.kernel import written_arrays  # noqa: E402
from vcgen.il.parser import parse_program  # noqa: E402

DIMS = "xyz"
MAX_STEPS = 100_000
BARRIER_TIMEOUT = 60.0
IGNORED_CHECKS = ("candidate", "vacuity_check")


class Unsupported(Exception):
    """The kernel cannot be tested (front end or harness limitation); message = reason."""


class SkipSample(Exception):
    """This sample cannot be run by the reference; message = reason."""


# ---------------------------------------------------------------------- subjects


@dataclass
class Subject:
    """A one-thread program with its launch.  ``expect_verified``: the kernel is
    expected to verify (enables the no-failing-check test); ``check_races``: race checks
    count for that test (False for kernels run with ``--only-divergence``)."""
    name: str
    program: il.Program
    launch: LaunchConfig
    only_intra_group: bool = False
    benign_tolerance: bool = True
    expect_verified: bool = False
    check_races: bool = True


def subject_from_text(name: str, text: str, launch: LaunchConfig, expect_verified: bool = False) -> Subject:
    """A subject from one-thread IL text (ILParseError if malformed)."""
    return Subject(name, parse_program(text, name), launch, expect_verified=expect_verified)


def load_corpus_kernel(path: str) -> Subject:
    """Compile and translate a corpus kernel with the flags of its test header.

    Raises Unsupported (with the front end's message) if clang or bugle reject it.
    """
    from bugle.cc import compile_kernel
    from bugle.translate import translate_ir
    from vcgen.pipeline import command
    from vcgen.stages import lockstep_options
    from vcgen.testsuite import parse_header

    header = parse_header(path)
    try:
        o = command.make_context("gpuverify", list(header.flags) + [path]).params
        lang = "cuda" if path.endswith(".cu") else "opencl"
        ir = compile_kernel(path, language=lang, defines=tuple(o["defines"]), includes=tuple(o["includes"]),
                            spir64=o["spir64"])
        from vcgen.twothread.kernel_args import apply_kernel_args
        prog = apply_kernel_args(translate_ir(ir, o["kernel"], path), o.get("kernel_args"))
        lopts = lockstep_options(dict(o, only_divergence=False, no_infer=True))
    except ToolError as e:
        raise Unsupported(f"front end: {str(e).strip().splitlines()[0]}") from None
    if lopts.launch.symbolic:
        raise Unsupported("symbolic launch sizes (*): the one-thread runs need a concrete launch")
    return Subject(path, prog, lopts.launch, lopts.only_intra_group, lopts.benign_tolerance,
                   expect_verified=header.expected == ExitCode.SUCCESS and header.known_gap is None,
                   check_races=not o["only_divergence"])


# ---------------------------------------------------------------------- outcomes


@dataclass
class Outcome:
    """Result of one sample: ``status`` is "agree", "disagree" or "skipped"; ``why``
    lists the differences (or the skip reason); ``sample`` describes ids and seed."""
    status: str
    sample: str
    why: list = field(default_factory=list)

    def __str__(self) -> str:
        return f"{self.status}: {self.sample}" + "".join(f"\n  {w}" for w in self.why)


@dataclass
class _ThreadResult:
    """One thread's behaviour, in one-thread names."""
    accesses: list  # ("read"|"write", array, index, value) or ("barrier",)
    variables: dict
    memory: dict
    user_failures: list


def _merge(base: MapVal, *mems: MapVal) -> MapVal:
    """``base`` updated with the cells each of ``mems`` changed, in order."""
    out = MapVal(base.seed, base.range, dict(base.entries))
    for m in mems:
        if m.seed != base.seed:
            raise AssertionError("merged memories must derive from the same initial memory")
        for k, v in m.entries.items():
            if v != base.get(k):
                out.entries[k] = v
    return out


def _fmt(v) -> str:
    return f"map#{v.fingerprint() & 0xffff:04x}" if isinstance(v, MapVal) else str(v)


def _fmt_access(a: tuple) -> str:
    if a[0] == "barrier":
        return "barrier"
    return f"{a[0]} {a[1]}[{_fmt(a[2])}] {'->' if a[0] == 'read' else ':='} {_fmt(a[3])}"


# ---------------------------------------------------------------------- the harness


class Differential:
    """Prepared reference and subject programs of one ``Subject`` (see module doc).

    Raises Unsupported for programs outside the harness's scope, ToolError from lockstep.
    ``self.two`` (the two-thread program) may be replaced, e.g. by a broken version in
    tests that check that the harness notices.
    """

    def __init__(self, subject: Subject):
        self.subject = subject
        # exact arrays and exact values: the reference runs the kernel as written (the
        # value abstraction havocs irrelevant floating-point results, which no run can follow)
        one = choose_abstraction(subject.program, "equality", values=False)
        kernel = one.kernel()
        self._reject_nondeterminism(kernel)
        self.kernel_name = kernel.name
        self.kernel_entry = kernel.blocks[0]
        self.arrays = {d.name: d for d in one.globals() if isinstance(d.type, il.MapType)}
        # arrays some thread writes: lockstep leaves the others alone at barriers
        written = written_arrays(kernel)
        self.tracked = sorted(n for n, d in self.arrays.items()
                              if not il.has_attr(d.attrs, "constant") and n in written)
        self.space = {n: ("group_shared" if il.has_attr(d.attrs, "group_shared") else "global")
                      for n, d in self.arrays.items()}
        self.one_locals = {n for n, _ in kernel.params} | {v.name for v in kernel.locals} | \
            {n for n, _ in kernel.outs}
        self.reference = self._reference_program(one)
        opts = LockstepOptions(launch=subject.launch, only_intra_group=subject.only_intra_group,
                               benign_tolerance=subject.benign_tolerance, infer=False)
        try:
            ls = Lockstep(one, opts)
            self.two = ls.run()
        except ToolError as e:  # a kernel the verifier rejects (exit 5) has no two-thread program
            raise Unsupported(f"lockstep: {str(e).strip().splitlines()[0]}") from None
        self.block_id = dict(ls.info.block_id)
        self.consts = set(one.consts())
        # run-time constants (vcgen.analysis.uniformity): one shared copy assigned unpredicated;
        # once-assigned locals outside loops (once_vars): per thread, unpredicated
        unpredicated = ls.info.uni.constant_vars | ls.info.once_vars
        self.constant_vars = {v.name: v.type for v in kernel.locals if v.name in unpredicated}

    @staticmethod
    def _reject_nondeterminism(kernel: il.ProcedureDecl) -> None:
        preds: dict = {}
        for b in kernel.blocks:
            if isinstance(b.transfer, il.Goto):
                for t in b.transfer.targets:
                    preds.setdefault(t, []).append(b.label)
        by_label = {b.label: b for b in kernel.blocks}
        for b in kernel.blocks:
            for c in b.cmds:
                if isinstance(c, il.Havoc):
                    raise Unsupported(f"havoc of {', '.join(c.vars)}: thread values are not determined "
                                      "by ids and inputs")
                if isinstance(c, il.Call) and il.has_attr(c.attrs, "atomic"):
                    raise Unsupported("atomics return arbitrary values: thread values are not "
                                      "determined by ids and inputs")
                if isinstance(c, il.Assume) and il.has_attr(c.attrs, "user_assume"):
                    raise Unsupported("__assume: random inputs rarely satisfy a user assumption")
                if isinstance(c, il.Assert) and il.has_attr(c.attrs, "global_annotation"):
                    raise Unsupported("__global_ annotations are checked for threads that do not "
                                      "execute them: no one-thread reference")
                if isinstance(c, il.Assert) and (il.has_attr(c.attrs, "barrier_invariant")
                                                 or il.has_attr(c.attrs, "barrier_invariant_binary")):
                    raise Unsupported("barrier invariants: lockstep assumes them after the barrier, "
                                      "which random inputs rarely satisfy")
                if isinstance(c, il.Call) and c.proc == "$bugle_barrier" \
                        and not all(isinstance(x, il.BvLit) for x in c.args):
                    raise Unsupported("fence flags computed at run time: the reference merges memory "
                                      "by each thread's own flags only")
                if isinstance(c, il.Call) and il.has_attr(c.attrs, "grid_barrier"):
                    raise Unsupported("grid barriers (cooperative groups): the reference lets threads "
                                      "of different groups meet at no barrier")
                if isinstance(c, il.Call) and (il.has_attr(c.attrs, "async_copy") or c.outs
                                               or c.proc.startswith(("$bugle_wait", "$bugle_syncwarp"))):
                    raise Unsupported(f"call to {c.proc}: warp operations and asynchronous copies "
                                      "are not modelled by the reference")
            if isinstance(b.transfer, il.Goto) and len(b.transfer.targets) > 1:
                for t in b.transfer.targets:
                    first = by_label[t].cmds[0] if by_label[t].cmds else None
                    if not (isinstance(first, il.Assume) and il.has_attr(first.attrs, "partition")
                            and len(preds[t]) == 1):
                        raise Unsupported(f"nondeterministic branch {b.label} -> {t}")

    def _reference_program(self, one: il.Program) -> il.Program:
        """The barrier procedure gets ``modifies`` for every array, so that the reference's
        havoc policy can install the memory after the barrier."""
        decls = []
        for d in one.decls:
            if isinstance(d, il.FunctionDecl) and il.has_attr(d.attrs, "annotation"):
                raise Unsupported(f"annotation query {d.name} has no one-thread meaning")
            if isinstance(d, il.ProcedureDecl) and il.has_attr(d.attrs, "barrier"):
                if d.blocks is not None or d.outs:
                    raise Unsupported(f"barrier procedure {d.name} has a body or outputs")
                d = replace(d, modifies=tuple(self.tracked))
            decls.append(d)
        return il.Program(tuple(decls))

    # ------------------------------------------------------------------ samples

    def _pair(self, rng: random.Random, same_group: bool) -> tuple:
        lc = self.subject.launch
        size = lc.local_size
        ngroups = lc.num_groups
        if self.subject.only_intra_group:
            same_group = True
        if same_group and size[0] * size[1] * size[2] == 1:
            same_group = False
        if not same_group and ngroups[0] * ngroups[1] * ngroups[2] == 1:
            same_group = True
        if same_group and size[0] * size[1] * size[2] == 1:
            raise SkipSample("the launch has a single thread")
        rand = lambda bound: tuple(rng.randrange(b) for b in bound)
        l1, g1 = rand(size), rand(ngroups)
        if same_group:
            g2 = g1
            while True:
                if rng.random() < 0.4:  # neighbours interact most often
                    l2 = tuple(min(max(a + rng.choice((-1, 1)) * (d == 0), 0), b - 1)
                               for d, (a, b) in enumerate(zip(l1, size)))
                else:
                    l2 = rand(size)
                if l2 != l1:
                    break
        else:
            l2 = rand(size)
            while True:
                g2 = rand(ngroups)
                if g2 != g1:
                    break
        return (l1, g1), (l2, g2), same_group

    def _ids(self, local: tuple, group: tuple, suffix: str = "") -> dict:
        out = {}
        for i, d in enumerate(DIMS):
            for name, v in ((f"local_id_{d}", local[i]), (f"group_id_{d}", group[i])):
                if name in self.consts:
                    out[name + suffix] = v
        return out

    def _sizes(self) -> dict:
        lc = self.subject.launch
        out = {}
        for i, d in enumerate(DIMS):
            for name, v in ((f"group_size_{d}", lc.local_size[i]), (f"num_groups_{d}", lc.num_groups[i]),
                            (f"global_offset_{d}", lc.global_offset[i])):
                if name in self.consts:
                    out[name] = v
        if "work_dim" in self.consts:  # get_work_dim(): the launch's rank (lockstep's axiom)
            out["work_dim"] = lc.work_dim or 3
        return out

    def _byval_cells(self) -> dict:
        """Private copies of by-value struct arguments: map -> {cell index: parameter}.

        bugle assumes ``$$s[k] == $s$k`` at entry; the interpreter cannot solve an
        assumption on a private map's cells, so the runs start with those cells set.
        """
        out: dict = {}
        for c in self.kernel_entry.cmds:
            e = c.expr if isinstance(c, il.Assume) else None
            if isinstance(e, il.BinOp) and e.op == "==" and isinstance(e.left, il.MapSelect) \
                    and isinstance(e.left.map, il.Var) and isinstance(e.left.index, il.BvLit) \
                    and isinstance(e.right, il.Var):
                out.setdefault(e.left.map.name, {})[e.left.index.value] = e.right.name
        return out

    def _local_init(self, seed: int, two_thread: bool, params: dict | None = None):
        """Same arbitrary initial value for ``$x`` (P) and ``$x$1``, ``$x$2``, ``$x`` (L)."""
        cells = self._byval_cells()

        def init(name: str, t: il.Type):
            base = name
            if two_thread and re.search(r"\$[12]$", name) and name[:-2] in self.one_locals:
                base = name[:-2]
            v = value_from_hash(t, zlib.crc32(f"{seed}:{base}".encode()) * 0x9E3779B1 + seed)
            if base in cells and params is not None and isinstance(v, MapVal):
                for k, p in cells[base].items():
                    v = v.stored(k, params[p])
            return v
        return init

    def check(self, seed: int, same_group: bool | None = None) -> Outcome:
        """Run one sample (see the module doc).  ``same_group``: None = by seed parity."""
        rng = random.Random(seed)
        if same_group is None:
            same_group = seed % 2 == 0
        try:
            (l1, g1), (l2, g2), same_group = self._pair(rng, same_group)
        except SkipSample as e:
            return Outcome("skipped", f"seed {seed}", [str(e)])
        desc = f"seed {seed}, thread 1 local {l1} group {g1}, thread 2 local {l2} group {g2}"
        try:
            return self._check(seed, rng, (l1, g1), (l2, g2), same_group, desc)
        except SkipSample as e:
            return Outcome("skipped", desc, [str(e)])

    def _check(self, seed, rng, th1, th2, same_group, desc) -> Outcome:
        mem1, mem2 = {}, {}
        for n, d in self.arrays.items():
            mem1[n] = MapVal(rng.getrandbits(64), d.type.range)
            own = self.space[n] == "group_shared" and not same_group
            mem2[n] = MapVal(rng.getrandbits(64), d.type.range) if own else mem1[n]
        consts1 = {**self._sizes(), **self._ids(*th1), **mem1}
        params = self._params(seed, consts1)
        ref, post = self._run_reference(seed, params, th1, th2, mem1, mem2, same_group)
        self._drop_unassigned_constants(ref, seed, params)
        sub, problems = self._run_subject(seed, params, th1, th2, mem1, mem2, post)
        why = list(problems)
        for t in (1, 2):
            why += self._compare(t, ref[t], sub[t] if sub else None)
        return Outcome("disagree" if why else "agree", desc, why)

    def _drop_unassigned_constants(self, ref: dict, seed: int, params: dict) -> None:
        """A run-time constant or once-assigned local a reference thread never assigned (still
        its initial value) is not compared: the two-thread program assigns it unpredicated,
        for the other thread or while neither is enabled, and the thread never reads it (its
        assignment dominates its reads)."""
        init = self._local_init(seed, False, params)
        for t in (1, 2):
            for n, ty in self.constant_vars.items():
                if n in ref[t].variables and ref[t].variables[n] == init(n, ty):
                    del ref[t].variables[n]

    def _params(self, seed: int, consts: dict) -> dict:
        """Scalar arguments satisfying ``requires``; on three seeds out of four, large
        values are reduced modulo 257 (when ``requires`` still holds) so that loops
        bounded by an argument finish within the step bound."""
        try:
            _, params = Interpreter(self.reference, consts, seed=seed).choose_inputs()
        except InterpError as e:
            raise SkipSample(f"inputs: {e}") from None
        if seed % 4 != 3:
            small = {n: v % 257 if isinstance(v, int) and not isinstance(v, bool) else v
                     for n, v in params.items()}
            try:
                Interpreter(self.reference, consts, small, seed=seed).choose_inputs()
                return small
            except InterpError:
                pass
        return params

    # ------------------------------------------------------------------ reference

    def _run_reference(self, seed, params, th1, th2, mem1, mem2, same_group):
        """Both one-thread runs, meeting at barriers; returns ({t: _ThreadResult},
        {t: {array: [(memory after barrier k, shared with the other thread?)]}})."""
        meet = _Rendezvous()
        post = {1: {n: [] for n in self.tracked}, 2: {n: [] for n in self.tracked}}
        base = {t: dict(m) for t, m in ((1, mem1), (2, mem2))}
        runs: dict = {}
        errors: dict = {}
        exchanges = {1: 0, 2: 0}

        def policy(t):
            def havoc(name, typ, old, _rng, view):
                if name not in post[t]:
                    raise AssertionError(f"unexpected havoc of {name} in the reference")
                ev = view.events[-1]
                lf, gf = (int(a) for a in ev.args)
                if same_group:
                    other = meet.exchange(t, (ev.sourceloc, name, old))
                    exchanges[t] += 1
                    if other[:2] != (ev.sourceloc, name):
                        raise _Diverged(f"thread {t} at barrier {ev.sourceloc}, the other at {other[0]}")
                covered = lf if self.space[name] == "group_shared" else gf
                shared = bool(same_group and covered)
                if shared:
                    mine, theirs = (old, other[2]) if t == 1 else (other[2], old)
                    new = _merge(base[t][name], mine, theirs)
                    base[t][name] = new
                else:
                    new = old
                post[t][name].append((new, shared))
                return new
            return havoc

        def work(t, th, mem):
            try:
                it = Interpreter(self.reference, {**self._sizes(), **self._ids(*th), **mem}, params, seed,
                                 havoc_policy=policy(t), havoc_view=True, max_steps=MAX_STEPS,
                                 local_init=self._local_init(seed, False, params))
                runs[t] = it.run()
            except BaseException as e:  # reported below; the partner must not wait forever
                errors[t] = e
            finally:
                meet.finish(t)

        if same_group:
            workers = [threading.Thread(target=work, args=(t, th, m), daemon=True)
                       for t, th, m in ((1, th1, mem1), (2, th2, mem2))]
            for w in workers:
                w.start()
            for w in workers:
                w.join()
        else:
            work(1, th1, mem1)
            work(2, th2, mem2)
        for t in (1, 2):
            e = errors.get(t)
            if isinstance(e, _Diverged):
                raise SkipSample(f"reference: barrier divergence in the group ({e})")
            if isinstance(e, InterpError):
                raise SkipSample(f"reference thread {t}: {e}")
            if e is not None:
                raise e
            if not runs[t].feasible:
                raise SkipSample(f"reference thread {t}: no feasible path")
        out = {}
        for t in (1, 2):
            r = runs[t]
            barriers = sum(1 for e in r.events if e.kind == "barrier")
            if self.tracked and len(post[t][self.tracked[0]]) != barriers:
                raise SkipSample(f"reference thread {t} backtracked over a barrier")
            if same_group and exchanges[t] != barriers * len(self.tracked):
                raise SkipSample(f"reference thread {t} backtracked over a barrier")
            acc = []
            for e in r.events:
                if e.kind == "barrier":
                    acc.append(("barrier",))
                elif e.kind in ("read", "write") and e.map in self.tracked:
                    acc.append((e.kind, e.map, e.index, e.value))
            out[t] = _ThreadResult(
                acc, {n: v for n, v in r.final_locals.items()},
                {n: r.final_globals[n] for n in self.tracked},
                [f.sourceloc for f in r.assert_failures if il.has_attr(f.attrs, "user_assert")])
        return out, post

    # ------------------------------------------------------------------ subject

    def _run_subject(self, seed, params, th1, th2, mem1, mem2, post):
        consts = {**self._sizes(), **self._ids(*th1, suffix="$1"), **self._ids(*th2, suffix="$2")}
        for n in self.arrays:
            consts[f"{n}$1"], consts[f"{n}$2"] = mem1[n], mem2[n]
        passed = {1: {n: 0 for n in self.tracked}, 2: {n: 0 for n in self.tracked}}
        markers: list = []  # (event position, thread)
        problems: list = []

        def havoc(name, typ, old, _rng, view):
            m = re.fullmatch(r"_HAVOC_(.*)\$([12])", name)
            if m is None or m.group(1) not in self.arrays:
                return None
            arr, t = m.group(1), int(m.group(2))
            if arr not in passed[t]:  # {:constant}: memory no thread can change
                return view.globals[f"{arr}${t}"]
            label = view.block[:-len("$hdr")] if view.block.endswith("$hdr") else view.block
            if label not in self.block_id:
                raise AssertionError(f"barrier havoc in block {view.block}: not a block of the kernel "
                                     "(lockstep naming changed?)")
            if view.locals[f"cur${t}"] != self.block_id[label]:
                return old  # thread t disabled: its copy keeps its value
            k = passed[t][arr]
            passed[t][arr] += 1
            if arr == self.tracked[0]:
                markers.append((len(view.events), t))
            if k >= len(post[t][arr]):
                problems.append(f"thread {t}: passes barrier #{k + 1} in block {label}; the reference "
                                f"passed {len(post[t][arr])}")
                return old
            mem, shared = post[t][arr][k]
            if t == 2 and shared:
                # Both copies must become thread 1's havoc (arbitrary but equal): poison
                # thread 2's own so that using it shows.
                return MapVal(mem.seed ^ 0xBAD5EED, mem.range)
            return mem

        try:
            run = Interpreter(self.two, consts, params, seed, havoc_policy=havoc, havoc_view=True,
                              max_steps=8 * MAX_STEPS, local_init=self._local_init(seed, True, params)).run()
        except InterpError as e:
            return None, [f"two-thread program cannot run: {e}"]
        if not run.feasible:
            return None, ["two-thread program: no feasible path"]
        for t in (1, 2):
            for arr in self.tracked:
                if passed[t][arr] != len(post[t][arr]):
                    problems.append(f"thread {t}: passes {passed[t][arr]} barriers, the reference "
                                    f"{len(post[t][arr])}")
                    break
        if self.subject.expect_verified:
            for f in run.assert_failures:
                names = {a.name for a in f.attrs}
                if names & set(IGNORED_CHECKS) or "user_assert" in names:
                    continue
                if "race" in names and not self.subject.check_races:
                    continue
                problems.append(f"check fails in a concrete run of a kernel expected to verify: "
                                f"{f} at {f.sourceloc}")
        return {t: self._project(run, t, markers) for t in (1, 2)}, problems

    def _project(self, run, t: int, markers: list) -> _ThreadResult:
        """Thread t's part of a two-thread run, in one-thread names."""
        suffix = f"${t}"
        mine = {f"{a}{suffix}": a for a in self.tracked}
        at = {}
        for pos, th in markers:
            if th == t:
                at[pos] = at.get(pos, 0) + 1
        acc: list = []
        last_read = None  # (event, position in acc) of the last kept read
        for i, e in enumerate(run.events + [None]):
            acc += [("barrier",)] * at.get(i, 0)
            if e is None or e.kind not in ("read", "write") or e.map not in mine:
                continue
            a = (e.kind, mine[e.map], e.index, e.value)
            if e.kind == "write" and last_read is not None:
                r, j = last_read
                if (r.block, r.pc, r.map, r.index, r.value) == (e.block, e.pc, e.map, e.index, e.value) \
                        and j == len(acc) - 1:
                    acc.pop()  # a disabled thread's write: old value read back and stored
                    last_read = None
                    continue
            last_read = (e, len(acc)) if e.kind == "read" else None
            acc.append(a)
        names = {v.name for v in self.two.kernel().locals} | {n for n, _ in self.two.kernel().params}
        variables = {}
        for n in self.one_locals:
            for cand in (f"{n}{suffix}", n):
                if cand in names:
                    variables[n] = run.final_locals[cand]
                    break
        memory = {a: run.final_globals[f"{a}{suffix}"] for a in self.tracked}
        fails = [f.sourceloc for f in run.assert_failures if il.has_attr(f.attrs, "user_assert")
                 and any(a.name == "thread" and a.args[0] == il.IntLit(t) for a in f.attrs)]
        return _ThreadResult(acc, variables, memory, fails)

    # ------------------------------------------------------------------ compare

    @staticmethod
    def _compare(t: int, ref: _ThreadResult, sub: _ThreadResult | None) -> list:
        if sub is None:
            return []
        why = []
        if ref.accesses != sub.accesses:
            n = next((i for i, (a, b) in enumerate(zip(ref.accesses, sub.accesses)) if a != b),
                     min(len(ref.accesses), len(sub.accesses)))
            show = lambda xs: ", ".join(_fmt_access(x) for x in xs[max(0, n - 2):n + 2]) or "(end)"
            why.append(f"thread {t}: accesses differ at #{n} (one-thread {len(ref.accesses)}, two-thread "
                       f"{len(sub.accesses)}): one-thread [{show(ref.accesses)}] vs two-thread "
                       f"[{show(sub.accesses)}]")
        for n, v in sorted(ref.variables.items()):
            if n not in sub.variables:
                why.append(f"thread {t}: variable {n} missing from the two-thread program")
            elif sub.variables[n] != v:
                why.append(f"thread {t}: final {n} = {_fmt(v)} (one-thread) vs {_fmt(sub.variables[n])} "
                           "(two-thread)")
        for a, m in ref.memory.items():
            if sub.memory[a] != m:
                cells = sorted((k for k in m.entries.keys() | sub.memory[a].entries.keys()
                                if m.get(k) != sub.memory[a].get(k)), key=int)[:4]
                why.append(f"thread {t}: final memory of {a} differs at {cells}")
        if ref.user_failures != sub.user_failures:
            why.append(f"thread {t}: failing user assertions {ref.user_failures} (one-thread) vs "
                       f"{sub.user_failures} (two-thread)")
        return why


class _Diverged(Exception):
    """The two reference threads met at different barriers, or one finished first."""


class _Rendezvous:
    """Two threads exchanging one item per barrier visit, in order."""

    def __init__(self):
        self.cond = threading.Condition()
        self.items = {1: [], 2: []}
        self.finished = {1: False, 2: False}

    def exchange(self, t: int, item):
        """Give ``item``, wait for the partner's item of the same visit and return it.
        Raises _Diverged if the partner finished without reaching it (or after a timeout)."""
        with self.cond:
            self.items[t].append(item)
            k = len(self.items[t]) - 1
            self.cond.notify_all()
            ok = self.cond.wait_for(lambda: len(self.items[3 - t]) > k or self.finished[3 - t],
                                    timeout=BARRIER_TIMEOUT)
            if not ok or len(self.items[3 - t]) <= k:
                raise _Diverged(f"thread {t} waits at a barrier the other thread never reaches")
            return self.items[3 - t][k]

    def finish(self, t: int) -> None:
        with self.cond:
            self.finished[t] = True
            self.cond.notify_all()


def run_subject(subject: Subject, seeds) -> list:
    """Outcomes of ``Differential(subject).check(seed)`` for each seed."""
    d = Differential(subject)
    return [d.check(s) for s in seeds]


def main(argv: list) -> int:
    import argparse
    ap = argparse.ArgumentParser(description="Differential test of vcgen lockstep on corpus kernels.")
    ap.add_argument("kernels", nargs="+")
    ap.add_argument("--seeds", type=int, default=4)
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args(argv)
    bad = 0
    for k in a.kernels:
        try:
            outs = run_subject(load_corpus_kernel(k), range(a.seeds))
        except Unsupported as e:
            print(f"{k}: unsupported: {e}")
            continue
        counts = {s: sum(o.status == s for o in outs) for s in ("agree", "disagree", "skipped")}
        print(f"{k}: " + ", ".join(f"{n} {s}" for s, n in counts.items()))
        for o in outs:
            if o.status != "agree" and (a.verbose or o.status == "disagree"):
                print(f"  {o}".replace("\n", "\n  "))
        bad += counts["disagree"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
