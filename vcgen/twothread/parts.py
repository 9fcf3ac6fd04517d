"""The parts of one lock-step transformation that the candidate rules read
(``vcgen.candidates``): the one-thread kernel, the builder (to declare bit-vector
functions and source numbers), the per-thread naming, the access logs, the warps and the
options.  ``vcgen.twothread.transform.Lockstep`` composes them."""
from __future__ import annotations

from dataclasses import dataclass

from .builder import ProgramBuilder
from .kernel import KernelInfo
from .logs import AccessLogs
from .options import LockstepOptions
from .threads import Threads
from .warps import Warps


@dataclass(frozen=True)
class Parts:
    info: KernelInfo
    builder: ProgramBuilder
    threads: Threads
    logs: AccessLogs
    warps: Warps
    options: LockstepOptions
