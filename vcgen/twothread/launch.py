"""The launch configuration: its flags, GPUVerify spelling (docs/design.md section 7), and
the axioms that fix the sizes and constrain the two threads' ids (paper 000 section 4,
docs/design.md section 5.1).

``--local_size=64``, ``--local_size=[16,16]``, ``--num_groups=[8,8,4]``,
``--global_size=...`` (must be a multiple of the local size), and the CUDA spellings
``--blockDim`` / ``--gridDim``.  Sizes are counts of work items / groups per dimension.
"""
from __future__ import annotations

import re

from .. import il
from ..il.errors import ExitCode, ToolError
from .builder import ProgramBuilder
from .kernel import DIMS, two_threads_exist
from .options import LaunchConfig, LockstepOptions
from .threads import THREADS, Threads

_DIM = re.compile(r"^\s*\[?\s*(\d+)\s*(?:,\s*(\d+)\s*)?(?:,\s*(\d+)\s*)?\]?\s*$")


def parse_dims(flag: str, text: str) -> tuple[int, int, int]:
    """``"64"`` -> (64, 1, 1); ``"[16,16]"`` -> (16, 16, 1).  ToolError(COMMAND_LINE_ERROR) if malformed."""
    m = _DIM.match(text)
    if not m:
        raise ToolError(f"{flag}: expected a positive size or [x,y] / [x,y,z], got {text!r}",
                        ExitCode.COMMAND_LINE_ERROR)
    x, y, z = (int(g) if g else 1 for g in m.groups())
    dims = (x, y, z)
    if any(d <= 0 for d in dims):
        raise ToolError(f"{flag}: sizes must be positive, got {text!r}", ExitCode.COMMAND_LINE_ERROR)
    if any(d >= 2 ** 31 for d in dims):
        raise ToolError(f"{flag}: size {text} too large", ExitCode.COMMAND_LINE_ERROR)
    return dims


def launch_config(local_size: str | None = None, num_groups: str | None = None, global_size: str | None = None,
                  block_dim: str | None = None, grid_dim: str | None = None,
                  global_offset: str | None = None) -> LaunchConfig:
    """Combine the launch flags into a LaunchConfig.

    Raises ToolError: COMMAND_LINE_ERROR when sizes are missing or given twice,
    CONFIGURATION_ERROR when the global size is not a multiple of the local size.
    """
    local = local_size or block_dim
    if local_size and block_dim:
        raise ToolError("give either --local_size or --blockDim, not both", ExitCode.COMMAND_LINE_ERROR)
    given = [x for x in (num_groups, global_size, grid_dim) if x]
    if len(given) > 1:
        raise ToolError("give only one of --num_groups, --global_size and --gridDim", ExitCode.COMMAND_LINE_ERROR)
    if not local or not given:
        raise ToolError("a launch configuration is needed: --local_size and --num_groups (or --global_size), "
                        "or --blockDim and --gridDim", ExitCode.COMMAND_LINE_ERROR)
    ls = parse_dims("--local_size" if local_size else "--blockDim", local)
    counts = num_groups or grid_dim
    if global_size:
        gs = parse_dims("--global_size", global_size)
        if any(g % l for g, l in zip(gs, ls)):
            raise ToolError(f"--global_size={global_size} is not a multiple of the local size {local}",
                            ExitCode.CONFIGURATION_ERROR)
        ng = (gs[0] // ls[0], gs[1] // ls[1], gs[2] // ls[2])
    else:
        assert counts is not None  # one of the three sizes is given (checked above)
        ng = parse_dims("--num_groups" if num_groups else "--gridDim", counts)
    off = parse_dims("--global_offset", global_offset) if global_offset else (0, 0, 0)
    if global_offset and global_offset.strip() in ("0", "[0]"):
        off = (0, 0, 0)
    return LaunchConfig(ls, ng, off)


def launch_axioms(consts: dict[str, il.ConstDecl], opts: LockstepOptions, builder: ProgramBuilder,
                  threads: Threads) -> list[il.AxiomDecl]:
    """Axioms of the launch: sizes and offsets equal the configuration, each thread's ids
    below the sizes, the threads distinct when in one group (``{:distinct_threads}``; only
    when the launch has two threads, ``two_threads_exist``) and,
    with ``--only-intra-group``, in one group.  ``consts``: the program's constants (only
    the declared ids and sizes are constrained)."""
    lc, out = opts.launch, []
    ty = {n: d.type for n, d in consts.items()}

    def lit(name: str, v: int) -> il.Expr:
        t = ty[name]
        return il.BvLit(v, t.width) if isinstance(t, il.BvType) else il.IntLit(v)

    def ult(a: str, b: str) -> il.Expr:
        t = ty[b]
        assert isinstance(t, il.BvType)
        return il.FunApp(builder.bvfun("ULT", t.width), (il.Var(a), il.Var(b)))

    for i, d in enumerate(DIMS):
        for name, val in ((f"group_size_{d}", lc.local_size[i]), (f"num_groups_{d}", lc.num_groups[i]),
                          (f"global_offset_{d}", lc.global_offset[i])):
            if name in ty:
                out.append(il.AxiomDecl(il.BinOp("==", il.Var(name), lit(name, val))))
        for t in THREADS:
            if f"local_id_{d}" in ty and f"group_size_{d}" in ty:
                out.append(il.AxiomDecl(ult(f"local_id_{d}${t}", f"group_size_{d}")))
            if f"group_id_{d}" in ty and f"num_groups_{d}" in ty:
                out.append(il.AxiomDecl(ult(f"group_id_{d}${t}", f"num_groups_{d}")))
    if two_threads_exist(opts):  # else the pair is one thread twice (docs/design.md 5.1)
        distinct_local = il.or_all(il.BinOp("!=", il.Var(f"local_id_{d}$1"), il.Var(f"local_id_{d}$2"))
                                   for d in DIMS if f"local_id_{d}" in ty)
        out.append(il.AxiomDecl(il.implies(threads.same_group(), distinct_local), (il.Attr("distinct_threads"),)))
    if opts.only_intra_group:
        out.append(il.AxiomDecl(threads.same_group(), (il.Attr("only_intra_group"),)))
    return out
