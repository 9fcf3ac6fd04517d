"""DYN: dynamic refutation of candidates by concrete runs (paper 003 section 5.1.3).

The two-thread program T is executed by ``vcgen.interp`` on concrete inputs: thread and
group ids, kernel arguments, constants and global variables drawn at random so that the
axioms (launch sizes, ``distinct_threads``) and the kernel's ``requires`` hold (the
interpreter's input chooser checks them); ``havoc`` takes random values.  Every alive
candidate (``_bK := true``) whose assertion fails on the run is refuted.

Soundness: a run is an execution of T.  Let F be the largest inductive subset of the
candidates under the loop-cut program S, where ordinary assertions are assumed.  Loop
cutting is sound, so on every execution of T along which all ordinary assertions held so
far, every candidate of F holds at every loop head.  Hence a candidate failing at a point
of a run before the first failure of an ordinary assertion is not in F.  Candidate
asserts do not change the state, so failures after an earlier *candidate* failure count
too; failures after an ordinary assertion failed (e.g. a race check of a buggy kernel)
are ignored.  If the interpreter's semantics ever diverged from the VC's, the price is
a weaker invariant (a possible false alarm), never a false "verified" (paper 003 §5.1.3).

Bounded work (paper 003 §5.1.3): the number of loop-head visits, summed over all loops,
is bounded by a budget (``max_iterations`` at first, ``GROWTH`` times larger after a
barren run it cut, up to ``MAX_BUDGET``); when exhausted the run stops (``return``), which
keeps every failure seen so far (a prefix of an execution).  At most ``runs`` executions, and
no more after ``PATIENCE`` runs in a row that refute nothing new, or after ``SECONDS``
unless every run keeps refuting (then ``MAX_SECONDS``; the paper stops at full block
coverage); both times shrink to ``PER_CANDIDATE`` seconds per candidate under 25
candidates.  One barren run is a poor signal on loop nests whose paths hinge on a few
scalar arguments: on PolyBench lu kernel1 runs 4-7 refute nothing, run 8 refutes 18
(40 runs: 305 candidates against 263 for the first 4, each of the extra ones an SMT
query spared).  Every second run puts the two threads in
one group (``Runner.same_group``), which independent draws of the ids almost never do on
a large grid.  The program is compiled once
(``Runner``): a run then costs 0.02 s there, building the interpreter 0.2 s.

Model-guided runs (``ModelGuide``): after a Houdini query is sat, the model's values of
the launch constants (ids) and kernel arguments are the inputs of one more run.  The
model is a state of the loop-cut program in which some candidate fails; the concrete
run from its inputs is an execution of T like any other (same soundness argument), and
it often reaches failures of candidates the solver's model did not falsify (the
model fails one or two of 50 checks; on lu kernel1 such runs refute 45 candidates and
halve Houdini's queries, 134 -> 68, same fixpoint).
"""
from __future__ import annotations

import time
from dataclasses import replace
from typing import Any, Iterator

from ...analysis import cfg
from ...analysis.loops import natural_loops
from ... import il
from ...vc import encode as vcmod
from ...vc.query import kernel_of
from ...interp.interpreter import Interpreter
from ...interp.values import InterpError
from ...vc.loopcut import fresh_label
from ...twothread.kernel import DIMS

GUARD_ATTR = "refutation_guard"  # tags each candidate assert with its guard's name
RUNS = 64  # random runs at most
PATIENCE = 6  # random runs in a row refuting nothing after which DYN stops
SECONDS = 1.0  # wall-clock seconds of random runs after the first, unless they keep refuting
MAX_SECONDS = 4.0  # wall-clock seconds of random runs after the first, in any case
PER_CANDIDATE = 0.04  # SECONDS and MAX_SECONDS shrink to this many per alive candidate
MAX_ITERATIONS = 256  # most candidates die in the first iterations (paper 003 §5.1.3)
# A random run cut by its loop-head visit budget that refutes nothing makes the next run's
# budget GROWTH times larger, up to MAX_BUDGET visits (``dyn``): on loop nests the first
# visits go to the innermost loop's first iterations, and what follows them is never run.
GROWTH = 8
MAX_BUDGET = 16384
MAX_STEPS = 200_000
# Model-guided runs may take this share of the wall time since Houdini started: they
# cost a run each (0.02-0.5 s) where Houdini's queries take milliseconds on small
# kernels, seconds on loop nests.
GUIDE_SHARE = 0.25
DECAY = 0.5  # weight of the earlier runs in a model guide's recent yield (``ModelGuide.expected``)


