"""SMT refutation engines SBASE, SSTEP and LU(k) (paper 003 sections 5.1.1 and 5.1.2).

Each engine is a generator ``engine(program, alive, ctl) -> Iterator[set[str]]`` that
yields batches of refuted candidate guards (``_bK`` names) as it finds them.

Soundness (paper 003 section 5.1): Houdini works on the loop-cut program S.  SBASE is S
with only the base-case (``{:loop_check "entry"}``) candidate checks, SSTEP S with only the
step-case (``"maintained"``) ones; both have fewer failing paths than S.  LU(k) is the
original program T with every loop unrolled k times, checking the candidates at the loop
head of iterations 0..k; its paths are paths of T, and T is under-approximated by S
(loop cutting is sound).  In all three, every candidate whose guard is in the engine's
current ``alive`` set is *assumed* after its check (assert-then-assume), ordinary
assertions are assumed, never checked, exactly as in Houdini's queries.

Why a refutation is trusted: let F be the largest inductive subset (Houdini's result).
If a model of the engine's VC with all of ``alive`` assumed fails candidate ``c`` and
``alive`` contains F, then dropping the assumptions of ``alive - F`` keeps the path, so
``c`` fails on a path of S under F: ``c`` is not in F.  ``alive`` starts as Houdini's
current set and only loses refuted candidates, so it always contains F.  Assuming
*fewer* candidates (e.g. "only itself") would admit unreachable states and could refute
true invariants, so no engine ever does that.  A solver ``unknown``/timeout refutes
nothing (unlike Houdini, where it drops; an engine only ever removes with a model).
"""
from __future__ import annotations

from typing import Callable, Iterator

from ...analysis.loops import natural_loops
from ... import il
from ...vc import loopcut, passify, encode as vcmod
from ...vc.query import kernel_of, program_vc
from ...vc.solvers.inprocess import Z3Backend


def _loop_check(c: vcmod.Check) -> str | None:
    a = c.attr(loopcut.LOOP_CHECK)
    return str(a.args[0]) if a is not None and a.args else None


def refute_in_vc(vc: vcmod.VC, select: Callable[[vcmod.Check], bool], alive: set, ctl) -> Iterator[set]:
    """Refute candidates of ``vc`` whose checks satisfy ``select``, Houdini-style: query
    with the selected checks of alive candidates enabled and every alive candidate
    assumed; every alive candidate check failing in the model is refuted; repeat until
    unsat, unknown or nothing is left.  ``ctl.pull()`` returns guards refuted elsewhere
    (removed before each query); ``ctl.timeout`` is seconds per query (None = none).
    Yields sets of guard names."""
    checks = [c for c in vc.checks if c.is_candidate]
    selected: dict = {}
    for c in checks:
        if select(c):
            selected.setdefault(c.guard, []).append(c.index)
    alive = set(alive) & {c.guard for c in checks}
    backend = Z3Backend(vc, ctl.timeout)
    while True:
        alive -= ctl.pull()
        enabled = {i for g in alive & selected.keys() for i in selected[g]}
        if not enabled:
            return
        if backend.check(vc.assumptions(enabled, alive)).status != "sat":
            return
        on = [c for c in checks if c.guard in alive]
        # any alive candidate failing in a model of the VC fails on a real path of the
        # engine's program, enabled or not (its fail_k is the path condition && !e)
        dead = {c.guard for c, v in zip(on, backend.values([c.fail for c in on])) if v is True}
        if not dead:
            return  # never refute without a failing check
        alive -= dead
        yield dead


def sbase(program: il.Program, alive: set, ctl) -> Iterator[set]:
    """SBASE (paper 003 section 5.1.1): the loop-cut program with only base cases checked."""
    vc = program_vc(program)
    yield from refute_in_vc(vc, lambda c: _loop_check(c) != "maintained", alive, ctl)


def sstep(program: il.Program, alive: set, ctl) -> Iterator[set]:
    """SSTEP (paper 003 section 5.1.1): the loop-cut program with only step cases checked
    (all alive candidates assumed at the loop heads, as in the paper's Fig. 10)."""
    vc = program_vc(program)
    yield from refute_in_vc(vc, lambda c: _loop_check(c) == "maintained", alive, ctl)


def lu(program: il.Program, alive: set, ctl, depth: int = 1) -> Iterator[set]:
    """LU(depth) (paper 003 section 5.1.2): every candidate checked at the loop head
    after 0..depth iterations of the unrolled (not abstracted) program."""
    kernel = kernel_of(program)
    unrolled = unroll_keeping_candidates(kernel, depth)
    vc = vcmod.build_vc(program, passify.passify(program, unrolled))
    yield from refute_in_vc(vc, lambda c: True, alive, ctl)


def lu1(program: il.Program, alive: set, ctl) -> Iterator[set]:
    """LU(1): loops unrolled once (the configuration evaluated in paper 003 section 5.2)."""
    yield from lu(program, alive, ctl, 1)


# ------------------------------------------------------------------ unrolling


def unroll_keeping_candidates(proc: il.ProcedureDecl, depth: int) -> il.ProcedureDecl:
    """Acyclic under-approximation of ``proc`` for LU(depth), innermost loops first.

    Each loop becomes ``depth`` copies of its body followed by one copy of its header
    only (so the header's candidates are checked after ``depth`` iterations and paths may
    leave the loop there); edges into the body from that last header, and back edges,
    go to ``assume false``.  Unlike ``loopcut.unwind_loops`` the ``{:candidate}`` asserts
    are kept (they are what LU checks).  Raises ToolError on irreducible control flow.
    """
    if depth < 0:
        raise ValueError("unrolling depth must be >= 0")
    while True:
        loops = natural_loops(proc)
        if not loops:
            return proc
        innermost = next(lp for lp in reversed(loops) if not lp.children)
        proc = loopcut.unroll_loop(proc, innermost, depth, "lu", f"{innermost.header}$lu$cut",
                                   last_body=False)
