"""Facts of the one-thread kernel that every part of the two-thread reduction reads: its
arrays (``ArrayInfo``: memory space, abstraction, whether logged), the uniformity of its
variables and blocks, its loops and their linear block order, its atomics and async copy
sites, and the names the two-thread program gives per-thread copies (docs/IL.md
"Two-thread programs")."""
from __future__ import annotations

from dataclasses import dataclass

from .. import il
from ..analysis.abstraction import choose_abstraction
from ..analysis.cfg import successors
from ..analysis.loops import Loop, flatten, linear_order, natural_loops
from ..analysis.uniformity import GROUP_CONSTS, ID_CONSTS, Uniformity, analyse, once_vars
from ..il.attributes import sourceloc
from ..il.errors import ExitCode, ToolError
from .options import LockstepOptions
from .tickets import ticket_arrays
from .user_annotations import check_arrays_known

DIMS = "xyz"


def error(msg: str) -> ToolError:
    """A malformed or unsupported one-thread program (exit code GPUVERIFYVCGEN_ERROR)."""
    return ToolError(msg, ExitCode.GPUVERIFYVCGEN_ERROR)


@dataclass(frozen=True)
class ArrayInfo:
    """A shared array of the kernel (a global ``var`` of map type): its memory ``space``
    (``global`` | ``group_shared`` | ``constant``), whether it has the equality abstraction
    (else adversarial) and whether accesses to it are logged and race-checked."""
    name: str
    decl: il.VarDecl
    space: str
    equality: bool
    logged: bool

    @property
    def map_type(self) -> il.MapType:
        t = self.decl.type
        assert isinstance(t, il.MapType)
        return t

    @property
    def dom(self) -> il.Type:
        """Index type (``bv32`` cells, docs/IL.md)."""
        return self.map_type.domain

    @property
    def rng(self) -> il.Type:
        """Cell type."""
        return self.map_type.range


def source_name(d: il.VarDecl) -> str:
    """The array's name in the source (``{:source_name}``), else its IL name without ``$$``."""
    a = il.attr(d.attrs, "source_name")
    return str(a.args[0]) if a is not None and a.args else d.name.lstrip("$")


def memory_space(d: il.VarDecl) -> str:
    """``global``, ``group_shared`` or ``constant`` from the array's attribute; ToolError if none."""
    for s in ("global", "group_shared", "constant"):
        if il.has_attr(d.attrs, s):
            return s
    raise error(f"array {d.name} has no memory space attribute ({{:global}}, {{:group_shared}} or {{:constant}})")


def atomic_array(c: il.Call) -> str | None:
    """The array of an atomic call ``call {:atomic "$$A", "add"} r := $bugle_atomic...(i, v);``."""
    a = il.attr(c.attrs, "atomic")
    return str(a.args[0]) if a is not None and a.args else None


@dataclass(frozen=True)
class AsyncSite:
    """One ``call {:async_copy "$$dst", "$$src", N}`` of the kernel (docs/IL.md)."""
    number: int
    dst: str
    src: str
    loc: tuple  # SourceLoc of the copy, ("?", 0, 0) when unknown


def async_sites(kernel: il.ProcedureDecl) -> dict[int, AsyncSite]:
    """Site number -> AsyncSite for every async copy call of the kernel.  ToolError when
    one number is used by two different copies."""
    out: dict[int, AsyncSite] = {}
    for b in kernel.blocks or ():
        for c in b.cmds:
            a = il.attr(c.attrs, "async_copy") if isinstance(c, il.Call) else None
            if a is not None:
                dst, src, n = a.args
                if n.value in out and (out[n.value].dst, out[n.value].src) != (dst, src):
                    raise error(f"async copy site number {n.value} is used by two copies")
                out[n.value] = AsyncSite(n.value, dst, src, sourceloc(c.attrs) or ("?", 0, 0))
    return out


def written_arrays(kernel: il.ProcedureDecl) -> set[str]:
    """Names of the maps the one-thread ``kernel`` may write: assignment targets, atomics
    and async-copy destinations.  Barriers leave every other array's contents alone."""
    blocks = kernel.blocks or ()
    out = {l.name for b in blocks for c in b.cmds if isinstance(c, il.Assign)
           for l in c.lhss if isinstance(l, il.MapLhs)}
    out |= {a for b in blocks for c in b.cmds if isinstance(c, il.Call) for a in (atomic_array(c),) if a}
    return out | {x.dst for x in async_sites(kernel).values()}


