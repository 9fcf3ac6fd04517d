"""Two-thread meaning of bugle's annotation queries (``{:annotation}`` functions, docs/IL.md
"Annotations"), a part of ``vcgen.lockstep.Lockstep``: ``__enabled``, ``__uniform_*``,
``__distinct_*``, ``__all``, ``__at_most_one``, ``__other_*`` and the access-log queries
``__read``/``__write``/``__read_offset_bytes``/``__write_offset_bytes``."""
from __future__ import annotations

from . import il
from .twothread import error



class AnnotationQueries:
    """Mixin of ``Lockstep``: per-thread copies of annotation expressions."""

    def ann(self, e: il.Expr, t: int, enabled: dict) -> il.Expr:
        """Thread ``t``'s copy of an annotation expression: ``ex`` plus the two-thread
        queries of bugle's ``{:annotation}`` functions (docs/IL.md "Annotations");
        ``enabled[t]`` is what ``__enabled()`` means for thread ``t`` at this point."""
        def fn(x: il.Expr) -> il.Expr | None:
            if isinstance(x, il.Var):
                return self.rename[t].get(x.name, x)
            if isinstance(x, il.FunApp) and x.name in self.annotation_fns:
                return self._query(self.annotation_fns[x.name], x.args, t, enabled)
            return None
        return il.rewrite(e, fn)

    def ann_threads(self, e: il.Expr) -> tuple:
        """Threads an annotation is instantiated for: only thread 1 when it reads the
        access log, which holds thread 1's accesses (GPUVerify's convention)."""
        for x in il.subexprs(e):
            if isinstance(x, il.FunApp) and x.name in self.annotation_fns and \
                    self.annotation_fns[x.name][0] in ("read", "write", "read_offset", "write_offset"):
                return (1,)
        return (1, 2)

    def _query(self, kind: tuple, args: tuple, t: int, enabled: dict) -> il.Expr:
        k = kind[0]
        if k == "enabled":
            return enabled[t]
        if k == "other":
            return self.ann(args[0], 3 - t, enabled)
        if k in ("uniform", "distinct", "all", "at_most_one"):
            a1, a2 = (self.ann(args[0], u, enabled) for u in (1, 2))
            return {"uniform": lambda: il.BinOp("==", a1, a2), "distinct": lambda: il.BinOp("!=", a1, a2),
                    "all": lambda: il.BinOp("&&", a1, a2),
                    "at_most_one": lambda: il.not_(il.BinOp("&&", a1, a2))}[k]()
        if k in ("read", "write", "read_offset", "write_offset"):
            a = self.arrays.get(kind[1])
            log = "READ" if k.startswith("read") else "WRITE"
            what = "OFFSET" if k.endswith("offset") else "HAS_OCCURRED"
            if a is not None and a.logged:
                return self.log_var(a, log, what)
            if what == "HAS_OCCURRED":
                return il.FALSE  # never logged: no access is in flight in the log
            return il.BvLit(0, a.dom.width if a is not None else 32)
        raise error(f"unknown annotation function kind {k!r}")
