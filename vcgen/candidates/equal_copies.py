"""Rule ``copies`` (project rule; paper 000 section 5.2, the equality abstraction): at the
head of a loop with a barrier, two threads of one group see the same contents of an
equality-abstracted array.

Under the equality abstraction each thread keeps its own copy ``A$1``, ``A$2`` of the
array; a barrier whose fence covers it makes the copies of two threads of one group one
again (``Memory.barrier``).  A loop that writes the array between barriers (a tree
reduction ``s[tid] += s[tid + i]; __syncthreads();``) havocs both copies at its head, so
without this candidate a value read after the loop (``out[0] = s[0]`` by every thread, a
benign same-value write) differs between the threads.  For every equality array the loop
writes, when the loop has a barrier: ``same_group ==> A$1 == A$2`` (a map equality).
Inductive when a barrier precedes the loop and one ends each iteration.
"""
from __future__ import annotations

from .. import il
from .context import Candidate, LoopContext

RULES = ("copies",)


def candidates(ctx: LoopContext) -> list[Candidate]:
    if not ctx.has_barrier:
        return []
    out: list[Candidate] = []
    for name, a in ctx.info.arrays.items():
        if not a.equality or a.space == "constant" or name not in ctx.mod:
            continue
        m1, m2 = il.Var(ctx.threads.name(name, 1)), il.Var(ctx.threads.name(name, 2))
        if m1 == m2:
            continue
        out.append(("copies", il.implies(ctx.threads.same_group(), il.BinOp("==", m1, m2))))
    return out