def _fresh_name(program: il.Program, proc: il.ProcedureDecl, base: str) -> str:
    taken = {d.name for d in program.decls if hasattr(d, "name")}
    taken |= {n for n, _ in proc.params} | {n for n, _ in proc.outs} | {v.name for v in proc.locals}
    name, i = base, 0
    while name in taken:
        i += 1
        name = f"{base}${i}"
    return name


def budget_name(program: il.Program) -> str:
    """The ``int`` constant of ``instrument(program)`` that bounds a run's loop-head visits."""
    return _fresh_name(program, kernel_of(program), "$refutation$budget")


def counter_name(program: il.Program) -> str:
    """The ``int`` local of ``instrument(program)`` counting a run's loop-head visits."""
    return _fresh_name(program, kernel_of(program), "$refutation$visits")


def instrument(program: il.Program, max_iterations: int | None = MAX_ITERATIONS) -> il.Program:
    """The program DYN runs: candidate asserts tagged ``{:refutation_guard "_bK"}`` and a
    loop-head visit counter (an ``int`` local, ``counter_name``) that ends the run
    (``return``) after ``max_iterations`` visits in total, after the stores of
    ``bind_initial_maps``, with the preconditions of ``lift_start_assumes``.  With
    ``max_iterations=None`` the bound is the ``int`` constant ``budget_name(program)``,
    an input each run is given (``Runner``: one compiled program, any budget).
    Raises ToolError on a malformed kernel."""
    budget = budget_name(program)
    counter = counter_name(program)
    kernel = lift_start_assumes(program, bind_initial_maps(program, kernel_of(program)))
    guards = vcmod.existential_consts(program)
    cv = il.Var(counter)
    headers = {lp.header for lp in natural_loops(kernel)}
    taken = {b.label for b in kernel.body()}
    entry = fresh_label("$refutation$entry", taken)
    blocks = [il.Block(entry, (il.assign(counter, il.IntLit(0)),), il.Goto((kernel.body()[0].label,)))]
    for b in kernel.body():
        b = replace(b, cmds=tuple(_tag(c, guards) for c in b.cmds))
        if b.label not in headers:
            blocks.append(b)
            continue
        go, stop = fresh_label(f"{b.label}$go", taken), fresh_label(f"{b.label}$stop", taken)
        limit = il.IntLit(max_iterations) if max_iterations is not None else il.Var(budget)
        blocks += [
            il.Block(b.label, (il.assign(counter, il.BinOp("+", cv, il.IntLit(1))),), il.Goto((go, stop))),
            replace(b, label=go, cmds=(il.Assume(il.BinOp("<=", cv, limit)),) + b.cmds),
            il.Block(stop, (il.Assume(il.BinOp(">", cv, limit)),), il.Return()),
        ]
    new_kernel = replace(kernel, blocks=tuple(blocks),
                         locals=kernel.locals + (il.VarDecl(counter, il.IntType()),))
    old_kernel = kernel_of(program)  # once: each call scans every declaration
    decls = tuple(new_kernel if d is old_kernel else d for d in program.decls)
    if max_iterations is None:
        decls = (il.ConstDecl(budget, il.IntType()),) + decls
    return il.Program(decls)


