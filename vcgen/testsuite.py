"""Corpus runner: runs kernels under the verifier and checks their test headers.

A kernel's header (docs/design.md section 9, the GPUVerify test format) is the run of
``//`` lines at the top of the file::

    //pass                       or //xfail:NAME  (NAME: an exit-code name, see exitcodes)
    //--local_size=64 --num_groups=8              (flags, split shell-style)
    //possible write-read race on .*sdata\\[      (zero or more regular expressions)
    //known_gap: REASON                           (optional, anywhere after line 1)

As in GPUVerify's tester, ``pass``/``xfail`` and the exit-code name are
case-insensitive (``//PASS``, ``//XFAIL:not_all_verified``), ``${KERNEL_DIR}`` in
the flags is the kernel's folder (``--boogie-file=${KERNEL_DIR}/axioms.bpl``), and a
pattern is the text after ``//`` without surrounding whitespace.  The header ends
at the first line that does not start with ``//`` (put a blank line between the
header and any comment). A kernel *passes* when the driver's exit code equals the
expected one and every regular expression is found (``re.search``, MULTILINE) in
the combined stdout+stderr. A kernel marked ``known_gap`` is correct code the tool
cannot verify yet: its failure is reported as a known gap, and its success as an
*unexpected pass* (a failure, so the marker gets removed).

The summary ends with a table of what went wrong (``Verdict``), one ``LABEL: N`` line
each: ``missed: N`` first -- kernels expected to fail (any ``xfail``) whose driver exited 0, i.e.
a wrong "Verified", the soundness count -- then false alarms (expected pass, got
NOT_ALL_VERIFIED), errors (expected pass or NOT_ALL_VERIFIED, got another error exit
such as CLANG_ERROR or BUGLE_ERROR), timeouts (the driver's TIMEOUT exit or the
runner's ``--timeout``), wrong output (right exit code, an expected message
missing), other exit-code mismatches and bad headers.

Command line: ``gpuverify-test DIR_OR_FILE... [-j N] [--driver CMD] [--timeout S]``.
"""
from __future__ import annotations

import enum
import os
import re
import shlex
import signal
import subprocess
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

import click

from .il.errors import ExitCode, code_by_name

KERNEL_SUFFIXES = (".cl", ".cu")
DEFAULT_TIMEOUT = 300.0
_KNOWN_GAP = re.compile(r"//\s*known_gap\s*:\s*(.*?)\s*$")


class HeaderError(ValueError):
    """A kernel whose test header is missing or malformed; message is ``path:line: why``."""


@dataclass(frozen=True)
class Header:
    """The parsed test header of one kernel file.

    ``expected`` is the exit code the driver must return (``SUCCESS`` for
    ``//pass``); ``expected_name`` the name as written (``pass`` or e.g.
    ``BOOGIE_ERROR``); ``flags`` the driver flags; ``patterns`` the regular
    expressions (compiled with ``re.MULTILINE``); ``known_gap`` the reason of a
    ``//known_gap:`` line or None.
    """

    path: Path
    expected: ExitCode
    expected_name: str
    flags: tuple[str, ...]
    patterns: tuple[re.Pattern[str], ...]
    known_gap: str | None = None


class Status(enum.Enum):
    PASS = "PASS"
    FAIL = "FAIL"
    KNOWN_GAP = "KNOWN_GAP"              # marked known gap, and it still fails
    UNEXPECTED_PASS = "UNEXPECTED_PASS"  # marked known gap, but now passes

    @property
    def ok(self) -> bool:
        """True for the statuses that do not fail a test run."""
        return self in (Status.PASS, Status.KNOWN_GAP)