def two_threads(opts: LockstepOptions) -> il.Expr:
    """When does the launch have two distinct threads for the pair (docs/design.md 5.1)?
    ``TRUE``/``FALSE`` for concrete sizes, else a condition on the symbolic sizes.  With
    ``--only-intra-group`` they must share a group.  Without (one work item per launch, or
    per group with ``--only-intra-group``) the pair is one thread twice: no distinctness
    axiom and no race check (no race is possible), while assertions, contracts and
    divergence checks still apply to that thread -- such a launch is never reported as
    vacuous.  Either way the constraints stay symmetric in the two threads."""
    lc = opts.launch
    dims = [("group_size", d, s) for d, s in zip(DIMS, lc.local_size)]
    if not opts.only_intra_group:
        dims += [("num_groups", d, s) for d, s in zip(DIMS, lc.num_groups)]
    if any(s is not None and s >= 2 for _, _, s in dims):
        return il.TRUE
    return il.or_all(il.BinOp("!=", il.Var(f"{k}_{d}"), il.BvLit(1, 32)) for k, d, s in dims if s is None)


def write_widths(kernel: il.ProcedureDecl, arrays: set[str]) -> dict[tuple[str, int], int]:
    """Width in cells of each plain write to one of ``arrays``: ``(block label, command
    index) -> cells``.  bugle emits a multi-cell access as one write per cell, each after
    the same ``{:sourceloc}`` marker, at indices ``i``, ``BVP_ADD(i, 1)``, ... (docs/IL.md);
    such a run is one write of that width.  Benign-race tolerance compares widths
    (docs/design.md 5.8)."""
    out: dict[tuple[str, int], int] = {}
    for b in kernel.blocks or ():
        run: list[int] = []  # command indices of the open run
        key: tuple = ()  # (array, marker, first index) of the open run
        loc = None

        def close() -> None:
            for i in run:
                out[(b.label, i)] = len(run)
            run.clear()
        for i, c in enumerate(b.cmds):
            if isinstance(c, il.Assume) and il.has_attr(c.attrs, "sourceloc"):
                loc = il.attr(c.attrs, "sourceloc")
                continue
            lhs = c.lhss[0] if isinstance(c, il.Assign) and len(c.lhss) == 1 else None
            if not (isinstance(lhs, il.MapLhs) and lhs.name in arrays):
                close()
                key = ()
                continue
            if run and key[:2] == (lhs.name, loc) and _is_cell_after(lhs.index, key[2], len(run)):
                run.append(i)
                continue
            close()
            run.append(i)
            key = (lhs.name, loc, lhs.index)
        close()
    return out


def _is_cell_after(index: il.Expr, first: il.Expr, k: int) -> bool:
    """Is ``index`` bugle's ``BVP_ADD(first, kbvP)``?"""
    return (isinstance(index, il.FunApp) and index.name.endswith("_ADD") and len(index.args) == 2
            and index.args[0] == first and isinstance(index.args[1], il.BvLit) and index.args[1].value == k)


