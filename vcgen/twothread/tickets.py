"""Atomic ticket refinement (docs/design.md 5.9, after GPUVerify's treatment of atomics: paper
000 section 6 notes that abstracting an atomic's result as arbitrary loses the fact that
ticket counters hand out distinct tickets).

An array whose atomics are all of one monotonic kind on one element -- every atomic an
``add`` of a positive constant (``atomic_inc``, ``atomicAdd(c, 1)``) or every atomic a
``sub`` of one (``atomic_dec``) -- is a ticket counter: distinct calls return distinct
values, so ``out[atomic_inc(count)] = v`` writes distinct cells (for a ``__local`` counter: within
one group; each group has its own counter).  The lock-step keeps, per
thread ``t`` and ticket array ``A``, a ghost set ``_TICKETS_A$t: [bvW]bool`` of the values
returned to ``t`` and assumes that a value returned to one thread was never returned to
the other.  The sets start (and, at loop heads and barriers, become) arbitrary; every assumption then
only *removes* executions that the real, initially empty, sets allow as well, so nothing
the faithful model rejects is verified.

Plain reads and writes of the counter are allowed (``if (lid == 0) count = 0;`` then a
barrier): a plain write restarts the counter, but one concurrent with another thread's
atomic is a reported write-atomic race, so in a race-free run plain writes and atomics
are ordered by barriers -- where the sets are havocked, forgetting the tickets before.

Assumption, as in GPUVerify: a counter does not wrap around within one launch (fewer than
2^W / c calls), which would hand out a value twice.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import il

if TYPE_CHECKING:  # the parts import the kernel facts, which use ticket_arrays
    from .builder import ProgramBuilder
    from .threads import Threads


def _direction(op: str, operand: il.Expr | None, width: int) -> int | None:
    """+1 if the atomic adds a positive constant, -1 if it subtracts one, else None."""
    if not isinstance(operand, il.BvLit) or operand.value == 0:
        return None
    negative = operand.value >= 1 << (width - 1)
    sign = {"add": 1, "sub": -1}.get(op)
    return None if sign is None else (-sign if negative else sign)


def ticket_arrays(kernel: il.ProcedureDecl, arrays: dict[str, Any]) -> set[str]:
    """Names of the arrays of ``arrays`` (name -> ``ArrayInfo``) that are ticket counters
    in the one-thread ``kernel`` (module docstring): no async copy touches them, their
    atomics are all of one direction, all on one literal element, each returning its old
    value."""
    use: dict[str, tuple] = {}  # array -> (direction, element)
    bad: set[str] = set()
    for b in kernel.blocks or ():
        for c in b.cmds:
            if isinstance(c, il.Call):
                a = il.attr(c.attrs, "async_copy")
                if a is not None:
                    bad |= {str(x) for x in a.args[:2]}
                a = il.attr(c.attrs, "atomic")
                if a is None or len(a.args) < 2 or a.args[0] not in arrays:
                    continue
                name, op = a.args[0], str(a.args[1])
                info = arrays[name]
                operand = c.args[1] if len(c.args) == 2 else None
                d = _direction(op, operand, info.rng.width) if isinstance(info.rng, il.BvType) else None
                key = (d, c.args[0])
                if d is None or len(c.outs) > 1 or not isinstance(c.args[0], il.BvLit) \
                        or use.setdefault(name, key) != key:
                    bad.add(name)
    return set(use) - bad


class Tickets:
    """The distinct-ticket assumptions at a ticket counter's atomics (module docstring)."""

    def __init__(self, builder: ProgramBuilder, threads: Threads):
        self.builder = builder
        self.threads = threads

    def after_atomic(self, a: Any, out: str, preds: dict[int, il.Expr]) -> None:
        """After the atomic on ticket array ``a`` (an ``ArrayInfo``) returned ``out`` (per
        thread): each enabled thread's ticket is new to the other thread's set, then joins
        its own.  A group-shared counter is one counter per group: only threads of one
        group share it, so only they get distinct tickets."""
        th, b = self.threads, self.builder
        if not th.is_dup(out):
            return  # an atomic's result is never uniform; nothing to refine otherwise
        sets = {t: b.glob(f"_TICKETS_{a.name}${t}", il.MapType(a.rng, il.BOOL)) for t in (1, 2)}
        shared = th.same_group() if a.space == "group_shared" else il.TRUE
        for t in (1, 2):
            mine = il.Var(th.name(out, t))
            cond = il.and_all(x for x in (preds[t], shared) if x != il.TRUE)
            b.emit(il.Assume(il.implies(cond, il.not_(il.MapSelect(sets[3 - t], mine)))))
            b.emit(il.Assign((il.MapLhs(sets[t].name, mine),),
                             (il.ite(preds[t], il.TRUE, il.MapSelect(sets[t], mine)),)))

    def at_barrier(self, a: Any) -> None:
        """A barrier covering ticket array ``a``: the tickets handed out before are
        forgotten (a plain write after the barrier may restart the counter)."""
        b = self.builder
        sets = [b.glob(f"_TICKETS_{a.name}${t}", il.MapType(a.rng, il.BOOL)) for t in (1, 2)]
        b.emit(il.Havoc(tuple(v.name for v in sets)))
