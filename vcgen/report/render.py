"""Render a ``VerificationResult`` as GPUVerify-compatible text or as JSON.

The wording follows docs/design.md section 7 exactly (users match it with regular expressions):

    kernel.cl: error: possible write-write race on p[5]:

    Write by work item 5 with local id 5 in work group 0, kernel.cl:13:3:
      p[get_global_id(0) + 1] = get_global_id(0);

Each location is followed by its source line (read from the file named by the location,
looked up as given, then in ``result.search_dirs``; omitted if unreadable).  Ids print as
a number in 1-D launches and as ``(x, y, z)`` otherwise.
"""
from __future__ import annotations

import json
import os
from functools import lru_cache
from importlib import resources

import jinja2

from ..il.attributes import SourceLoc
from .results import ErrorRecord, Launch, ThreadInfo, VerificationResult

VACUITY_WARNING = ("warning: the preconditions or launch constraints are contradictory; "
                   "the verification is vacuous")
SPURIOUS_NOTE = ("note: bug-finding mode (loops unwound {n} times): reports are executions of "
                 "the abstract program (arbitrary values for abstracted shared memory, "
                 "uninterpreted floating point) and may be spurious")


def _file_lines(path: str) -> tuple[str, ...] | None:
    """Lines of ``path`` (None if unreadable); cached by absolute path and mtime, so
    in-process runs from other directories or on edited files never see stale text."""
    try:
        full = os.path.abspath(path)
        return _read_lines(full, os.stat(full).st_mtime_ns)
    except OSError:
        return None


@lru_cache(maxsize=64)
def _read_lines(path: str, _mtime: int) -> tuple[str, ...]:
    with open(path, errors="replace") as f:
        return tuple(f.read().splitlines())


def source_line(loc: SourceLoc | None, search_dirs: tuple[str, ...] = ()) -> str | None:
    """The text of ``loc``'s line, stripped, or None if the file cannot be read."""
    if loc is None or loc.line <= 0:
        return None
    candidates = [loc.file] + [os.path.join(d, os.path.basename(loc.file)) for d in search_dirs] \
        + [os.path.join(d, loc.file) for d in search_dirs]
    for path in candidates:
        lines = _file_lines(path)
        if lines is not None and loc.line <= len(lines):
            return lines[loc.line - 1].strip()
    return None


def _ids(t: tuple[int, int, int], dims: int) -> str:
    return str(t[0]) if dims == 1 else f"({t[0]}, {t[1]}, {t[2]})"


def describe_thread(t: ThreadInfo, language: str, dims: int) -> str:
    """``work item N with local id L in work group G`` (OpenCL) or
    ``thread L in thread block G (global id N)`` (CUDA)."""
    if language == "cuda":
        return (f"thread {_ids(t.local_id, dims)} in thread block {_ids(t.group_id, dims)} "
                f"(global id {_ids(t.global_id, dims)})")
    return (f"work item {_ids(t.global_id, dims)} with local id {_ids(t.local_id, dims)} "
            f"in work group {_ids(t.group_id, dims)}")


def _triple(t: tuple) -> str:
    return "(" + ", ".join("*" if x is None else str(x) for x in t) + ")"


def describe_launch(launch: Launch, language: str) -> str:
    """``blockDim = (64, 1, 1), gridDim = (2, 1, 1)`` (CUDA) or ``local_size = (64, 1, 1),
    num_groups = (2, 1, 1)`` (OpenCL); ``*`` for a symbolic size."""
    block, grid = ("blockDim", "gridDim") if language == "cuda" else ("local_size", "num_groups")
    return f"{block} = {_triple(launch.local_size)}, {grid} = {_triple(launch.num_groups)}"


def launch_claim(launch: Launch, language: str, unspecified: bool) -> str:
    """What a proof with symbolic sizes covers (vcgen/twothread/launch.py: the device limits)."""
    per_group = "threads per block" if language == "cuda" else "work items per work group"
    per_dim = "threads" if language == "cuda" else "work items"
    given = " (no launch size was given: every size is symbolic)" if unspecified else ""
    buffers = "" if launch.max_work_items is None else \
        (f" and at most {launch.max_work_items} {per_dim} in all (a global buffer with one element per "
         f"{per_dim[:-1]} fits the 32-bit address space)")
    return (f"for every launch with {describe_launch(launch, language)}, * being any size with at most "
            f"1024 {per_group} and fewer than 2^32 {per_dim} per grid dimension{buffers}{given}")


def _with_line(head: str, loc: SourceLoc | None, dirs: tuple[str, ...]) -> list[str]:
    line = source_line(loc, dirs)
    return [head] + ([f"  {line}"] if line is not None else [])


def _prefix(loc: SourceLoc | None, fallback: str) -> str:
    return str(loc) if loc is not None else fallback