def bind_initial_maps(program: il.Program, kernel: il.ProcedureDecl) -> il.ProcedureDecl:
    """``kernel`` starting with stores ``O[k] := e`` that give the initial value of a map
    ``O`` the cells that ``assume M[k] == e`` (or ``e == M[k]``) on the kernel's
    straight-line start demands, where ``M`` still holds ``O``'s initial value (``O``
    itself untouched so far, or ``M := O`` copied it), ``k`` is a literal and ``e``
    reads no map and no variable written before the assume.  ``O``: an uninitialised
    local map, or a global map no ``requires``/``axiom`` mentions.  The assumes stay.

    Why: a struct passed by value arrives as a local map tied to its scalar parameters
    by such assumes (``assume $$attrib[0bv32] == $attrib$0``), and a ``__constant__``
    array initialiser as assumes on a global map (CUDA dxtc ``prods4``).  A random run
    draws the maps' cells independently, so every run was infeasible and DYN refuted
    nothing (AMD MonteCarloAsianMultiGPU: 0 of 93 candidates; Houdini then dropped its
    80 r16 candidates one query each, 64 s).
    Sound (paper 003 section 5.1.3: a DYN run must be an execution of T): ``O``'s
    initial value is arbitrary (no precondition constrains it); the scanned blocks run
    once, in order (the first has no predecessor, each next one is the only successor
    of the last and has no other predecessor), so the stores only choose that initial
    value, one that satisfies the assumes; ``e`` has the same value at the start as at
    the assume.  Only the first assume of a cell stores (a later one is checked)."""
    blocks = list(kernel.body())
    constrained: set = set()
    for d in program.decls:
        if isinstance(d, il.AxiomDecl):
            constrained |= il.free_vars(d.expr)
    for spec in kernel.specs:
        constrained |= il.free_vars(spec.expr) if spec.kind == "requires" else set()
    gmaps = {d.name for d in program.decls if isinstance(d, il.VarDecl) and isinstance(d.type, il.MapType)}
    origin = {v.name: v.name for v in kernel.locals if isinstance(v.type, il.MapType)}
    origin.update({n: n for n in gmaps - constrained})
    if not origin or not blocks:
        return kernel
    written: set = set()
    stores: dict = {}  # (O, k) -> its store
    for c in _straight_start(kernel):
        cell = _bound_cell(c, origin, written | gmaps | set(origin))
        if cell is not None:
            stores.setdefault(cell[0], il.Assign((il.MapLhs(*cell[0]),), (cell[1],)))
        _track(c, origin, written)
    if not stores:
        return kernel
    blocks[0] = replace(blocks[0], cmds=tuple(stores.values()) + blocks[0].cmds)
    return replace(kernel, blocks=tuple(blocks))


def _straight_start(kernel: il.ProcedureDecl) -> Iterator[il.Cmd]:
    """The commands every execution runs first, once, in this order: those of the first
    block (if no goto leads back to it), then of its only successor if that has no other
    predecessor, and so on; up to the first call (a callee may write anything)."""
    blocks, succ, preds = cfg.block_map(kernel), cfg.successors(kernel), cfg.predecessors(kernel)
    label = kernel.body()[0].label if blocks else None
    if label is not None and preds[label]:
        return
    while label is not None:
        for c in blocks[label].cmds:
            if isinstance(c, il.Call):
                return
            yield c
        nxt = succ[label]
        label = nxt[0] if len(nxt) == 1 and preds.get(nxt[0]) == [label] else None


def lift_start_assumes(program: il.Program, kernel: il.ProcedureDecl) -> il.ProcedureDecl:
    """``kernel`` with a ``free requires`` for each ``assume e`` on its straight-line
    start (``_straight_start``) whose value there is a function of the inputs: ``e``
    with the assignments before it substituted (``x := v`` replaces ``x`` by ``v``, a
    store ``M[k] := v`` makes ``M[k]`` read ``v`` for literal ``k``), when what is left
    reads only constants, kernel parameters and global variables (their initial values).

    Why: ``__assume(s.field == 20)`` on a struct passed by value becomes, after
    ``bind_initial_maps``, ``x := $$s[k]; c := x == 20bv32; assume c`` -- an equality on
    a parameter that random draws (nearly) never meet, so every run was infeasible
    (rodinia heartwall: 0 of 6453 candidates refuted).  As a precondition the input
    chooser sets the parameter (``interp.inputs``: equalities ``x == e`` set ``x``).
    Sound (paper 003 section 5.1.3): the requires holds initially iff the assume holds
    when reached, and every execution reaches it (the start runs once, in order), so the
    runs are the executions of T whose assumes hold: executions of T."""
    inputs = {n for n, _ in kernel.params}
    inputs |= {d.name for d in program.decls if isinstance(d, (il.ConstDecl, il.VarDecl))}
    inputs -= set(vcmod.existential_consts(program)) | {v.name for v in kernel.locals}
    sigma: dict = {}
    lifted: dict = {}  # expression -> its requires
    for c in _straight_start(kernel):
        if isinstance(c, il.Assume):
            e = _resolve_selects(il.substitute(c.expr, sigma))
            trivial = isinstance(e, il.BinOp) and e.op == "==" and e.left == e.right
            if il.free_vars(e) and il.free_vars(e) <= inputs - set(sigma) and not trivial:
                lifted.setdefault(e, il.Spec("requires", e, free=True))
        elif isinstance(c, il.Assign):
            new = {}
            for lhs, v in zip(c.lhss, c.rhss):
                v = _resolve_selects(il.substitute(v, sigma))
                if isinstance(lhs, il.MapLhs):
                    v = il.MapStore(sigma.get(lhs.name, il.Var(lhs.name)), il.substitute(lhs.index, sigma), v)
                new[lhs.name] = v
            sigma.update(new)  # simultaneous assignment: right-hand sides read the old values
        elif isinstance(c, il.Havoc):
            sigma.update({v: il.Var(f"{v}$havoc") for v in c.vars})  # not an input
    if not lifted:
        return kernel
    return replace(kernel, specs=kernel.specs + tuple(lifted.values()))