class KernelInfo:
    """The one-thread kernel as the reduction reads it (computed once, then read-only).

    ``prog`` is the input with each array's abstraction chosen; ``arrays`` its shared arrays
    by name; ``uni`` the uniformity of variables and blocks; ``items`` the loop-aware
    linear order (``vcgen.analysis.loops``), ``block_id`` each block's number in it (the
    values of the program counters ``cur$t``) and ``exit_id`` the number of "finished".
    Raises ToolError for a program without exactly one kernel with a body."""

    def __init__(self, prog: il.Program, opts: LockstepOptions):
        try:
            kernel = prog.kernel()
        except ValueError as e:
            raise error(str(e)) from None
        if kernel.blocks is None:
            raise error(f"kernel {kernel.name} has no body")
        self.kernel: il.ProcedureDecl = kernel
        self.blocks: tuple[il.Block, ...] = kernel.blocks
        self.prog = choose_abstraction(prog, force=("adversarial" if opts.only_divergence else None))
        self.arrays: dict[str, ArrayInfo] = {}
        maps = [d for d in self.prog.globals() if isinstance(d.type, il.MapType)]
        if opts.check_arrays is not None:  # /checkArrays: only these are logged and checked
            check_arrays_known(opts.check_arrays, {source_name(d) for d in maps})
        for d in maps:
            sp = memory_space(d)
            eq = il.has_attr(d.attrs, "equality")
            logged = sp != "constant" and not opts.only_divergence and \
                (opts.check_arrays is None or source_name(d) in opts.check_arrays)
            self.arrays[d.name] = ArrayInfo(d.name, d, sp, eq, logged)
        self.shared = set(self.arrays)
        scalar_consts = frozenset(d.name for d in self.prog.consts().values() if not isinstance(d.type, il.MapType))
        self.uni: Uniformity = analyse(kernel, self.shared, opts.only_intra_group, scalar_consts)
        self.local_types: dict[str, il.Type] = {v.name: v.type for v in kernel.locals}
        self.local_types.update(dict(kernel.params))
        self.private_maps: dict[str, il.VarDecl] = {v.name: v for v in kernel.locals if isinstance(v.type, il.MapType)}
        self.consts: dict[str, il.ConstDecl] = self.prog.consts()
        self.declared_functions: set[str] = set(self.prog.functions())
        self.annotation_fns: dict[str, tuple] = {
            d.name: a.args for d in self.prog.decls if isinstance(d, il.FunctionDecl)
            for a in (il.attr(d.attrs, "annotation"),) if a is not None}
        self.dup_consts: set[str] = {c for c in self.consts if c in ID_CONSTS + GROUP_CONSTS}
        self.loops: list[Loop] = natural_loops(kernel)
        self.items: list = linear_order(kernel, self.loops)  # labels and LoopItems
        self.order: list[str] = flatten(self.items)
        self.block_id: dict[str, int] = {l: i + 1 for i, l in enumerate(self.order)}
        self.exit_id: int = len(self.order) + 1
        self.src: dict[str, il.Block] = {b.label: b for b in self.blocks}
        self.succ: dict[str, list[str]] = successors(kernel)
        self.headers: set[str] = {lp.header for lp in self.loops}
        # locals assigned unpredicated per thread (single dominating definition outside loops)
        self.once_vars: set[str] = once_vars(kernel, set().union(*(lp.blocks for lp in self.loops))) \
            - self.uni.constant_vars
        self.atomic_arrays: set[str] = {a for b in self.blocks for c in b.cmds if isinstance(c, il.Call)
                                        for a in (atomic_array(c),) if a}
        self.async_sites: dict[int, AsyncSite] = async_sites(kernel)
        # variables equal in two threads of one group (group ids uniform): the arguments
        # of group-collective calls need no equality check when they read only these
        # (vcgen.twothread.async_copies); computed only for kernels with such calls
        self.group_nonuniform: set[str] = self.uni.nonuniform_vars if opts.only_intra_group or not self.async_sites \
            else analyse(kernel, self.shared, True, scalar_consts).nonuniform_vars
        self.written_arrays: set[str] = written_arrays(kernel) & set(self.arrays)
        self.language: str = str(lang.args[0]) if (lang := il.attr(kernel.attrs, "language")) and lang.args \
            else "opencl"
        self.distinct_pair: il.Expr = two_threads(opts)  # TRUE, FALSE or a condition on symbolic sizes
        self.ticket_arrays: set[str] = ticket_arrays(kernel, self.arrays)  # docs/design.md 5.9
        self.write_widths: dict[tuple[str, int], int] = write_widths(kernel, set(self.arrays))
        self.mixed_widths: set[str] = self._mixed_width_arrays()

    def widest_writes(self) -> dict[str, int]:
        """Cells of the widest plain write to each written array (``write_widths``): a byte-level
        array written as ``uint`` has 4."""
        out: dict[str, int] = {}
        for (label, i), w in self.write_widths.items():
            cmd = self.src[label].cmds[i]
            assert isinstance(cmd, il.Assign)
            name = cmd.lhss[0].name
            out[name] = max(out.get(name, 1), w)
        return out

    def _mixed_width_arrays(self) -> set[str]:
        """Arrays whose logged writes need their width (docs/design.md 5.8): those written
        at several widths, and those an async copy also writes (``COPY_WIDTH``)."""
        widths: dict[str, set[int]] = {}
        for (label, i), w in self.write_widths.items():
            cmd = self.src[label].cmds[i]
            assert isinstance(cmd, il.Assign)
            widths.setdefault(cmd.lhss[0].name, set()).add(w)
        return {a for a, ws in widths.items() if len(ws) > 1} | \
            {x.dst for x in self.async_sites.values() if x.dst in widths}

    def procedure(self, name: str) -> il.ProcedureDecl | None:
        """The declaration of procedure ``name`` in the program, if any."""
        return next((p for p in self.prog.procedures() if p.name == name), None)

