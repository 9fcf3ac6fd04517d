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
is bounded by ``max_iterations``; when exhausted the run stops (``return``), which keeps
every failure seen so far (a prefix of an execution).  At most ``runs`` executions, and
no more after one that refutes nothing new (the paper stops at full block coverage; a
run refuting nothing suggests the random inputs exercise the same paths).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Iterator

from ...analysis.loops import natural_loops
from ... import il
from ...vc import encode as vcmod
from ...vc.query import kernel_of
from ...interp.interpreter import Interpreter
from ...interp.values import InterpError
from ...vc.loopcut import fresh_label

GUARD_ATTR = "refutation_guard"  # tags each candidate assert with its guard's name
RUNS = 5
MAX_ITERATIONS = 256  # most candidates die in the first iterations (paper 003 §5.1.3)
MAX_STEPS = 200_000


def _fresh_name(program: il.Program, proc: il.ProcedureDecl, base: str) -> str:
    taken = {d.name for d in program.decls if hasattr(d, "name")}
    taken |= {n for n, _ in proc.params} | {n for n, _ in proc.outs} | {v.name for v in proc.locals}
    name, i = base, 0
    while name in taken:
        i += 1
        name = f"{base}${i}"
    return name


def instrument(program: il.Program, max_iterations: int = MAX_ITERATIONS) -> il.Program:
    """The program DYN runs: candidate asserts tagged ``{:refutation_guard "_bK"}`` and a
    loop-head visit counter (an ``int`` local) that ends the run (``return``) after
    ``max_iterations`` visits in total.  Raises ToolError on a malformed kernel."""
    kernel = kernel_of(program)
    guards = vcmod.existential_consts(program)
    counter = _fresh_name(program, kernel, "$refutation$visits")
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
        limit = il.IntLit(max_iterations)
        blocks += [
            il.Block(b.label, (il.assign(counter, il.BinOp("+", cv, il.IntLit(1))),), il.Goto((go, stop))),
            replace(b, label=go, cmds=(il.Assume(il.BinOp("<=", cv, limit)),) + b.cmds),
            il.Block(stop, (il.Assume(il.BinOp(">", cv, limit)),), il.Return()),
        ]
    new_kernel = replace(kernel, blocks=tuple(blocks),
                         locals=kernel.locals + (il.VarDecl(counter, il.IntType()),))
    return il.Program(tuple(new_kernel if d is kernel else d for d in program.decls))


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


def dyn(program: il.Program, alive: set, ctl, runs: int = RUNS,
        max_iterations: int = MAX_ITERATIONS) -> Iterator[set]:
    """DYN engine: up to ``runs`` concrete executions (seeds ``ctl.seed`` ...); yields
    the guards refuted by each run.  A run whose inputs cannot be chosen or which hits an
    interpreter limit refutes nothing."""
    guards = set(vcmod.existential_consts(program))
    alive = set(alive) & guards
    prog = instrument(program, max_iterations)
    for k in range(runs):
        alive -= ctl.pull()
        if not alive:
            return
        consts = {g: g in alive for g in guards}
        try:
            run = Interpreter(prog, consts=consts, seed=ctl.seed + k, max_steps=MAX_STEPS).run()
        except (InterpError, RecursionError, ArithmeticError, LookupError):
            continue  # no concrete execution: nothing learnt, nothing refuted
        if not run.feasible:
            continue
        dead = trusted_refutations(run.assert_failures) & alive
        if not dead:
            return
        alive -= dead
        yield dead