def _resolve_selects(e: il.Expr) -> il.Expr:
    """``e`` with each ``M[k := v][k']`` (literals ``k``, ``k'``) read as ``v`` or
    ``M[k']``."""
    if isinstance(e, il.MapSelect):
        m, i = _resolve_selects(e.map), _resolve_selects(e.index)
        while isinstance(m, il.MapStore) and _literal(i) and _literal(m.index):
            if m.index == i:
                return m.value
            m = m.map
        return il.MapSelect(m, i)
    if isinstance(e, il.BinOp):
        return il.BinOp(e.op, _resolve_selects(e.left), _resolve_selects(e.right))
    if isinstance(e, il.UnOp):
        return il.UnOp(e.op, _resolve_selects(e.operand))
    if isinstance(e, il.FunApp):
        return il.FunApp(e.name, tuple(_resolve_selects(a) for a in e.args))
    return e


def _literal(e: il.Expr) -> bool:
    return isinstance(e, (il.BvLit, il.IntLit))


def _bound_cell(c: il.Cmd, origin: dict, unusable: set) -> tuple | None:
    """``((O, k), e)`` for ``assume M[k] == e`` or ``e == M[k]`` where ``M`` holds the
    initial value of ``O`` (``origin``), ``k`` is a literal and ``e`` reads nothing in
    ``unusable`` (``bind_initial_maps``); None for any other command."""
    if not (isinstance(c, il.Assume) and isinstance(c.expr, il.BinOp) and c.expr.op == "=="):
        return None
    for sel, e in ((c.expr.left, c.expr.right), (c.expr.right, c.expr.left)):
        if (isinstance(sel, il.MapSelect) and isinstance(sel.map, il.Var)
                and origin.get(sel.map.name) is not None
                and isinstance(sel.index, (il.BvLit, il.IntLit)) and not il.free_vars(e) & unusable):
            return (origin[sel.map.name], sel.index), e
    return None


def _track(c: il.Cmd, origin: dict, written: set) -> None:
    """Update ``origin`` (map -> the map whose initial value it holds, or None) and
    ``written`` (variables assigned so far) after the command ``c``."""
    if isinstance(c, il.Assign):
        for lhs, e in zip(c.lhss, c.rhss):
            written.add(lhs.name)
            if lhs.name in origin:
                copy = isinstance(lhs, il.VarLhs) and isinstance(e, il.Var) and e.name in origin
                origin[lhs.name] = origin[e.name] if copy else None
    elif isinstance(c, il.Havoc):
        written.update(c.vars)
        for v in c.vars:
            if v in origin:
                origin[v] = None


def _tag(c: il.Cmd, guards: dict) -> il.Cmd:
    if not (isinstance(c, il.Assert) and il.has_attr(c.attrs, "candidate")):
        return c
    cg = vcmod.candidate_guard(c.expr, guards)
    return c if cg is None else il.Assert(c.expr, c.attrs + (il.Attr(GUARD_ATTR, (cg[0],)),))


