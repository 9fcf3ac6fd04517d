"""What verification finds, as data: ``VerificationResult`` (the verdict) and its
``ErrorRecord``s (one per failing check: kind, source locations, both threads' ids, the
racing element, the kernel's scalar arguments).  Rendered by ``render`` (text or JSON).
Verdicts and exit codes: docs/design.md section 7."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..il.attributes import SourceLoc
from ..il.errors import ExitCode
from ..inference.houdini import HoudiniStats


@dataclass(frozen=True)
class ThreadInfo:
    """Ids of one of the two threads (``thread`` 1 or 2), each an (x, y, z) tuple."""
    thread: int
    local_id: tuple[int, int, int]
    group_id: tuple[int, int, int]
    global_id: tuple[int, int, int]


@dataclass(frozen=True)
class Launch:
    """Launch sizes, each an (x, y, z) tuple: ``local_size`` work items per group (CUDA
    ``blockDim``), ``num_groups`` groups (``gridDim``); in a ``VerificationResult`` the
    sizes a proof covers, None for a symbolic size (``*``).  ``max_work_items``: the bound
    on the work items of the whole launch that a proof with symbolic sizes assumes (a
    global buffer with one element per work item fits the 32-bit address space,
    ``vcgen/twothread/launch.py``), None if none."""
    local_size: tuple
    num_groups: tuple
    max_work_items: int | None = None

    def as_dict(self) -> dict[str, object]:
        return {"local_size": list(self.local_size), "num_groups": list(self.num_groups)}


@dataclass
class ErrorRecord:
    """One failing check.  ``kind`` is one of ``race``, ``barrier_divergence``,
    ``user_assert``, ``null_pointer``, ``constant_write``, ``array_bounds``, ``invariant_entry``,
    ``invariant_maintained``, ``postcondition``, ``precondition``, ``assertion``.  For
    races, ``location``/``thread`` are thread 2's (checked) access and ``other_*`` thread
    1's (logged) access; ``access_kinds`` is (thread 1's, thread 2's), e.g. ("write",
    "read").  For a precondition checked at a call, ``location`` is the call and
    ``other_location`` the ``__requires``."""
    kind: str
    location: SourceLoc | None
    thread: ThreadInfo | None
    label: str
    access_kinds: tuple[str, ...] = ()
    array: str | None = None
    element: str | None = None
    other_location: SourceLoc | None = None
    other_thread: ThreadInfo | None = None
    args: dict[str, object] = field(default_factory=dict)  # scalar kernel argument -> value
    array_name: str | None = None  # source name of an out-of-bounds array
    message: str | None = None  # what is unsupported (kind ``unsupported``)
    launch: Launch | None = None  # the sizes of the counterexample, when the sizes are symbolic
    # or read from the host code
    launch_site: str | None = None  # where the host code launches with these sizes (k.cu:42:3)

    def as_dict(self) -> dict[str, object]:
        """The JSON form (``--json``)."""
        def th(t: ThreadInfo | None) -> dict[str, object] | None:
            return None if t is None else {"thread": t.thread, "local_id": list(t.local_id),
                                           "group_id": list(t.group_id), "global_id": list(t.global_id)}
        def loc(l: SourceLoc | None) -> dict[str, object] | None:
            return None if l is None else {"file": l.file, "line": l.line, "column": l.col,
                                           **({"external": True} if l.external else {})}
        return {"kind": self.kind, "location": loc(self.location), "thread": th(self.thread),
                "race": "-".join(self.access_kinds) or None, "array": self.array,
                "element": self.element, "other_location": loc(self.other_location),
                "other_thread": th(self.other_thread), "kernel_args": self.args,
                "label": self.label, "message": self.message,
                "launch": self.launch.as_dict() if self.launch is not None else None,
                "launch_site": self.launch_site}


@dataclass
class VerificationResult:
    """The verdict on one kernel.  ``status``: ``verified`` | ``no_bugs_found`` (findbugs) |
    ``errors`` | ``vacuous`` | ``unknown`` | ``timeout``; ``file``: the name reports use;
    ``dims``: 1 when ids print as numbers, 3 as triples; ``claims``: what was proved;
    ``timeout``: seconds per query; ``search_dirs``: where source lines are looked up;
    ``launch``: the sizes when some are symbolic (None: every size given), and
    ``launch_unspecified`` when no size was given at all."""
    status: str
    file: str
    language: str = "opencl"
    dims: int = 1
    errors: list[ErrorRecord] = field(default_factory=list)
    reason: str = ""
    findbugs: bool = False
    unwind: int | None = None
    houdini: HoudiniStats | None = None
    claims: list[str] = field(default_factory=list)
    timeout: float | None = None
    seconds: float = 0.0
    search_dirs: tuple[str, ...] = ()
    launch: Launch | None = None
    launch_unspecified: bool = False

    @property
    def exit_code(self) -> int:
        """0 verified / no bugs found, 7 timeout, else 6 (docs/design.md section 7)."""
        return int({"verified": ExitCode.SUCCESS, "no_bugs_found": ExitCode.SUCCESS,
                    "timeout": ExitCode.TIMEOUT}.get(self.status, ExitCode.NOT_ALL_VERIFIED))

    def as_dict(self) -> dict[str, object]:
        """The JSON form (``--json``)."""
        return {"file": self.file, "status": self.status, "exit_code": self.exit_code,
                "reason": self.reason, "findbugs": self.findbugs, "loop_unwind": self.unwind,
                "language": self.language, "claims": self.claims,
                "errors": [e.as_dict() for e in self.errors],
                "launch": self.launch.as_dict() if self.launch is not None else None,
                "houdini": self.houdini.as_dict() if self.houdini else None,
                "seconds": round(self.seconds, 3)}
