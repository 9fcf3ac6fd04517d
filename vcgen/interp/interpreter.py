"""A concrete interpreter of IL programs (``vcgen run``; DYN refutation, paper 003 §5).

One run executes the entry procedure (the ``{:kernel}`` one) of a one-thread ``.gbpl``
(one thread) or of a two-thread ``.bpl`` (a pair of threads: the program itself is the
product) on concrete values, and records a trace.

Values: ``bool``; ``int`` for both ``int`` and ``bvW`` (unsigned, ``0 <= v < 2**W``);
``MapVal`` for maps (explicit entries over a deterministic pseudo-random default).

Semantics:
  * ``{:bvbuiltin "op"}`` functions follow SMT-LIB (``bvudiv x 0 = all ones``,
    ``bvurem x 0 = x``, ``bvsdiv``/``bvsrem``/``bvsmod`` defined via the unsigned ones,
    shifts by >= width give 0 / the sign fill);  functions with a body are evaluated;
    other functions (e.g. ``FADD32``) are a pseudo-random function of their arguments,
    fixed per run seed.  ``div``/``mod`` on ints are Euclidean (SMT-LIB); by zero they
    are uninterpreted (pseudo-random).
  * Constants, kernel parameters and global variables are inputs: the caller's values,
    else random values satisfying every ``axiom`` and the entry procedure's ``requires``
    (equalities ``x == e`` set ``x``; bounds such as ``BV32_ULT(x, e)`` restrict the
    random choice; up to ``max_tries`` draws, then ``InterpError``).
  * ``havoc`` and uninitialised locals/outs take random values (``havoc_policy`` may
    choose: ``policy(name, type, old_value, rng) -> value | None``, None = random; with
    ``havoc_view=True`` it is called with a fifth argument, a ``HavocView`` of the
    current state; ``local_init(name, type) -> value | None`` may give the entry
    procedure's uninitialised locals/outs their values).
  * ``goto A, B``: depth-first search with backtracking: a path whose ``assume`` fails is
    abandoned and the next target tried; ``InterpError`` after ``max_steps`` commands.
  * ``assert`` failing is recorded (``AssertFailure``) and execution continues (or stops
    with ``stop_on_failure``).  Non-free ``requires`` of callees and ``ensures`` of
    procedures with bodies are checked like asserts.
  * ``call`` of a procedure with a body executes it; a body-less procedure with
    ``{:barrier}`` is a ``barrier`` event; other body-less procedures havoc their outs and
    ``modifies`` and assume their ``ensures`` (retrying the havoc).
  * Events: every read/write of a global map variable (except ``{:constant}`` arrays) in
    an assignment or call argument, with the latest ``{:sourceloc}`` of the block and
    the position (``block``, ``pc``) of the command that made it;
    barriers; failed assertions.

Public API: ``Interpreter(program, consts=None, params=None, seed=0, havoc_policy=None,
stop_on_failure=False, max_steps=10**6, max_tries=1000, entry=None, havoc_view=False,
local_init=None).run() -> Run``;
``run_command`` (click) for ``vcgen run``.  Errors: ``InterpError`` (a ``ValueError``).
"""

from __future__ import annotations

import copy
import random
from typing import Any, NamedTuple

from .. import il
from ..il.typecheck import program_env, typecheck
from ..il.attributes import sourceloc
from ..il.printer import expr_str
from .compiler import ASSERT, ASSIGN, ASSUME, CALL, HAVOC, CompiledProc, Compiler, Frame, RunState
from .inputs import InputChooser
from .trace import AssertFailure, Event, HavocView, Run
from .values import Infeasible, InterpError, coerce, mix, owned, random_value

class Inputs(NamedTuple):
    """What a run starts from: ``globals`` (every constant and global variable) and the
    entry procedure's ``params``, by name."""
    globals: dict[str, Any]
    params: dict[str, Any]


def entry_name(program: il.Program, entry: str | None) -> str:
    """The procedure a run executes: ``entry``, else the ``{:kernel}`` one, else the only
    procedure with a body.  Raises InterpError."""
    procs = list(program.procedures())
    if entry is not None:
        if entry not in {p.name for p in procs}:
            raise InterpError(f"no procedure named {entry}")
        return entry
    kernels = [p for p in procs if il.has_attr(p.attrs, "kernel")]
    if len(kernels) == 1:
        return kernels[0].name
    bodies = [p for p in procs if p.blocks is not None]
    if not kernels and len(bodies) == 1:
        return bodies[0].name
    raise InterpError("cannot choose the procedure to run: expected exactly one "
                      "{:kernel} procedure")