def trusted_refutations(failures: list) -> set[str]:
    """Guards of candidate failures before the first failure of an ordinary assertion
    (``failures``: ``interp.AssertFailure`` list in execution order)."""
    out = set()
    for f in failures:
        g = f.attr_values.get(GUARD_ATTR)
        if not g:
            break
        out.add(g[0])
    return out


class Runner:
    """``program`` instrumented (``instrument``) and compiled once for many runs.

    ``guards``: the candidate guard names; ``inputs``: the names of the scalar constants
    (ids, launch sizes) and kernel parameters a caller may fix (``refute``'s ``given``);
    ``max_iterations``: the loop-head visit budget of a run unless ``refute`` is given
    another (the budget is an input of the compiled program, not a literal of it);
    ``truncated``: whether the last run ended on its budget (then a larger one runs on).
    Raises ToolError on a malformed kernel."""

    def __init__(self, program: il.Program, max_iterations: int = MAX_ITERATIONS):
        self.guards = set(vcmod.existential_consts(program))
        self.max_iterations = max_iterations
        self.budget = budget_name(program)
        self.counter = counter_name(program)
        self.interp = Interpreter(instrument(program, None), max_steps=MAX_STEPS)
        self.truncated = False
        env = self.interp.genv
        self.params = [n for n, _ in kernel_of(program).params]
        self.inputs = [n for n, d in program.consts().items()
                       if n not in self.guards and not isinstance(env.resolve(d.type), il.MapType)]
        self.inputs += self.params

    def same_group(self, seed: int) -> dict[str, Any]:
        """Inputs that put the two threads in one group: thread 1's group ids as drawn
        for ``seed``, given to both threads (``{}`` when the program has no group ids or
        its inputs cannot be drawn).  Independent draws almost never pick one group on a
        large grid (PolyBench gemm: 1 pair in 16384), yet the intra-group candidates (race
        logs, ``group ids equal ==> ...``) fail only there: on gemm, symm kernel3 and
        syrk kernel0 such runs refute 30-40 candidates that 6-8 independent runs left to
        Houdini's queries.  The chooser still checks every axiom (the threads stay
        distinct), so a run from these inputs is an execution like any other."""
        names = [(f"group_id_{d}$1", f"group_id_{d}$2") for d in DIMS]
        names = [(a, b) for a, b in names if a in self.inputs and b in self.inputs]
        if not names:
            return {}
        consts: dict[str, Any] = {g: False for g in self.guards}
        consts[self.budget] = self.max_iterations
        try:
            drawn = self.interp.with_inputs(consts, {}, seed).choose_inputs()
        except (InterpError, RecursionError, ArithmeticError, LookupError):
            return {}
        return {n: drawn.globals[a] for a, b in names for n in (a, b)}

    def refute(self, alive: set, seed: int, given: dict[str, Any] | None = None,
               budget: int | None = None) -> set[str]:
        """Guards in ``alive`` refuted by one run with random seed ``seed``; ``given``:
        values of some ``inputs`` (the others drawn); ``budget``: loop-head visits before
        the run stops (None: ``max_iterations``), a prefix of an execution either way.
        A run whose inputs cannot be chosen, which hits an interpreter limit or is
        infeasible refutes nothing (and is not ``truncated``)."""
        given = given or {}
        budget = self.max_iterations if budget is None else budget
        consts = {n: v for n, v in given.items() if n not in self.params}
        consts.update({g: g in alive for g in self.guards})
        consts[self.budget] = budget
        params = {n: v for n, v in given.items() if n in self.params}
        self.truncated = False
        try:
            run = self.interp.with_inputs(consts, params, seed).run()
        except (InterpError, RecursionError, ArithmeticError, LookupError):
            return set()  # no concrete execution: nothing learnt, nothing refuted
        if not run.feasible:
            return set()
        self.truncated = run.final_locals.get(self.counter, 0) > budget
        return trusted_refutations(run.assert_failures) & alive


