"""Two-thread meaning of bugle's annotation queries (``{:annotation}`` functions, docs/IL.md
"Annotations"): ``__enabled``, ``__uniform_*``, ``__distinct_*``, ``__all``,
``__at_most_one``, ``__other_*`` and the access-log queries
``__read``/``__write``/``__read_offset_bytes``/``__write_offset_bytes``."""
from __future__ import annotations

from .. import il
from .kernel import KernelInfo, error
from .logs import AccessLogs
from .threads import THREADS, Threads

LOG_QUERIES = ("read", "write", "read_offset", "write_offset", "atomic_has_taken_value")


def value_width(e: il.Expr) -> int | None:
    """Bit width of a literal (None when not known here)."""
    return e.width if isinstance(e, il.BvLit) else None


def _base(name: str) -> str:
    """``x$1`` -> ``x`` (the one-thread name of a per-thread copy)."""
    return name.rsplit("$", 1)[0]


class AnnotationQueries:
    """Per-thread copies of annotation expressions (``annotation_fns``: function name ->
    ``{:annotation}`` arguments, from ``KernelInfo``)."""

    def __init__(self, info: KernelInfo, threads: Threads, logs: AccessLogs, asymmetric: bool = False):
        self.info = info
        self.threads = threads
        self.logs = logs
        self.asymmetric = asymmetric  # --asymmetric-asserts: annotations hold for thread 1 only
        self._owners: dict[str, int] | None = None  # owner_reads' tables, built on first use
        self._copies: dict[str, str] = {}

    def ann(self, e: il.Expr, t: int, enabled: dict[int, il.Expr],
            dominator: dict[int, il.Expr] | None = None) -> il.Expr:
        """Thread ``t``'s copy of an annotation expression: ``Threads.ex`` plus the two-thread
        queries of bugle's ``{:annotation}`` functions (docs/IL.md "Annotations");
        ``enabled[t]`` is what ``__enabled()`` means for thread ``t`` at this point, and
        ``dominator[t]`` what ``__dominator_enabled()`` means (at a loop head: the thread
        reached the loop; default ``enabled``)."""
        dom = dominator if dominator is not None else enabled
        fns = self.info.annotation_fns

        def fn(x: il.Expr) -> il.Expr | None:
            if isinstance(x, il.Var):
                return self.threads.rename[t].get(x.name, x)
            if isinstance(x, il.FunApp) and x.name in fns:
                if fns[x.name][0] == "dominator_enabled":
                    return dom[t]
                return self._query(fns[x.name], x.args, t, enabled, dom)
            return None
        return self.owner_reads(il.rewrite(e, fn), t)

    def _has_taken(self, name: str, value: il.Expr, t: int) -> il.Expr:
        """``value`` was returned to thread ``t`` by the ticket counter ``name``: in its
        ghost set of tickets (``vcgen.twothread.tickets``)."""
        a = self.info.arrays.get(name)
        if a is None or name not in self.info.ticket_arrays or not isinstance(a.rng, il.BvType):
            raise error(f"__atomic_has_taken_value on {name}, which is not a ticket counter (an array used only "
                        "by atomic increments, or only by decrements, of one element)")
        if value_width(value) not in (None, a.rng.width):
            raise error(f"__atomic_has_taken_value on {name}: the value must have the counter's width")
        tickets = self.logs.builder.glob(f"_TICKETS_{name}${t}", il.MapType(a.rng, il.BOOL))
        return il.MapSelect(tickets, value)

    def owner_reads(self, e: il.Expr, t: int, strict: bool = False) -> il.Expr:
        """Thread ``t``'s two-thread expression ``e`` with each read of an equality-abstracted
        array taken from the copy of the thread whose values its index is computed from:
        ``A[__other_int(i)]`` reads the other thread's copy (where that thread's own writes
        are), as GPUVerify's single shared copy for the pair would.  An index computed from
        neither thread's values, or from both, reads thread ``t``'s copy -- or, ``strict``,
        both is an error."""
        th = self.threads
        if not any(isinstance(x, il.MapSelect) for x in il.subexprs(e)):
            return e
        if self._owners is None:  # per-thread names -> thread, per-thread array copies -> array
            self._owners = {v.name: u for u in THREADS for v in th.rename[u].values()
                            if th.rename[1].get(_base(v.name)) != th.rename[2].get(_base(v.name))}
            self._copies = {th.name(a, u): a for a in self.info.arrays for u in THREADS
                            if th.name(a, 1) != th.name(a, 2)}
        owners, copies = self._owners, self._copies

        def fn(x: il.Expr) -> il.Expr | None:
            if not (isinstance(x, il.MapSelect) and isinstance(x.map, il.Var) and x.map.name in copies):
                return None
            index = il.rewrite(x.index, fn)
            users = {owners[v] for v in il.free_vars(index) if v in owners}
            if len(users) > 1 and strict:
                raise error("a barrier invariant reads memory at an index computed from both work items' values")
            owner = users.pop() if len(users) == 1 else t
            return il.MapSelect(il.Var(th.name(copies[x.map.name], owner)), index)
        return il.rewrite(e, fn)

    def threads_of(self, e: il.Expr) -> tuple[int, ...]:
        """Threads an annotation is instantiated for: only thread 1 when it reads the
        access log, which holds thread 1's accesses (GPUVerify's convention), or under
        ``--asymmetric-asserts`` (GPUVerify's flag: checks and assumptions made for one of
        the two threads, which the symmetric id constraints make an arbitrary one)."""
        if self.asymmetric:
            return (1,)
        fns = self.info.annotation_fns
        for x in il.subexprs(e):
            if isinstance(x, il.FunApp) and x.name in fns and fns[x.name][0] in LOG_QUERIES:
                return (1,)
        return THREADS

    def _query(self, kind: tuple, args: tuple, t: int, enabled: dict[int, il.Expr],
               dominator: dict[int, il.Expr]) -> il.Expr:
        k = kind[0]
        if k == "enabled":
            return enabled[t]
        if k == "other":
            return self.ann(args[0], 3 - t, enabled, dominator)
        if k in ("uniform", "distinct", "all", "at_most_one"):
            a1, a2 = (self.ann(args[0], u, enabled, dominator) for u in THREADS)
            return {"uniform": lambda: il.BinOp("==", a1, a2), "distinct": lambda: il.BinOp("!=", a1, a2),
                    "all": lambda: il.BinOp("&&", a1, a2),
                    "at_most_one": lambda: il.not_(il.BinOp("&&", a1, a2))}[k]()
        if k == "atomic_has_taken_value":
            return self._has_taken(kind[1], self.ann(args[0], t, enabled, dominator), t)
        if k in LOG_QUERIES:
            a = self.info.arrays.get(kind[1])
            log = "READ" if k.startswith("read") else "WRITE"
            what = "OFFSET" if k.endswith("offset") else "HAS_OCCURRED"
            if a is not None and a.logged:
                return self.logs.var(a, log, what)
            if what == "HAS_OCCURRED":
                return il.FALSE  # never logged: no access is in flight in the log
            return il.BvLit(0, a.dom.width if a is not None and isinstance(a.dom, il.BvType) else 32)
        raise error(f"unknown annotation function kind {k!r}")