def _set_inputs(interp: "Interpreter", consts: dict | None, params: dict | None, seed: int) -> None:
    """``interp``'s caller values and seed, and the random streams drawn from the seed."""
    interp.consts = dict(consts or {})
    interp.params = dict(params or {})
    interp.seed = seed
    interp.rng = random.Random(seed)
    interp.run_seed = mix(seed, 0xC0FFEE)


class Interpreter:
    """Runs one IL program on concrete values (see the module docstring).

    ``program``: an ``il.Program`` (type-checked here; ILTypeError if ill-typed);
    ``consts``: name -> value for constants *and* global variables (initial values);
    ``params``: name -> value for the entry procedure's parameters; ``seed``: the run's
    random seed; ``havoc_policy(name, type, old_value, rng) -> value | None`` (with
    ``havoc_view=True``: ``(name, type, old_value, rng, HavocView)``); ``local_init(name,
    type) -> value | None``: initial values of the entry's locals/outs; ``entry``: procedure to run (default: the ``{:kernel}`` one, else the only procedure
    with a body).  Values: bool, int (bv: unsigned; negative ints are taken modulo 2**W),
    dict for maps (cells; other cells pseudo-random).
    """
    # the caller's values and the seed's random streams (``_set_inputs``)
    consts: dict
    params: dict
    seed: int
    rng: random.Random
    run_seed: int

    def __init__(self, program: il.Program, consts: dict | None = None,
                 params: dict | None = None, seed: int = 0, havoc_policy=None,
                 stop_on_failure: bool = False, max_steps: int = 10**6,
                 max_tries: int = 1000, entry: str | None = None, havoc_view: bool = False,
                 local_init=None):
        typecheck(program)
        self.program = program
        self.genv = program_env(program)
        self.comp = Compiler(program, self.genv)
        self.procs = {p.name: CompiledProc(p, self.comp, self.genv) for p in program.procedures()}
        self.entry = self.procs[entry_name(program, entry)]
        _set_inputs(self, consts, params, seed)
        self.havoc_policy = havoc_policy
        self.havoc_view = havoc_view
        self.local_init = local_init
        self.stop_on_failure = stop_on_failure
        self.max_steps = max_steps
        self.max_tries = max_tries
        self.axioms = [(d, self.comp.expr(d.expr, self.genv, frozenset()))
                       for d in program.decls if isinstance(d, il.AxiomDecl)]

    def with_inputs(self, consts: dict | None = None, params: dict | None = None,
                    seed: int = 0) -> "Interpreter":
        """An interpreter of the same program with other caller values and seed, sharing
        the type-checked, compiled program: building an ``Interpreter`` costs ten times a
        run on a PolyBench kernel (0.2 s against 0.02 s), and DYN refutation runs one
        program many times (``vcgen.inference.refutation.dyn``)."""
        other = copy.copy(self)
        _set_inputs(other, consts, params, seed)
        return other

    # ------------------------------------------------------------------ inputs

    def choose_inputs(self) -> Inputs:
        """The inputs a run would draw: ``(globals, params)``, where ``globals`` maps every
        constant and global variable to a value and ``params`` the entry's parameters,
        satisfying the axioms and ``requires`` (caller values kept).  Raises InterpError."""
        st = RunState(self.run_seed)
        params = self._choose_inputs(st)
        return Inputs(dict(st.g), dict(params))

    def _choose_inputs(self, st: RunState) -> dict:
        """Set constants and globals in ``st.g``; return the entry parameters."""
        return InputChooser(self).choose(st)

    # --------------------------------------------------------------------- run

    def run(self) -> Run:
        """Execute the entry procedure once.  Raises InterpError (inputs unsatisfiable,
        step bound exceeded, unsupported construct)."""
        st = RunState(self.run_seed)
        params = self._choose_inputs(st)
        consts = {n: st.g[n] for n in self.program.consts()}
        globals_ = [d.name for d in self.program.globals()]
        initial = {n: owned(st.g[n]) for n in globals_}
        entry_locals = dict(params)
        for n, t in [*self.entry.decl.outs, *((v.name, v.type) for v in self.entry.decl.locals)]:
            entry_locals[n] = self._initial_local(n, self.genv.resolve(t))
        if self.entry.blocks is None:
            raise InterpError(f"procedure {self.entry.name} has no body to run")
        frame = Frame(self.entry, entry_locals,
                       {k: owned(v) for k, v in st.g.items()} if self.entry.uses_old else None,
                       None)
        out = Run(feasible=False, consts=consts, params=dict(params), initial_globals=initial)
        final_locals, steps, stopped = self._execute(st, frame)
        out.steps = steps
        if final_locals is None:
            return out
        out.feasible, out.stopped = True, stopped
        out.events, out.assert_failures = st.events, st.failures
        out.final_globals = {n: st.g[n] for n in globals_}
        out.final_locals = final_locals
        return out

    def _execute(self, st: RunState, frame: Frame):
        """Run to completion; returns (entry locals or None if infeasible, steps, stopped)."""
        stack = [frame]
        st.frame = frame
        steps = 0
        while True:
            steps += 1
            if steps > self.max_steps:
                raise InterpError(f"step bound of {self.max_steps} exceeded (non-terminating "
                                  "loop or too long a run)")
            fr = stack[-1]
            st.frame = fr
            label, cmds, transfer = fr.proc.body()[fr.bi]
            try:
                if fr.pc < len(cmds):
                    cmd = cmds[fr.pc]
                    fr.pc += 1
                    if cmd[0] == CALL:
                        self._call(st, stack, fr, cmd)
                    elif self._command(st, fr, cmd) and self.stop_on_failure:
                        return dict(stack[0].locals), steps, True
                    continue
                if isinstance(transfer, il.Return):
                    done = self._return(st, stack)
                    if done is not None:
                        return done, steps, False
                    if self.stop_on_failure and st.failures:
                        return dict(stack[0].locals), steps, True
                    continue
                targets = transfer.targets
                if len(targets) > 1:
                    targets = self._feasible_targets(st, fr, targets)
                if len(targets) > 1:  # a choice point only where an alternative is left
                    st.choices.append((len(st.journal), len(st.events), len(st.failures),
                                       [(f, f.bi, f.pc, f.srcloc) for f in stack],
                                       list(targets[1:])))
                self._jump(fr, targets[0])
            except Infeasible:
                if not self._backtrack(st, stack):
                    return None, steps, False

    @staticmethod
    def _feasible_targets(st: RunState, fr: Frame, targets: tuple) -> tuple:
        """Drop targets whose leading ``assume`` is already false (saves backtracking)."""
        guards = fr.proc.guards
        ok = tuple(t for t in targets if (g := guards[t]) is None or g(st, fr.locals))
        if not ok:
            raise Infeasible()
        return ok

    @staticmethod
    def _jump(fr: Frame, label: str) -> None:
        fr.bi, fr.pc, fr.srcloc = fr.proc.labels[label], 0, None

    def _backtrack(self, st: RunState, stack: list) -> bool:
        while st.choices:
            jmark, emark, fmark, frames, rest = st.choices[-1]
            target = rest.pop(0)
            if not rest:
                st.choices.pop()
            st.undo_to(jmark)
            del st.events[emark:]
            del st.failures[fmark:]
            stack[:] = [f for f, *_ in frames]
            for f, bi, pc, src in frames:
                f.bi, f.pc, f.srcloc = bi, pc, src
            self._jump(stack[-1], target)
            return True
        return False

    # ---------------------------------------------------------------- commands

    def _store(self, st: RunState, fr: Frame, name: str, is_local: bool, value) -> None:
        st.write(fr.locals if is_local else st.g, name, value)

    def _command(self, st: RunState, fr: Frame, cmd: tuple) -> bool:
        """Execute a non-call command; returns True if an assertion failed."""
        kind = cmd[0]
        loc = fr.locals
        if kind == ASSIGN:
            _, c, targets, rhss = cmd
            vals = [f(st, loc) for f in rhss]
            idxs = [t[2](st, loc) if t[2] is not None else None for t in targets]
            for (name, is_local, idxf, logged), i, v in zip(targets, idxs, vals):
                if idxf is None:
                    self._store(st, fr, name, is_local, owned(v))
                else:
                    m = (loc if is_local else st.g)[name]
                    st.write(m.entries, i, owned(v))
                    if logged:
                        st.events.append(Event("write", fr.proc.name, fr.label(), fr.srcloc,
                                               name, i, v, pc=fr.pc - 1))
            return False
        if kind == ASSUME:
            _, c, f, src = cmd
            if src is not None:
                fr.srcloc = src
            if not f(st, loc):
                raise Infeasible()
            return False
        if kind == ASSERT:
            _, c, f, attr_fns = cmd
            if f(st, loc):
                return False
            self._fail(st, fr, "assert", c.expr, c.attrs, attr_fns)
            return True
        if kind == HAVOC:
            for name, is_local in cmd[2]:
                old = (loc if is_local else st.g)[name]
                t = fr.proc.types[name] if is_local else self.genv.vars[name]
                self._store(st, fr, name, is_local, self._havoc_value(name, t, old, st, fr))
            return False
        raise InterpError(f"unknown command {cmd!r}")

    def _initial_local(self, name: str, t: il.Type):
        v = self.local_init(name, t) if self.local_init is not None else None
        return random_value(t, self.rng) if v is None else coerce(v, t, name)

    def _havoc_value(self, name: str, t: il.Type, old, st: RunState | None = None,
                     fr: Frame | None = None):
        if self.havoc_policy is not None:
            if self.havoc_view:
                assert st is not None and fr is not None  # callers pass the state with havoc_view
                view = HavocView(st.g, fr.locals, fr.proc.name, fr.label(), st.events)
                v = self.havoc_policy(name, t, old, self.rng, view)
            else:
                v = self.havoc_policy(name, t, old, self.rng)
            if v is not None:
                return coerce(v, t, name)
        return random_value(t, self.rng)

    def _fail(self, st: RunState, fr: Frame, kind: str, expr: il.Expr, attrs: il.Attrs,
              attr_fns: list | None) -> None:
        values = {}
        for name, fns in attr_fns or [(a.name, [x if isinstance(x, str) else None for x in a.args])
                                      for a in attrs]:
            vs = []
            for f in fns:
                if f is None or isinstance(f, str):
                    vs.append(f)
                else:
                    try:
                        vs.append(f(st, fr.locals))
                    except Exception:  # an attribute argument need not be evaluable here
                        vs.append(None)
            values[name] = vs
        src = sourceloc(attrs) or fr.srcloc
        failure = AssertFailure(kind, fr.proc.name, fr.label(), expr_str(expr), attrs, values, src)
        st.failures.append(failure)
        st.events.append(Event("assert", fr.proc.name, fr.label(), src, failure=failure))

    # ------------------------------------------------------------------- calls

    def _check_specs(self, st: RunState, fr: Frame, specs: list, kind: str) -> None:
        for s, f in specs:
            if not s.free and not f(st, fr.locals):
                self._fail(st, fr, kind, s.expr, s.attrs, None)

    def _call(self, st: RunState, stack: list, fr: Frame, cmd: tuple) -> None:
        _, c, argfs, outs = cmd
        callee = self.procs[c.proc]
        args = [owned(f(st, fr.locals)) for f in argfs]
        locals_ = dict(zip((n for n, _ in callee.decl.params), args))
        new = Frame(callee, locals_, None, (fr, outs))
        if callee.uses_old:
            new.old = {k: owned(v) for k, v in st.g.items()}
        st.frame = new
        self._check_specs(st, new, callee.requires, "requires")
        st.frame = fr
        if callee.blocks is not None:
            for n, t in callee.decl.outs:
                locals_[n] = random_value(callee.types[n], self.rng)
            for v in callee.decl.locals:
                locals_[v.name] = random_value(callee.types[v.name], self.rng)
            stack.append(new)
            return
        if il.has_attr(callee.decl.attrs, "barrier"):
            st.events.append(Event("barrier", fr.proc.name, fr.label(),
                                   sourceloc(c.attrs) or fr.srcloc, args=tuple(args)))
            if callee.decl.outs or callee.decl.modifies:
                self._havoc_call(st, fr, new, callee, outs)
            return
        self._havoc_call(st, fr, new, callee, outs)

    def _havoc_call(self, st: RunState, fr: Frame, new: Frame, callee: CompiledProc, outs: list) -> None:
        """Body-less callee: havoc outs and ``modifies`` until its ``ensures`` hold."""
        for _ in range(100):
            for n, t in callee.decl.outs:
                new.locals[n] = self._havoc_value(n, callee.types[n], None, st, fr)
            for g in callee.decl.modifies:
                st.write(st.g, g, self._havoc_value(g, self.genv.vars[g], st.g[g], st, fr))
            st.frame = new
            ok = all(f(st, new.locals) for _, f in callee.ensures)
            st.frame = fr
            if ok:
                for (o, is_local), (n, _) in zip(outs, callee.decl.outs):
                    self._store(st, fr, o, is_local, new.locals[n])
                return
        raise Infeasible()

    def _return(self, st: RunState, stack: list):
        """Pop a frame; returns the entry's locals when the entry procedure returns."""
        fr = stack[-1]
        self._check_specs(st, fr, fr.proc.ensures, "ensures")
        stack.pop()
        if not stack:
            return dict(fr.locals)
        caller, outs = fr.call
        st.frame = caller
        for (o, is_local), (n, _) in zip(outs, fr.proc.decl.outs):
            self._store(st, caller, o, is_local, fr.locals[n])
        return None


# ------------------------------------------------------------------ input choice