@dataclass(frozen=True)
class Outcome:
    """Result of running one kernel.

    ``returncode`` is None when the driver could not be started or timed out;
    ``output`` is stdout and stderr interleaved; ``missing`` the patterns (as
    text) not found in it; ``error`` a runner-level problem (bad header, driver
    not found, timeout); ``seconds`` the wall-clock time.
    """

    path: Path
    header: Header | None
    returncode: int | None
    output: str
    missing: tuple[str, ...] = ()
    error: str | None = None
    seconds: float = 0.0

    @property
    def matched(self) -> bool:
        """Exit code as expected, every pattern found, no runner error."""
        return (self.error is None and self.header is not None
                and self.returncode == self.header.expected and not self.missing)

    @property
    def status(self) -> Status:
        gap = self.header is not None and self.header.known_gap is not None
        if self.matched:
            return Status.UNEXPECTED_PASS if gap else Status.PASS
        return Status.KNOWN_GAP if gap else Status.FAIL

    def explain(self) -> str:
        """One line saying why the outcome is not a clean match ('' if it is)."""
        if self.error is not None:
            return self.error
        assert self.header is not None
        parts = []
        if self.returncode != self.header.expected:
            parts.append(f"expected {_code_text(self.header.expected)}, "
                         f"got {_code_text(self.returncode)}")
        if self.missing:
            parts.append("missing: " + "; ".join(repr(p) for p in self.missing))
        if not parts and self.header.known_gap is not None:
            parts.append(f"known gap now passes, remove the marker "
                         f"({self.header.known_gap})")
        return ", ".join(parts)


def _code_text(code: int | None) -> str:
    if code is None:
        return "no exit code"
    try:
        return f"{ExitCode(code).name} ({code})"
    except ValueError:
        return f"exit code {code}"


def parse_header(path: str | os.PathLike[str]) -> Header:
    """Parse the test header at the top of a kernel file.

    Raises HeaderError (with ``path:line:``) when the file cannot be read, line 1
    is not ``//pass`` / ``//xfail:NAME`` with a known exit-code name, the flags
    line is missing or not shell-splittable, or a pattern is not a valid Python
    regular expression.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise HeaderError(f"{path}: cannot read: {exc.strerror or exc}") from None
    lines: list[tuple[int, str]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.startswith("//"):
            break
        lines.append((number, line.rstrip()))
    if not lines:
        raise HeaderError(f"{path}:1: missing test header (first line must be "
                          f"//pass or //xfail:NAME)")
    expected, expected_name = _parse_status(path, *lines[0])
    known_gap = None
    rest = []
    for number, line in lines[1:]:
        gap = _KNOWN_GAP.match(line)
        if gap:
            if not gap.group(1):
                raise HeaderError(f"{path}:{number}: //known_gap needs a reason")
            known_gap = gap.group(1)
        else:
            rest.append((number, line))
    if not rest:
        raise HeaderError(f"{path}:2: missing flags line (e.g. "
                          f"//--local_size=64 --num_groups=8)")
    flags = _parse_flags(path, *rest[0])
    patterns = tuple(_parse_pattern(path, number, line) for number, line in rest[1:])
    return Header(path, expected, expected_name, flags, patterns, known_gap)


def _parse_status(path: Path, number: int, line: str) -> tuple[ExitCode, str]:
    body = line[2:].strip()
    if body.lower() == "pass":
        return ExitCode.SUCCESS, "pass"
    if body.lower().startswith("xfail:"):
        name = body[len("xfail:"):].strip().upper()
        try:
            return code_by_name(name), name
        except KeyError:
            known = ", ".join(c.name for c in ExitCode)
            raise HeaderError(f"{path}:{number}: unknown exit-code name {name!r} "
                              f"(known: {known})") from None
    raise HeaderError(f"{path}:{number}: first header line must be //pass or "
                      f"//xfail:NAME, not {line!r}")


KERNEL_DIR = "${KERNEL_DIR}"


def _parse_flags(path: Path, number: int, line: str) -> tuple[str, ...]:
    """The flags of header line ``number``, ``${KERNEL_DIR}`` replaced by the kernel's folder
    (after splitting, so a folder with spaces stays one argument)."""
    try:
        flags = shlex.split(line[2:])
    except ValueError as exc:
        raise HeaderError(f"{path}:{number}: cannot split flags: {exc}") from None
    folder = str(path.parent)
    return tuple(f.replace(KERNEL_DIR, folder) for f in flags)


def _parse_pattern(path: Path, number: int, line: str) -> re.Pattern[str]:
    text = line[2:].strip()
    try:
        return re.compile(text, re.MULTILINE)
    except re.error as exc:
        raise HeaderError(f"{path}:{number}: bad regular expression "
                          f"{text!r}: {exc}") from None


def default_driver() -> list[str]:
    """The ``gpuverify`` command of this interpreter's installation: ``python -m vcgen.driver``."""
    return [sys.executable, "-m", "vcgen.driver"]


