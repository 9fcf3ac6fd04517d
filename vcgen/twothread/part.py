"""The base of the lock-step transformation's parts that emit IL about the shared state
(``memory.MemoryOps``, ``async_copies.AsyncCopies``, ``warps.Warps``): each works on the
same kernel facts, builder, per-thread naming, access logs and options, which
``transform.Lockstep`` creates once and hands to every part."""
from __future__ import annotations

from .builder import ProgramBuilder
from .kernel import KernelInfo
from .logs import AccessLogs
from .options import LockstepOptions
from .threads import Threads


class TransformPart:
    """``info`` (the one-thread kernel's facts), ``builder`` (where IL is emitted),
    ``threads`` (thread-1/thread-2 naming), ``logs`` (the access logs), ``opts``."""

    def __init__(self, info: KernelInfo, builder: ProgramBuilder, threads: Threads, logs: AccessLogs,
                 opts: LockstepOptions):
        self.info = info
        self.builder = builder
        self.threads = threads
        self.logs = logs
        self.opts = opts
