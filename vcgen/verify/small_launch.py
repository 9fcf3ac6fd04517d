"""Small counterexample launches for kernels verified with symbolic sizes (``*``).

A race found with ``--blockDim=* --gridDim=*`` comes with the launch sizes of the solver's
model, and solvers pick extreme values: ``gridDim = (1073741824, 1, 1)`` where two blocks
show the race.  ``LaunchShrinker.smaller`` asks for another model of the same failing
check with every symbolic size bounded by a rung of ``LADDER`` (the smallest rung first,
each query ``RUNG_SECONDS`` at most, all of a run's at most ``BUDGET_SECONDS``); the
report is read from the first model found, else from the solver's own.

Only the report changes: the error was established by the first model, and the smaller
one is a model of the same VC with the same check enabled under the same alive
candidates (``encode.VC.assumptions``), the bounds being extra facts, so it is as real a
counterexample (docs/design.md section 7, "Launch with").  Concrete sizes are fixed by
the launch axioms and never bounded; nor are the kernel's scalar arguments, which the
race may need large (an index past 2^31).  The queries go to a fresh non-incremental yices
(``oneshot.OneShotBackend``): the bounds are facts it propagates, and with symbolic sizes
yices answers in milliseconds what z3 takes seconds for (``escalating``).
"""
from __future__ import annotations

import time

import z3

from .. import il
from ..vc import encode as vcmod
from ..vc.solvers.oneshot import OneShotBackend
from ..vc.solvers.process import find_program

# Bounds tried on every symbolic size, smallest first: 4 covers most races (two threads of
# two groups), 1024 is CUDA's block size limit, 65536 the 16-bit index of a corpus race.
LADDER = (4, 32, 256, 1024, 65536)
RUNG_SECONDS = 1.0
BUDGET_SECONDS = 4.0

_SIZES = tuple(f"{k}_{d}" for k in ("group_size", "num_groups") for d in "xyz")


def symbolic_sizes(kernel: il.ProcedureDecl) -> list[str]:
    """The size constants (``group_size_x`` .. ``num_groups_z``) that ``{:symbolic_launch}``
    marks ``*``; empty for a concrete launch."""
    a = il.attr(kernel.attrs, "symbolic_launch")
    if a is None or len(a.args) != len(_SIZES):
        return []
    return [n for n, s in zip(_SIZES, a.args) if str(s) == "*"]


class LaunchShrinker:
    """Finds models of failing checks of ``vc`` with small symbolic sizes (module
    docstring).  ``alive``: the Houdini candidates assumed (None: none); ``timeout``:
    the run's per-query seconds (None = none), which also bounds each rung."""

    def __init__(self, vc: vcmod.VC, kernel: il.ProcedureDecl, alive: set[str] | None,
                 timeout: float | None = None):
        self.vc, self.alive, self.timeout = vc, alive, timeout
        names = [n for n in symbolic_sizes(kernel) if n in vc.translator.types]
        sizes = [vc.translator.const(n) for n in names]
        self.sizes = sizes if all(z3.is_bv(s) for s in sizes) else []  # not --math-int
        exe = find_program("yices-smt2")
        usable = exe is not None and "Q" not in vc.translator.features and self.sizes
        self.command = [exe] if usable else None
        self.spent = 0.0

    def smaller(self, check: vcmod.Check, current: list[int]) -> OneShotBackend | None:
        """A back end holding a model in which ``check`` fails with every symbolic size at
        most the first rung of ``LADDER`` below ``max(current)`` (the sizes of the model
        at hand, in ``self.sizes`` order) that has one; None if no rung does within the
        budget.  The caller reads the report from it and closes it."""
        if self.command is None or not current:
            return None
        for rung in (r for r in LADDER if r < max(current)):
            left = BUDGET_SECONDS - self.spent
            if left <= 0:
                return None
            bounds = [z3.ULE(s, z3.BitVecVal(rung, s.size(), s.ctx)) for s in self.sizes]
            solver = OneShotBackend(self.vc, self.command, self.timeout)
            start = time.monotonic()
            out = solver.check(self.vc.assumptions({check.index}, self.alive) + bounds,
                               min(RUNG_SECONDS, left, self.timeout or RUNG_SECONDS))
            self.spent += time.monotonic() - start
            if out.status == "sat":
                return solver
            solver.close()
        return None

    def values(self, backend) -> list[int]:
        """The symbolic sizes in ``backend``'s model (``self.sizes`` order)."""
        return [int(v) for v in backend.values(self.sizes)] if self.sizes else []
