"""Launch configuration flags, GPUVerify spelling (DESIGN.md section 7).

``--local_size=64``, ``--local_size=[16,16]``, ``--num_groups=[8,8,4]``,
``--global_size=...`` (must be a multiple of the local size), and the CUDA spellings
``--blockDim`` / ``--gridDim``.  Sizes are counts of work items / groups per dimension.
"""
from __future__ import annotations

import re

from .il.errors import ExitCode, ToolError
from .lockstep import LaunchConfig

_DIM = re.compile(r"^\s*\[?\s*(\d+)\s*(?:,\s*(\d+)\s*)?(?:,\s*(\d+)\s*)?\]?\s*$")


def parse_dims(flag: str, text: str) -> tuple:
    """``"64"`` -> (64, 1, 1); ``"[16,16]"`` -> (16, 16, 1).  ToolError(COMMAND_LINE_ERROR) if malformed."""
    m = _DIM.match(text)
    if not m:
        raise ToolError(f"{flag}: expected a positive size or [x,y] / [x,y,z], got {text!r}",
                        ExitCode.COMMAND_LINE_ERROR)
    dims = tuple(int(g) if g else 1 for g in m.groups())
    if any(d <= 0 for d in dims):
        raise ToolError(f"{flag}: sizes must be positive, got {text!r}", ExitCode.COMMAND_LINE_ERROR)
    if any(d >= 2 ** 31 for d in dims):
        raise ToolError(f"{flag}: size {text} too large", ExitCode.COMMAND_LINE_ERROR)
    return dims


def launch_config(local_size=None, num_groups=None, global_size=None, block_dim=None,
                  grid_dim=None, global_offset=None) -> LaunchConfig:
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
    if global_size:
        gs = parse_dims("--global_size", global_size)
        if any(g % l for g, l in zip(gs, ls)):
            raise ToolError(f"--global_size={global_size} is not a multiple of the local size {local}",
                            ExitCode.CONFIGURATION_ERROR)
        ng = tuple(g // l for g, l in zip(gs, ls))
    else:
        ng = parse_dims("--num_groups" if num_groups else "--gridDim", num_groups or grid_dim)
    off = parse_dims("--global_offset", global_offset) if global_offset else (0, 0, 0)
    if global_offset and global_offset.strip() in ("0", "[0]"):
        off = (0, 0, 0)
    return LaunchConfig(ls, ng, off)