def dyn(program: il.Program, alive: set, ctl, runs: int = RUNS,
        max_iterations: int = MAX_ITERATIONS, patience: int = PATIENCE,
        seconds: float = SECONDS, max_seconds: float = MAX_SECONDS,
        max_budget: int = MAX_BUDGET, per_candidate: float = PER_CANDIDATE) -> Iterator[set]:
    """DYN engine: up to ``runs`` concrete executions (seeds ``ctl.seed`` ...), stopping
    after ``patience`` runs in a row that refute nothing, after ``seconds`` of runs at
    the first barren run, and after ``max_seconds`` (the first run always happens);
    yields the guards refuted by each run.  Every second run puts the two threads in
    one group (``Runner.same_group``), the others draw all ids independently (mostly
    threads of two groups).

    Past ``seconds`` only runs that keep refuting continue: each refutation spares
    Houdini about a query, which costs more than a run on the kernels whose runs keep
    paying (rodinia lud_perimeter: runs 0.2 s, queries 0.5-1 s dropping one or two
    candidates each; the 4-5 runs of the first second refuted 163-173 of 651
    candidates, 24 runs about 250, 1-3 each after the sixth).

    When DYN would stop and some run ended on its loop-head visit budget
    (``max_iterations`` at first), the budget grows ``GROWTH`` times, up to
    ``max_budget``, if a run that much longer takes at most ``max_seconds`` (``_deeper``),
    and DYN goes on as past ``seconds``: while each run refutes something, for up to
    ``max_seconds - seconds`` more (runs that end before the budget, e.g. the groups a
    triangular loop nest skips, never grow it).  On a loop nest the first visits all go to the first outer
    iterations' inner loops: PolyBench covariance kernel3 (inner loops of 32 and 2
    iterations in a loop of 16) spends 256 visits in its first three outer iterations,
    and the candidates of the loops after it and of the outer back edges are never
    checked.  100 runs refuted 270 of its 610 candidates with 256 visits each, 317 with
    4096: 47 candidates Houdini dropped one sat query each (0.5-8 s), and none of them
    a candidate Houdini keeps (a prefix of an execution, however long, is an
    execution).  Loops that end within the budget (lu kernel1) never grow it.

    With few candidates both times shrink (``_time_share``): a run can spare Houdini at
    most a query per candidate it refutes, and Houdini asks about a few candidates in one
    query.  shoc maxflops Add16 (5 candidates, none refuted by DYN): 7 barren runs of up
    to 0.23 s each (1.0 s, then a deeper run) for a Houdini of two 0.2 s queries."""
    runner = Runner(program, max_iterations)
    ctl.runner = runner  # for the model guide (``ModelGuide``: if its budget is the same)
    alive = set(alive) & runner.guards
    share = _time_share(len(alive), seconds, per_candidate)
    seconds, max_seconds = seconds * share, max_seconds * share
    budget, barren, start = max_iterations, 0, time.monotonic()
    cut = 0.0  # seconds of the longest run that ended on the current budget
    for k in range(runs):
        alive -= ctl.pull()
        spent = time.monotonic() - start
        if not alive:
            return
        if barren >= patience or (k and (spent > max_seconds or spent > seconds and barren)):
            if not _deeper(cut, budget, max_budget, max_seconds):
                return
            # past ``seconds`` again: the deeper runs go on only while each refutes
            budget, barren, cut = min(budget * GROWTH, max_budget), 0, 0.0
            start = time.monotonic() - seconds
        seed = ctl.seed + k
        began = time.monotonic()
        dead = runner.refute(alive, seed, runner.same_group(seed) if k % 2 else None, budget)
        if runner.truncated:
            cut = max(cut, time.monotonic() - began)
        barren = 0 if dead else barren + 1
        if dead:
            alive -= dead
            yield dead


def _time_share(alive: int, seconds: float, per_candidate: float) -> float:
    """The share (0..1] of DYN's times that ``alive`` candidates get: ``per_candidate``
    seconds each out of ``seconds``, all of it from ``seconds / per_candidate`` (25) on."""
    return min(1.0, alive * per_candidate / seconds) if seconds > 0 else 1.0


