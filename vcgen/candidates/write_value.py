"""Rule ``val`` (project rule; benign write-write races, paper 000 section 5 and
docs/design.md 5.8): the value thread 1 logged for a write is one of the values the
kernel writes to that array, when the loop does not change them.

A write-write race between two writes of the same value is benign (``logs.check``), but
after a loop cut the logged value ``_WRITE_VALUE_A`` is havocked, so a loop that writes
a constant (``A[0] = 42;``: every thread sets the same flag) looks racy.  For a write log
the loop fills (``HO``, ``VALUE`` of array ``A``), for every write to ``A`` whose inlined
one-thread value ``v`` reads no local variable (literals, ids, sizes, kernel arguments:
the same at every loop head, so the candidates per loop stay bounded by the array's
writes, not by the nesting depth): ``HO ==> VALUE == v$1``, and with several such values
their disjunction.  Only with benign tolerance (the default).
"""
from __future__ import annotations

from .. import il
from .context import Candidate, LoopContext

RULES = ("val",)


def log_candidates(ctx: LoopContext, name: str, a, kind: str) -> list[Candidate]:
    if kind != "WRITE" or not ctx.options.benign_tolerance:
        return []
    local = {v.name for v in ctx.info.kernel.locals}
    values = list(dict.fromkeys(ctx.threads.ex(acc.value, 1) for acc in ctx.accesses_of(name, "WRITE")
                                if acc.value is not None and not (il.free_vars(acc.value) & local)))
    if not values:
        return []
    ho = ctx.access_logs.var(a, "WRITE", "HAS_OCCURRED")
    value = ctx.access_logs.var(a, "WRITE", "VALUE")
    out = [("val", il.implies(ho, il.BinOp("==", value, v))) for v in values]
    if len(values) > 1:
        out.append(("val", il.implies(ho, il.or_all(il.BinOp("==", value, v) for v in values))))
    return out
