"""Options of the two-thread reduction (``vcgen lockstep``; docs/design.md section 5)."""
from __future__ import annotations

from dataclasses import dataclass, field

Size = int | None
"""A launch size in one dimension: a count, or None for a symbolic size (``*``)."""
Dims = tuple[Size, Size, Size]


@dataclass(frozen=True)
class LaunchConfig:
    """Launch sizes per dimension (x, y, z); 1 for unused dimensions, None for a symbolic
    size (``*``, docs/design.md section 5.1).  ``local_size`` is work items (threads) per
    group, ``num_groups`` groups (blocks) per grid.  ``global_size`` is kept only when it
    fixes a product of symbolic sizes (``--global_size=1024 --local_size=*``: the group
    count is then symbolic too, with ``local * groups == global``).  ``unspecified``: no
    size was given at all, so every size is symbolic (said in the report).  ``work_dim``:
    the number of dimensions the flags write (``get_work_dim()``; None when unspecified)."""
    local_size: Dims = (1, 1, 1)
    num_groups: Dims = (1, 1, 1)
    global_offset: tuple[int, int, int] = (0, 0, 0)
    global_size: Dims | None = None
    unspecified: bool = False
    work_dim: int | None = None

    @property
    def group_threads(self) -> int | None:
        """Work items per group (the product of ``local_size``); None when symbolic."""
        x, y, z = self.local_size
        return None if x is None or y is None or z is None else x * y * z

    @property
    def symbolic(self) -> bool:
        """Is some size symbolic?"""
        return None in self.local_size or None in self.num_groups


@dataclass(frozen=True)
class LockstepOptions:
    """``only_intra_group``: pairs of threads of one group only; ``only_divergence``: every
    array adversarial and unlogged (barrier divergence only); ``benign_tolerance``:
    same-value write-write races are not races; ``infer``: generate candidate invariants;
    ``warp_sync``: warp size when warps run in lock-step (pre-Volta CUDA), else None;
    ``check_array_bounds``: ``{:array_bounds}`` checks on arrays with ``{:elem_count}``;
    ``kernel_args``: a ``--kernel-args`` spec fixing scalar arguments (``kernel_args``);
    ``invariants_as_candidates``: user loop invariants become Houdini candidates;
    ``asymmetric_asserts``: annotations are instantiated for the first thread only;
    ``only_log``: accesses are logged, races not checked (for annotations on the logs);
    ``check_arrays``: source names of the only arrays logged and checked (None: all);
    ``annotations``: ``all``, ``requires`` (only ``__requires`` kept) or ``none``
    (``vcgen.twothread.user_annotations``); ``no_barrier_access_checks``: barrier
    invariants are checked without their permission checks (GPUVerify's
    ``--no-barrier-access-checks``, ``vcgen.twothread.barrier_invariants``)."""
    launch: LaunchConfig = field(default_factory=LaunchConfig)
    only_intra_group: bool = False
    only_divergence: bool = False
    benign_tolerance: bool = True
    infer: bool = True
    warp_sync: int | None = None
    check_array_bounds: bool = False
    kernel_args: str | None = None
    invariants_as_candidates: bool = False
    asymmetric_asserts: bool = False
    only_log: bool = False
    check_arrays: tuple[str, ...] | None = None
    annotations: str = "all"
    no_barrier_access_checks: bool = False