def _driver_argv(driver_cmd: str | Sequence[str] | None) -> list[str]:
    if driver_cmd is None:
        return default_driver()
    if isinstance(driver_cmd, str):
        return shlex.split(driver_cmd)
    return list(driver_cmd)


def run_kernel(path: str | os.PathLike[str],
               driver_cmd: str | Sequence[str] | None = None,
               timeout: float = DEFAULT_TIMEOUT) -> Outcome:
    """Run the driver on one kernel with its header's flags and check the result.

    Runs ``DRIVER FLAGS PATH`` (driver_cmd: argv list, a shell-style string, or
    None for ``python -m vcgen.driver``) in its own process group; after
    ``timeout`` seconds the whole group is killed and the outcome is a failure.
    Never raises for a bad header, a missing driver or a timeout: those become
    the outcome's ``error``.
    """
    path = Path(path)
    try:
        header = parse_header(path)
    except HeaderError as exc:
        return Outcome(path, None, None, "", error=f"bad header: {exc}")
    argv = _driver_argv(driver_cmd) + list(header.flags) + [str(path)]
    start = time.monotonic()
    try:
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
    except OSError as exc:
        return Outcome(path, header, None, "",
                       error=f"cannot start driver {argv[0]!r}: {exc.strerror or exc}")
    try:
        raw, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        raw, _ = proc.communicate()
        output = raw.decode("utf-8", errors="replace")
        return Outcome(path, header, None, output,
                       error=f"timed out after {timeout:g}s",
                       seconds=time.monotonic() - start)
    output = raw.decode("utf-8", errors="replace")
    missing = tuple(p.pattern for p in header.patterns if not p.search(output))
    return Outcome(path, header, proc.returncode, output, missing,
                   seconds=time.monotonic() - start)


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    """Kill the driver and everything it started (its own session/process group)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        proc.kill()


def collect_kernels(paths: Iterable[str | os.PathLike[str]]) -> list[Path]:
    """Kernel files (``*.cl``, ``*.cu``) under the given files/directories, sorted per argument.

    Raises FileNotFoundError for a path that does not exist.
    """
    found: list[Path] = []
    for item in paths:
        p = Path(item)
        if p.is_dir():
            found.extend(sorted(q for q in p.rglob("*")
                                if q.suffix in KERNEL_SUFFIXES and q.is_file()))
        elif p.is_file():
            found.append(p)
        else:
            raise FileNotFoundError(f"no such file or directory: {p}")
    return found


class Verdict(enum.Enum):
    """What went wrong with a kernel, for the summary table (None when nothing did)."""
    MISSED = ("missed", "expected to fail (xfail), exit 0: a wrong Verified")
    FALSE_ALARM = ("false alarms", "expected pass, got NOT_ALL_VERIFIED")
    ERROR = ("errors", "expected pass or NOT_ALL_VERIFIED, got another error exit")
    TIMEOUT = ("timeouts", "the driver's TIMEOUT exit or the runner's --timeout")
    WRONG_OUTPUT = ("wrong output", "right exit code, an expected message missing")
    OTHER = ("other mismatches", "another exit code than the xfail expects")
    BAD_HEADER = ("bad headers", "header missing or malformed; not run")

    @property
    def label(self) -> str:
        return self.value[0]

    @property
    def meaning(self) -> str:
        return self.value[1]


_AS_EXPECTED = (ExitCode.SUCCESS, ExitCode.NOT_ALL_VERIFIED)


def verdict(outcome: Outcome) -> Verdict | None:
    """The summary category of one outcome; None if it matched its header."""
    header, code = outcome.header, outcome.returncode
    if header is None:
        return Verdict.BAD_HEADER if (outcome.error or "").startswith("bad header") \
            else Verdict.ERROR
    if outcome.matched:
        return None
    if header.expected is not ExitCode.SUCCESS and code == ExitCode.SUCCESS:
        return Verdict.MISSED
    if code is None and outcome.error and outcome.error.startswith("timed out"):
        return Verdict.TIMEOUT
    if code == ExitCode.TIMEOUT and header.expected is not ExitCode.TIMEOUT:
        return Verdict.TIMEOUT
    if code == header.expected:
        return Verdict.WRONG_OUTPUT
    if header.expected is ExitCode.SUCCESS and code == ExitCode.NOT_ALL_VERIFIED:
        return Verdict.FALSE_ALARM
    if header.expected in _AS_EXPECTED and code not in _AS_EXPECTED:
        return Verdict.ERROR  # also a driver that could not be started (code None)
    return Verdict.OTHER


def verdict_table(outcomes: Sequence[Outcome]) -> list[str]:
    """One ``LABEL: N`` line per ``Verdict`` in declaration order (``missed: N`` first),
    then one ``missed kernel: PATH`` line per missed kernel."""
    counts = Counter(verdict(o) for o in outcomes)
    lines = [f"{v.label}: {counts[v]}" for v in Verdict]
    lines += [f"missed kernel: {o.path}" for o in outcomes if verdict(o) is Verdict.MISSED]
    return lines


def summarize(outcomes: Sequence[Outcome]) -> list[str]:
    """Summary lines: totals, counts per expected result, known gaps, then the
    ``verdict_table``."""
    statuses = Counter(o.status for o in outcomes)
    failed = statuses[Status.FAIL] + statuses[Status.UNEXPECTED_PASS]
    passed = statuses[Status.PASS]
    lines = [f"{passed} passed, {failed} failed"
             + (f", {statuses[Status.KNOWN_GAP]} known gaps" if statuses[Status.KNOWN_GAP] else "")
             + (f" ({statuses[Status.UNEXPECTED_PASS]} known gaps passed unexpectedly)"
                if statuses[Status.UNEXPECTED_PASS] else "")]
    total: Counter[str] = Counter()
    ok: Counter[str] = Counter()
    for o in outcomes:
        name = o.header.expected_name if o.header else "bad header"
        total[name] += 1
        ok[name] += o.status is Status.PASS
    lines.append("by expected result: " + ", ".join(
        f"{name}: {ok[name]}/{total[name]}" for name in sorted(total)))
    for o in outcomes:
        if o.status is Status.KNOWN_GAP and o.header is not None:
            lines.append(f"known gap: {o.path}: {o.header.known_gap}")
    return lines + verdict_table(outcomes)


def _line_for(outcome: Outcome) -> str:
    status = outcome.status
    expected = outcome.header.expected_name if outcome.header else "?"
    line = f"{status.value:<15} {outcome.path} ({expected}, {outcome.seconds:.1f}s)"
    if status is not Status.PASS:
        line += ": " + outcome.explain()
    return line


def _epilog() -> str:
    rows = "\n".join(f"  {v.label}: {v.meaning}" for v in Verdict)
    return "\b\nThe summary ends with one line per kind of failure:\n" + rows


@click.command(context_settings={"help_option_names": ["-h", "--help"]}, epilog=_epilog())
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("-j", "--jobs", default=1, show_default=True, type=click.IntRange(min=1),
              help="Kernels to run in parallel.")
@click.option("--driver", "driver", default=None, metavar="CMD",
              help="Verifier command (shell-style); default: python -m vcgen.driver.")
@click.option("--timeout", default=DEFAULT_TIMEOUT, show_default=True,
              type=click.FloatRange(min=0, min_open=True),
              help="Seconds per kernel before it counts as failed.")
@click.option("-v", "--verbose", is_flag=True, help="Print the output of failing kernels.")
def main(paths: tuple[str, ...], jobs: int, driver: str | None, timeout: float,
         verbose: bool) -> None:
    """Run every kernel (*.cl, *.cu) under PATHS and check its test header."""
    try:
        kernels = collect_kernels(paths)
        driver_argv = _driver_argv(driver)
    except (FileNotFoundError, ValueError) as exc:
        raise click.UsageError(str(exc)) from None
    if not kernels:
        raise click.UsageError("no kernels (*.cl, *.cu) found")
    outcomes: list[Outcome] = []
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(run_kernel, k, driver_argv, timeout) for k in kernels]
        try:
            for future in as_completed(futures):
                outcome = future.result()
                outcomes.append(outcome)
                click.echo(_line_for(outcome))
                if verbose and not outcome.status.ok and outcome.output:
                    click.echo(_indent(outcome.output))
        except KeyboardInterrupt:
            for f in futures:
                f.cancel()
            click.echo("interrupted", err=True)
            sys.exit(ExitCode.CTRL_C)
    for line in summarize(outcomes):
        click.echo(line)
    sys.exit(0 if all(o.status.ok for o in outcomes) else 1)


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.rstrip().splitlines())


if __name__ == "__main__":
    main()