def _deeper(cut: float, budget: int, max_budget: int, max_seconds: float) -> bool:
    """Whether DYN, about to stop, goes on with a larger visit budget: some run at this
    ``budget`` ended on it (the longest took ``cut`` seconds, 0 if none), the budget may
    still grow, and a run ``GROWTH`` times as long (a run's time grows with its visits)
    takes at most ``max_seconds``.  At the stop, not at the first barren cut run: on
    covariance kernel3 the cut runs kept refuting one candidate each and DYN stopped at
    a barren run of a group its triangular nest skips (no deeper run, 261 refuted)."""
    return cut > 0 and budget < max_budget and GROWTH * cut <= max_seconds


class ModelGuide:
    """Model-guided DYN runs for Houdini (see the module docstring): ``inputs()`` are the
    names whose model values ``refute`` takes; ``wanted()`` while its runs took at most
    ``share`` of the wall time since the guide was made.  The program is compiled on
    first use, unless a sequential DYN left its compiled program (``Control.runner``):
    most Houdini runs never see a sat answer."""

    def __init__(self, program: il.Program, share: float = GUIDE_SHARE,
                 max_iterations: int = MAX_ITERATIONS, runner: Runner | None = None):
        self.program, self.max_iterations = program, max_iterations
        # DYN's compiled ``program`` when it ran first (``Control.runner``)
        self._runner = runner if runner is not None and runner.max_iterations == max_iterations else None
        self.share = share
        self.started = time.monotonic()
        self.seconds = 0.0  # spent compiling and running
        self.run_seconds = 0.0  # spent running
        self.runs = 0
        self.refuted = 0
        self.recent = 1.0  # decayed refutations per run (``expected``)
        self.skipped = 0  # sat answers without a run since the last run

    def _compiled(self) -> Runner:
        if self._runner is None:
            t = time.monotonic()
            try:
                self._runner = Runner(self.program, self.max_iterations)
            finally:
                self.seconds += time.monotonic() - t
        return self._runner

    def wanted(self, query_seconds: float) -> bool:
        """Whether a run now is worth it after a sat answer that took ``query_seconds``:
        within the time share, and a run's expected refutations (``expected``) would cost
        the solver more than a run takes (each query dropping about one candidate).
        Covariance kernel1: runs 0.26 s, queries 0.5 s, 10 refutations in 26 runs: a
        loss; lu kernel1: runs 0.03 s, queries 1-3 s, 24 in 33.  A declined run counts
        as a skip (``skipped``)."""
        if self.seconds > self.share * (time.monotonic() - self.started):
            want = False
        elif not self.runs:
            want = True
        else:
            want = self.run_seconds / self.runs <= query_seconds * self.expected()
        self.skipped = 0 if want else self.skipped + 1
        return want

    def expected(self) -> float:
        """Refutations expected of the next run: the recent yield (each run's count
        weighted ``DECAY`` times its successor's, after a prior of one), times one plus
        the sat answers skipped since the last run once some run has refuted anything.
        Recent, not the average since the start: the first runs take the candidates
        that fail on most inputs and later ones come back empty (PolyBench gemm, syr2k:
        28 refuted by the first run, none by the next 37, which cost a quarter of
        Houdini's time under the average's estimate).  The skips grow it again, so a
        barren streak is probed at widening intervals: a later model may reach new
        paths (symm kernel3: 15 at the 12th).  Runs that never refuted anything give no
        such hope (AMD MersenneTwister: 0.9 s runs, none refuting, probes tripled their
        cost)."""
        return self.recent * (1 + self.skipped if self.refuted else 1)

    def inputs(self) -> list[str]:
        """Names of the scalar constants and kernel parameters a run takes from a model."""
        return list(self._compiled().inputs)

    def refute(self, alive: set, values: dict[str, Any]) -> set[str]:
        """Guards in ``alive`` refuted by a run from the model ``values`` (name -> Python
        value; values that are not numbers or Booleans are drawn at random)."""
        given = {n: v for n, v in values.items() if isinstance(v, (bool, int))}
        runner = self._compiled()
        t = time.monotonic()
        try:
            dead = runner.refute(alive, self.runs, given)
        finally:
            self.runs += 1
            self.seconds += time.monotonic() - t
            self.run_seconds += time.monotonic() - t
        self.refuted += len(dead)
        self.recent = DECAY * self.recent + (1 - DECAY) * len(dead)
        return dead