def _access_at(loc: SourceLoc | None) -> str:
    """``, k.cl:13:3:`` after the thread of a race report; an access of an external routine
    (a specification function, ``bugle.spec_functions``) is "from external source location"
    (GPUVerify's words), with the call that made it."""
    if loc is None:
        return ":"
    if loc.external:
        return f", from external source location (the call at {loc}):"
    return f", {loc}:"


def render_error(e: ErrorRecord, r: VerificationResult) -> list[str]:
    """Lines of one error report."""
    lang, dims, dirs = r.language, r.dims, r.search_dirs
    who = describe_thread(e.thread, lang, dims) if e.thread else "a thread"
    for_who = f" for {who}" if e.thread else ""
    where = _prefix(e.location, r.file)
    if e.kind == "race":
        file = e.location.file if e.location else r.file
        k1, k2 = e.access_kinds
        out = [f"{file}: error: possible {k1}-{k2} race on {e.element}:", ""]
        other = describe_thread(e.other_thread, lang, dims) if e.other_thread else "a thread"
        out += _with_line(f"{k1.capitalize()} by {other}{_access_at(e.other_location)}", e.other_location, dirs)
        out.append("")
        out += _with_line(f"{k2.capitalize()} by {who}{_access_at(e.location)}", e.location, dirs)
    else:
        msg = {
            "barrier_divergence": "barrier may be reached by non-uniform control flow",
            "user_assert": f"this assertion might not hold for {who}",
            "null_pointer": f"possible null pointer access for {who}",
            "constant_write": f"possible attempt to modify constant memory by {who}",
            # an LLVM ``unreachable`` is GPUVerify's ``assert false`` (its wording first)
            "unreachable": f"this assertion might not hold for {who}: unreachable code may be reached",
            "barrier_invariant": f"this barrier invariant might not hold for {who}",
            "barrier_invariant_access_check": "insufficient permission may be held for evaluation of this "
                                              f"barrier invariant by {who}",
            "array_bounds": f"possible array out-of-bounds access on array "
                            f"{e.array_name or '?'} by {who}",
            # `` for work item 5 ...`` when the check names a thread (GPUVerify's shape)
            "invariant_entry": f"loop invariant might not hold on entry{for_who}",
            "invariant_maintained": f"loop invariant might not be maintained by the loop{for_who}",
            "postcondition": "postcondition might not hold on all return paths",
            "precondition": "a precondition for this call might not hold",
            "unsupported": f"{e.message} (reached by {who})",
        }.get(e.kind, f"this assertion might not hold for {who}")
        out = _with_line(f"{where}: error: {msg}", e.location, dirs)
        if e.kind == "precondition" and e.other_location is not None:
            out += _with_line(f"{e.other_location}: note: this is the precondition that might not hold",
                              e.other_location, dirs)
        if e.kind in ("postcondition", "precondition") and e.thread:
            out.append(f"note: it fails for {who}")
    if e.launch is not None:
        out.append(f"Launch with {describe_launch(e.launch, lang)}")
        if e.launch_site:
            out.append(f"Launched at {e.launch_site} (sizes read from the host code)")
    if e.args:
        out.append("Kernel arguments: " + ", ".join(f"{k} = {v}" for k, v in e.args.items()))
    return out


@lru_cache(maxsize=1)
def _verdict_template() -> jinja2.Template:
    """``templates/verdict.txt.j2``: the closing lines of a report, per status.  The folder
    is installed as the resource package ``vcgen.templates`` (pyproject.toml)."""
    templates = resources.files("vcgen.templates")
    env = jinja2.Environment(loader=jinja2.FunctionLoader(
                                 lambda name: templates.joinpath(name).read_text(encoding="utf-8")),
                             keep_trailing_newline=True, autoescape=False)
    return env.get_template("verdict.txt.j2")


def render_report(result: VerificationResult, as_json: bool = False) -> str:
    """The report text (``as_json``: the JSON form instead), newline-terminated."""
    if as_json:
        return json.dumps(result.as_dict(), indent=2) + "\n"
    lines: list = []
    for i, e in enumerate(result.errors):
        if i:
            lines.append("")
        lines += render_error(e, result)
    if result.errors and result.reason:
        lines += ["", f"note: {result.reason}"]
    if result.launch_unspecified and result.errors:
        lines += ["", "note: no launch size was given: every size is symbolic (give --local_size/--num_groups "
                  "or --blockDim/--gridDim to fix them)"]
    if result.findbugs and result.errors:
        lines += ["", SPURIOUS_NOTE.format(n=result.unwind)]
    claims = result.claims
    if result.launch is not None and claims:
        claims = claims + [launch_claim(result.launch, result.language, result.launch_unspecified)]
    verdict = _verdict_template().render(
        status=result.status, file=result.file, claims=claims, unwind=result.unwind,
        vacuity_warning=VACUITY_WARNING, timeout=result.timeout, reason=result.reason,
        dropped_on_unknown=result.houdini.dropped_on_unknown if result.houdini is not None else 0)
    lines += verdict.splitlines()
    return "\n".join(lines) + "\n"
