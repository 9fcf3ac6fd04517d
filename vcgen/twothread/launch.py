"""The launch configuration: its flags, GPUVerify spelling (docs/design.md section 7), and
the axioms that fix the sizes and constrain the two threads' ids (paper 000 section 4,
docs/design.md section 5.1).

``--local_size=64``, ``--local_size=[16,16]``, ``--num_groups=[8,8,4]``,
``--global_size=...`` (must be a multiple of the local size), and the CUDA spellings
``--blockDim`` / ``--gridDim``.  Sizes are counts of work items / groups per dimension.

A size written ``*`` (``--blockDim=*``, ``--local_size=[*,16]``, ``--global_size=*``) is
*symbolic*: a constant of the two-thread program, uniform (the same for both threads),
at least 1 and bounded by the device limits below and by the kernel's ``__requires``.  A
proof then holds for every such size; a counterexample names the sizes it uses.  When no
size is given at all, every size is symbolic.  Device limits assumed for symbolic sizes
(``DeviceLimits``): at most 1024 work items per group (CUDA also: ``blockDim.z <= 64``),
fewer than 2^31 groups per dimension (CUDA also: ``gridDim.y, gridDim.z <= 65535``), and
at most 2^32 - 1 work items per dimension of the grid (global size plus offset), so a
32-bit global id does not wrap: OpenCL requires this of a device with a 32-bit
``size_t``; for CUDA it is the assumption every ``blockIdx.x * blockDim.x + threadIdx.x``
makes, stated in the report.

Address space (``buffer_limit``): when the kernel's global arrays are addressed with 32-bit
offsets (OpenCL's ``spir`` target), a symbolic launch has at most ``2^32 / E`` work items
in all (the product over the dimensions), ``E`` the bytes of the widest element of those
arrays: a global buffer with one element per work item must fit the address space.  With
more, ``x[get_global_id(0)]`` wraps around the 32-bit byte offset and two work items
address the same element -- a launch no device can run, since such a buffer cannot be
allocated.  A kernel that assumes larger buffers (two elements per work item, a matrix
of ``rows * get_global_size(0)``) says so with ``__requires``.  Like the other limits it
is an assumption, stated in the report of a proof.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace

from .. import il
from ..il.errors import ExitCode, ToolError
from .builder import ProgramBuilder
from .kernel import DIMS, two_threads
from .options import Dims, LaunchConfig, LockstepOptions, Size
from .threads import THREADS, Threads

_NUM = r"\s*(\d+|\*)\s*"
_DIM = re.compile(rf"^\s*\[?{_NUM}(?:,{_NUM})?(?:,{_NUM})?\]?\s*$")
ZEXT64 = "BV32_ZEXT64"  # the front end's zero extension of a 32-bit id or size to 64 bits


@dataclass(frozen=True)
class DeviceLimits:
    """Bounds on symbolic sizes (module docstring): per-dimension maxima of the group size
    and of the group count, the maximum work items per group, and the maximum of global
    size plus offset per dimension."""
    group_dims: tuple[int, int, int]
    group_threads: int
    grid_dims: tuple[int, int, int]
    global_dim: int = 2 ** 32 - 1
    work_items: int | None = None  # in all dimensions together (``buffer_limit``); None: no bound


OPENCL_LIMITS = DeviceLimits((1024, 1024, 1024), 1024, (2 ** 31 - 1,) * 3)
CUDA_LIMITS = DeviceLimits((1024, 1024, 64), 1024, (2 ** 31 - 1, 65535, 65535))


def parse_dims(flag: str, text: str) -> Dims:
    """``"64"`` -> (64, 1, 1); ``"[16,16]"`` -> (16, 16, 1); ``"*"`` -> (None, 1, 1) (None:
    symbolic).  ToolError(COMMAND_LINE_ERROR) if malformed."""
    m = _DIM.match(text)
    if not m:
        raise ToolError(f"{flag}: expected a positive size, * (any size) or [x,y] / [x,y,z], got {text!r}",
                        ExitCode.COMMAND_LINE_ERROR)
    dims: list[Size] = [None if g == "*" else int(g) if g else 1 for g in m.groups()]
    if any(d is not None and d <= 0 for d in dims):
        raise ToolError(f"{flag}: sizes must be positive, got {text!r}", ExitCode.COMMAND_LINE_ERROR)
    if any(d is not None and d >= 2 ** 31 for d in dims):
        raise ToolError(f"{flag}: size {text} too large", ExitCode.COMMAND_LINE_ERROR)
    return dims[0], dims[1], dims[2]


def launch_config(local_size: str | None = None, num_groups: str | None = None, global_size: str | None = None,
                  block_dim: str | None = None, grid_dim: str | None = None,
                  global_offset: str | None = None) -> LaunchConfig:
    """Combine the launch flags into a LaunchConfig; no size at all: every size symbolic.

    Raises ToolError(COMMAND_LINE_ERROR) when sizes are given twice, only one of group
    size and group count is given, or the global size is not a multiple of the local
    size or has another number of dimensions (GPUVerify's exit code and messages).
    """
    local = local_size or block_dim
    if local_size and block_dim:
        raise ToolError("give either --local_size or --blockDim, not both", ExitCode.COMMAND_LINE_ERROR)
    given = [f for f, x in (("--num_groups", num_groups), ("--global_size", global_size), ("--gridDim", grid_dim))
             if x]
    if len(given) > 1:
        raise ToolError(f"{given[0]}=: not allowed with argument {given[1]}= (give only one of --num_groups, "
                        "--global_size and --gridDim)", ExitCode.COMMAND_LINE_ERROR)
    off3 = parse_dims("--global_offset", global_offset) if global_offset else (0, 0, 0)
    if None in off3:
        raise ToolError("--global_offset: the offset must be a number, not *", ExitCode.COMMAND_LINE_ERROR)
    # the dimensions an offset does not write are 0 (parse_dims fills sizes with 1)
    written = _rank(global_offset) if global_offset else 0
    ox, oy, oz = (int(off3[i] or 0) if i < written else 0 for i in range(3))
    off = (ox, oy, oz)
    if global_offset and global_offset.strip() in ("0", "[0]"):
        off = (0, 0, 0)
    if not local and not given:  # docs/design.md 5.1: symbolic in every dimension
        return LaunchConfig((None, None, None), (None, None, None), off, unspecified=True)
    if not local or not given:
        raise ToolError("a launch configuration needs both sizes: --local_size and --num_groups (or "
                        "--global_size), or --blockDim and --gridDim; write * for any size "
                        "(--gridDim=*), or give no size at all", ExitCode.COMMAND_LINE_ERROR)
    ls = parse_dims("--local_size" if local_size else "--blockDim", local)
    work_dim = max(_rank(local), _rank((num_groups or global_size or grid_dim) or ""))
    if global_size:
        if _rank(global_size) != _rank(local):
            raise ToolError(f"Dimensions of local and global size must match (--global_size={global_size}, "
                            f"local size {local})", ExitCode.COMMAND_LINE_ERROR)
        return replace(_from_global(ls, parse_dims("--global_size", global_size), global_size, local, off),
                       work_dim=work_dim)
    counts = num_groups or grid_dim
    assert counts is not None  # one of the three sizes is given (checked above)
    return LaunchConfig(ls, parse_dims("--num_groups" if num_groups else "--gridDim", counts), off,
                        work_dim=work_dim)


def _rank(text: str) -> int:
    """Number of dimensions written in a size flag's value (``64`` and ``*``: 1)."""
    return text.count(",") + 1


def _from_global(ls: Dims, gs: Dims, global_size: str, local: str, off: tuple[int, int, int]) -> LaunchConfig:
    """Group counts from a global size: ``global / local`` where both are numbers, symbolic
    otherwise (a concrete global size over a symbolic local size is kept: it fixes the
    product)."""
    ng: list[Size] = []
    for d, (g, l) in enumerate(zip(gs, ls)):
        if g is not None and l is not None and g % l:
            raise ToolError(f"Dimension {d} of global size does not divide by dimension {d} of local size "
                            f"(--global_size={global_size}, local size {local})", ExitCode.COMMAND_LINE_ERROR)
        ng.append(g // l if g is not None and l is not None else None)
    keep = any(g is not None and l is None for g, l in zip(gs, ls))
    return LaunchConfig(ls, (ng[0], ng[1], ng[2]), off, gs if keep else None)


def limits_for(language: str) -> DeviceLimits:
    """The device limits of symbolic sizes for kernels of ``language`` (``cuda`` | ``opencl``)."""
    return CUDA_LIMITS if language == "cuda" else OPENCL_LIMITS


def buffer_limit(arrays: Iterable[il.VarDecl], widest_writes: dict[str, int] | None = None) -> int | None:
    """The most work items of a symbolic launch such that a buffer with one element per
    work item fits the address space of each global array (module docstring): the
    minimum over the ``{:global}`` arrays of ``2^W // E``, ``W`` the bits of the array's
    index (its offsets: 32 with ``spir``) and ``E`` the bytes of its element: the largest
    of ``{:source_elem_bytes}`` (when wider than a cell), the cell (``{:elem_width}`` / 8)
    and the widest write (``widest_writes``: cells per write by array name; a ``uchar``
    buffer written as ``uint`` has 4-byte elements).  None when no global array has such a
    limit below 2^32 (none is needed: the global size per dimension is below 2^32
    already)."""
    out = None
    for d in arrays:
        t = d.type
        if not (il.has_attr(d.attrs, "global") and isinstance(t, il.MapType) and isinstance(t.domain, il.BvType)):
            continue
        source, cell = il.attr(d.attrs, "source_elem_bytes"), il.attr(d.attrs, "elem_width")
        if cell is None or not cell.args or not isinstance(cell.args[0], il.IntLit):
            continue
        cell_bytes = max(1, cell.args[0].value // 8)
        elem = cell_bytes * (widest_writes or {}).get(d.name, 1)
        if source is not None and source.args and isinstance(source.args[0], il.IntLit):
            elem = max(elem, source.args[0].value)
        limit = 2 ** t.domain.width // elem
        if limit < 2 ** 32:
            out = limit if out is None else min(out, limit)
    return out


def launch_axioms(consts: dict[str, il.ConstDecl], opts: LockstepOptions, builder: ProgramBuilder,
                  threads: Threads, language: str = "opencl", max_work_items: int | None = None
                  ) -> list[il.AxiomDecl]:
    """Axioms of the launch: sizes and offsets equal the configuration (symbolic sizes
    within ``limits_for(language)`` and at most ``max_work_items`` work items in all
    (``buffer_limit``), ``symbolic_size_axioms``), each thread's ids below
    the sizes, the threads distinct when in one group (``{:distinct_threads}``; only when
    the launch has two threads, ``two_threads``) and, with ``--only-intra-group``, in one
    group.  ``consts``: the program's constants (only the declared ids and sizes are
    constrained)."""
    lc, out = opts.launch, []
    ty = {n: d.type for n, d in consts.items()}

    def lit(name: str, v: int) -> il.Expr:
        t = ty[name]
        return il.BvLit(v, t.width) if isinstance(t, il.BvType) else il.IntLit(v)

    def ult(a: str, b: str) -> il.Expr:
        t = ty[b]
        assert isinstance(t, il.BvType)
        return il.FunApp(builder.bvfun("ULT", t.width), (il.Var(a), il.Var(b)))

    if "work_dim" in ty:  # get_work_dim(): the dimensions of the launch, 1..3 if unspecified
        if lc.work_dim is not None:
            out.append(il.AxiomDecl(il.BinOp("==", il.Var("work_dim"), lit("work_dim", lc.work_dim))))
        else:
            wt = ty["work_dim"]
            assert isinstance(wt, il.BvType)
            out.append(il.AxiomDecl(il.and_all([
                il.FunApp(builder.bvfun("ULE", wt.width), (lit("work_dim", 1), il.Var("work_dim"))),
                il.FunApp(builder.bvfun("ULE", wt.width), (il.Var("work_dim"), lit("work_dim", 3)))])))
    for i, d in enumerate(DIMS):
        for name, val in ((f"group_size_{d}", lc.local_size[i]), (f"num_groups_{d}", lc.num_groups[i]),
                          (f"global_offset_{d}", lc.global_offset[i])):
            if name in ty and val is not None:
                out.append(il.AxiomDecl(il.BinOp("==", il.Var(name), lit(name, val))))
        for t in THREADS:
            if f"local_id_{d}" in ty and f"group_size_{d}" in ty:
                out.append(il.AxiomDecl(ult(f"local_id_{d}${t}", f"group_size_{d}")))
            if f"group_id_{d}" in ty and f"num_groups_{d}" in ty:
                out.append(il.AxiomDecl(ult(f"group_id_{d}${t}", f"num_groups_{d}")))
    if lc.symbolic:
        limits = limits_for(language)
        if max_work_items is not None:
            limits = replace(limits, work_items=max_work_items)
        out += symbolic_size_axioms(lc, limits, builder, set(ty))
        out += global_id_lemmas(lc, builder, set(ty), limits)
    two = two_threads(opts)
    if two != il.FALSE:  # else the pair is one thread twice (docs/design.md 5.1)
        distinct_local = il.or_all(il.BinOp("!=", il.Var(f"local_id_{d}$1"), il.Var(f"local_id_{d}$2"))
                                   for d in DIMS if f"local_id_{d}" in ty)
        distinct = il.implies(threads.same_group(), distinct_local)
        out.append(il.AxiomDecl(distinct if two == il.TRUE else il.implies(two, distinct),
                                (il.Attr("distinct_threads"),)))
    if opts.only_intra_group:
        out.append(il.AxiomDecl(threads.same_group(), (il.Attr("only_intra_group"),)))
    return out


def symbolic_size_axioms(lc: LaunchConfig, limits: DeviceLimits, builder: ProgramBuilder,
                         declared: set[str]) -> list[il.AxiomDecl]:
    """``{:symbolic_size}`` axioms bounding the symbolic sizes of ``lc`` (module docstring):
    each at least 1 and at most its device limit, the work items of a group at most
    ``limits.group_threads``, per dimension the global size (plus offset) at most
    ``limits.global_dim`` -- or equal to the given global size -- and, with
    ``limits.work_items``, the global sizes of all dimensions together at most that many
    (a chain ``g_x * g_y <= L``, ``g_x * g_y * g_z <= L`` over the dimensions whose global
    size is symbolic, the given ones folded into ``L``).  Where one factor of a product is
    a number the bound stays linear (``num_groups_x <= 4194303`` for a group size of 1024);
    only a product of two symbolic sizes is a multiplication.  Sizes are bv32; products are
    computed in bv64 (zero-extended) so they cannot wrap (each factor of the chain is below
    2^32 and each prefix at most ``L``, itself at most 2^32)."""
    out: list[il.Expr] = []
    sym_global: list[il.Expr] = []  # bv64 global size of each dimension whose global size is symbolic
    given_items = _given_items(lc)

    def bv(op: str, w: int, *args: il.Expr) -> il.Expr:
        return il.FunApp(builder.bvfun(op, w), args)

    def ule(a: il.Expr, b: il.Expr, w: int = 32) -> il.Expr:
        return bv("ULE", w, a, b)

    def wide(e: il.Expr) -> il.Expr:
        return il.BvConcat(il.BvLit(0, 32), e)
    fixed_threads = 1
    for s in lc.local_size:
        fixed_threads *= s or 1
    per_group = max(1, limits.group_threads // fixed_threads)  # for the symbolic dimensions together
    sym_local = [d for d, s in zip(DIMS, lc.local_size) if s is None]
    for i, d in enumerate(DIMS):
        gs, ng = f"group_size_{d}", f"num_groups_{d}"
        if gs not in declared or ng not in declared:
            continue
        ls_i, ng_i = lc.local_size[i], lc.num_groups[i]
        if ls_i is None:
            out += [ule(il.BvLit(1, 32), il.Var(gs)), ule(il.Var(gs), il.BvLit(min(limits.group_dims[i], per_group), 32))]
        if ng_i is None:
            out += [ule(il.BvLit(1, 32), il.Var(ng)), ule(il.Var(ng), il.BvLit(limits.grid_dims[i], 32))]
        fixed_global = lc.global_size[i] if lc.global_size is not None else None
        room = global_room(lc, limits, i)
        if ls_i is None and ng_i is None and fixed_global is not None:
            out.append(il.BinOp("==", bv("MUL", 64, wide(il.Var(gs)), wide(il.Var(ng))), il.BvLit(fixed_global, 64)))
        elif ls_i is None and ng_i is None:
            product = bv("MUL", 64, wide(il.Var(gs)), wide(il.Var(ng)))
            out.append(ule(product, il.BvLit(room, 64), 64))
            # the same bound on the 32-bit product the kernel computes (get_global_size):
            # implied (no wrap below 2^32), stated so the solver need not relate the two
            out.append(ule(bv("MUL", 32, il.Var(gs), il.Var(ng)), il.BvLit(room, 32)))
            sym_global.append(product)
        elif ls_i is None or ng_i is None:
            known = ls_i if ls_i is not None else ng_i
            assert known is not None
            out.append(ule(il.Var(gs if ls_i is None else ng), il.BvLit(room // known, 32)))
            sym_global.append(bv("MUL", 64, il.BvLit(known, 64), wide(il.Var(gs if ls_i is None else ng))))
    if limits.work_items is not None and len(sym_global) >= 2:
        chain = sym_global[0]
        for g in sym_global[1:]:
            chain = bv("MUL", 64, chain, g)
            out.append(ule(chain, il.BvLit(limits.work_items // given_items, 64), 64))
    if len(sym_local) >= 2 and all(f"group_size_{d}" in declared for d in sym_local):
        prod: il.Expr = il.Var(f"group_size_{sym_local[0]}")
        for d in sym_local[1:]:
            prod = bv("MUL", 32, prod, il.Var(f"group_size_{d}"))  # each <= 1024: no wrap in bv32
        out.append(ule(prod, il.BvLit(per_group, 32)))
    return [il.AxiomDecl(e, (il.Attr("symbolic_size"),)) for e in out]


def global_room(lc: LaunchConfig, limits: DeviceLimits, i: int) -> int:
    """The largest global size (work items) of dimension ``i`` within ``limits``: the
    device's maximum minus the offset, and with ``limits.work_items`` that many over the
    work items of the dimensions whose global size is given."""
    room = limits.global_dim - lc.global_offset[i]
    if limits.work_items is not None:
        room = min(room, limits.work_items // _given_items(lc))
    return room


def _given_items(lc: LaunchConfig) -> int:
    """Work items of the dimensions whose global size is given (both sizes numbers, or
    ``--global_size``); 1 when none is."""
    n = 1
    for i in range(3):
        ls_i, ng_i = lc.local_size[i], lc.num_groups[i]
        g_i = lc.global_size[i] if lc.global_size is not None else None
        if ls_i is not None and ng_i is not None:
            n *= ls_i * ng_i
        elif g_i is not None:
            n *= g_i
    return n


def global_id_lemmas(lc: LaunchConfig, builder: ProgramBuilder, declared: set[str],
                     limits: DeviceLimits = OPENCL_LIMITS) -> list[il.AxiomDecl]:
    """``{:global_id_lemma}`` axioms for each dimension with a symbolic size: the 32-bit
    global id ``group_id * group_size + local_id`` (also ``+ global_offset``: bugle's
    ``get_global_id``, the CUDA idiom without) is the same for the two threads only when
    their group and local ids are.  Implied by the launch axioms (ids below the sizes, and
    ``symbolic_size_axioms``: global size plus offset below 2^32, so the sum never wraps),
    so adding them is sound.  Likewise each thread's global id (without offset) is below
    the global size ``group_size * num_groups`` (both factor orders: ``get_global_size``
    and the CUDA idiom ``blockDim.x * gridDim.x``), which the solver would otherwise have
    to derive by nonlinear reasoning on bit-vectors (minutes for a bounds check ``gid <
    get_global_size(0)``), and below the dimension's bound ``global_room`` (a number: with
    it an index ``5 * gid + k`` is seen not to wrap without multiplying symbolic sizes).
    The lemmas are sound; they spare the solver a bit-level proof that a product of two
    symbolic bit-vectors is injective, which otherwise takes it minutes on the simplest
    ``out[blockIdx.x * blockDim.x + threadIdx.x]``.  The terms are the ones the front end
    builds, so the solver meets them again in the kernel's index arithmetic."""
    out = []
    for i, d in enumerate(DIMS):
        names = (f"group_id_{d}", f"group_size_{d}", f"local_id_{d}", f"global_offset_{d}")
        if (lc.local_size[i] is not None and lc.num_groups[i] is not None) or not all(n in declared for n in names):
            continue

        def gid(t: int, offset: bool) -> il.Expr:
            return global_id(builder, d, t, offset)
        same_ids = il.BinOp("&&", il.BinOp("==", il.Var(f"group_id_{d}$1"), il.Var(f"group_id_{d}$2")),
                            il.BinOp("==", il.Var(f"local_id_{d}$1"), il.Var(f"local_id_{d}$2")))
        for offset in (False, True):
            out.append(il.AxiomDecl(il.implies(il.BinOp("==", gid(1, offset), gid(2, offset)), same_ids),
                                    (il.Attr("global_id_lemma"),)))
        given = lc.global_size[i] if lc.global_size is not None else None
        room = given if given is not None else global_room(lc, limits, i)
        for t in THREADS:
            out.append(il.AxiomDecl(il.FunApp(builder.bvfun("ULT", 32), (gid(t, False), il.BvLit(room, 32))),
                                    (il.Attr("global_id_lemma"),)))
            for size in ((f"group_size_{d}", f"num_groups_{d}"), (f"num_groups_{d}", f"group_size_{d}")):
                global_size = il.FunApp(builder.bvfun("MUL", 32), (il.Var(size[0]), il.Var(size[1])))
                out.append(il.AxiomDecl(il.FunApp(builder.bvfun("ULT", 32), (gid(t, False), global_size)),
                                        (il.Attr("global_id_lemma"),)))
    return out


def coordinate_dims(lc: LaunchConfig, declared: set[str]) -> tuple[str, ...]:
    """The dimensions that get ``global_id_lemmas`` (a symbolic size, and the ids and
    sizes declared), hence also ``group_coordinates_lemma`` instances."""
    return tuple(d for i, d in enumerate(DIMS)
                 if (lc.local_size[i] is None or lc.num_groups[i] is None)
                 and all(f"{n}_{d}" in declared for n in ("group_id", "group_size", "local_id")))


def global_id(builder: ProgramBuilder, d: str, t: int, offset: bool = False) -> il.Expr:
    """Thread ``t``'s bv32 global id in dimension ``d`` as the front end builds it:
    ``group_id_d$t * group_size_d + local_id_d$t`` (``_scaled_sum``), ``+ global_offset_d``
    when ``offset`` (OpenCL's ``get_global_id``; the CUDA idiom has none).  The one
    construction of the term the launch lemmas are about, so the solver meets the
    kernel's own term in them."""
    e = _scaled_sum(builder, il.Var(f"group_id_{d}${t}"), il.Var(f"group_size_{d}"), il.Var(f"local_id_{d}${t}"))
    return il.FunApp(builder.bvfun("ADD", 32), (e, il.Var(f"global_offset_{d}"))) if offset else e


def _scaled_sum(builder: ProgramBuilder, q: il.Expr, n: il.Expr, x: il.Expr, width: int = 32) -> il.Expr:
    """``q * n + x`` in bit-vectors of ``width`` bits, the form of a global id."""
    return il.FunApp(builder.bvfun("ADD", width), (il.FunApp(builder.bvfun("MUL", width), (q, n)), x))


def division_lemma(builder: ProgramBuilder, q: tuple[il.Expr, il.Expr], n: il.Expr, x: tuple[il.Expr, il.Expr],
                   width: int = 32, sums: tuple[il.Expr, il.Expr] | None = None,
                   premises: tuple[il.Expr, ...] = ()) -> il.Expr:
    """Uniqueness of quotient and remainder: ``x1 < n && x2 < n && q1 * n + x1 == q2 * n +
    x2 ==> q1 == q2 && x1 == x2`` (bit-vectors of ``width`` bits; ``q_t``, ``x_t`` of thread
    ``t``).  ``sums``: the two sums in another form than ``_scaled_sum``'s (the kernel's
    own, ``products``); ``premises``: further conjuncts of the premise.

    Valid whenever ``q_t * n + x_t`` does not wrap for ``x_t < n`` (each ``q_t`` below some
    ``Q`` with ``Q * n <= 2^width``): a number below ``Q * n`` has one quotient and one
    remainder by ``n``.  Its instances (``group_coordinates_lemma``) state that condition.
    It spares the solver a bit-level proof that ``q * n + x`` is injective (a
    multiplication, symbolic in ``q`` and often in ``n``)."""
    ult = builder.bvfun("ULT", width)
    if sums is None:
        sums = (_scaled_sum(builder, q[0], n, x[0], width), _scaled_sum(builder, q[1], n, x[1], width))
    premise = il.and_all([il.FunApp(ult, (x[0], n)), il.FunApp(ult, (x[1], n)), *premises,
                          il.BinOp("==", sums[0], sums[1])])
    return il.implies(premise, il.BinOp("&&", il.BinOp("==", q[0], q[1]), il.BinOp("==", x[0], x[1])))


def group_coordinates_lemma(builder: ProgramBuilder, d: str, x1: il.Expr, x2: il.Expr, width: int = 32) -> il.Expr:
    """The global-id lemma of dimension ``d`` (``global_id_lemmas``) for two arbitrary
    coordinates ``x1``, ``x2`` (expressions of ``width`` bits of thread 1 and thread 2) in
    place of the local ids: ``x1 < group_size && x2 < group_size && group_id$1 *
    group_size + x1 == group_id$2 * group_size + x2 ==> group_id$1 == group_id$2 && x1 ==
    x2`` (``division_lemma``).  With ``width`` 64 the coordinates are bv64 and the group ids
    and size are zero-extended (``ZEXT64``), as a kernel with 64-bit offsets computes
    them: that form is valid for every 32-bit id and size (the sum is below ``(group_id +
    1) * group_size <= 2^64``).

    Valid under the launch axioms whenever the dimension's global size (``group_size *
    num_groups``) is below 2^32 (``symbolic_size_axioms``): ``group_id * group_size + x <
    num_groups * group_size`` does not wrap, and a number below the global size has one
    quotient and one remainder by ``group_size``.  Instantiated on the element index of an
    async copy (``vcgen.twothread.async_copies``), whose range ``group_id * n + k``, ``k <
    n``, is a global id in all but name: with both sizes symbolic the solver would
    otherwise need a bit-level proof that the product is injective (minutes)."""
    def widened(e: il.Expr) -> il.Expr:
        return e if width == 32 else il.FunApp(ZEXT64, (e,))
    q = (widened(il.Var(f"group_id_{d}$1")), widened(il.Var(f"group_id_{d}$2")))
    return division_lemma(builder, q, widened(il.Var(f"group_size_{d}")), (x1, x2), width)


def symbolic_launch_attrs(lc: LaunchConfig, max_work_items: int | None = None) -> il.Attrs:
    """Kernel attributes of a launch with symbolic sizes (docs/IL.md): ``{:symbolic_launch
    "*", "1", "1", "*", "1", "1"}``, the group size (x, y, z) then the group count, ``*``
    for a symbolic size, so reports give the sizes of a counterexample and say what a
    proof covers; ``{:max_work_items N}`` for the address-space bound (``buffer_limit``);
    ``{:unspecified_launch}`` when no size was given at all.  Empty for a concrete launch."""
    if not lc.symbolic:
        return ()
    sizes = tuple("*" if s is None else str(s) for s in lc.local_size + lc.num_groups)
    limit = (il.Attr("max_work_items", (il.IntLit(max_work_items),)),) if max_work_items is not None else ()
    return (il.Attr("symbolic_launch", sizes),) + limit + \
        ((il.Attr("unspecified_launch"),) if lc.unspecified else ())
