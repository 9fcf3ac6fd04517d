"""Barrier and index mutants of the correct corpus kernels (``make mutants``).

For every corpus kernel whose header says ``//pass`` (and has no ``known_gap``), source
mutants are generated:

* ``del-barrier-K@L:C`` -- the K-th barrier call (``barrier(...)``,
  ``work_group_barrier(...)``, ``__syncthreads()``, ``__syncwarp(...)``) is deleted:
  ``barrier(F);`` becomes ``;`` (line numbers stay); a barrier with a value, ``__syncthreads_count(e)``
  (``_or``, ``_and``), becomes ``(e)``;
* ``shift-NAME-K@L:C`` -- the K-th indexing ``NAME[e]`` of a group-shared array NAME
  (``__local``/``__shared__`` declarations and ``__local`` pointer parameters) becomes
  ``NAME[(e) + 1]`` (first index only).

Each mutant is written to a temporary directory under the kernel's file name and run with
``python -m vcgen.driver FLAGS MUTANT`` (FLAGS from the original header).  The outcome is

* ``race``     -- exit code NOT_ALL_VERIFIED (a race, divergence or failed assertion was
                  reported; the first error line is kept as the reason, for information);
* ``verified`` -- exit code 0.  Expected only with a human-written reason saying why the
                  mutation is harmless (e.g. "barrier redundant: each thread reads only
                  what it wrote");
* ``error``    -- any other exit code or a timeout (reason: code name and message).

``corpus/mutants.expected`` has one line per mutant:
``KERNEL  MUTATION  OUTCOME  REASON`` (fields separated by two or more spaces; ``#``
comments).  ``python tests/mutants.py record`` (re)writes it, keeping the reasons already
written for mutants whose outcome did not change; ``python tests/mutants.py check``
re-runs every mutant and fails (exit 1) when an outcome differs from the record, a mutant
is missing from the record or the record has a mutant that no longer exists, or a
``verified`` line has no reason.  Options: ``-j N`` parallel runs, ``--timeout S`` per
mutant, ``--only SUBSTRING`` to restrict kernels (check then ignores other records),
``record --pending`` re-runs only the mutants that are unrecorded or recorded as ``error``
(records of mutants that are no longer generated are dropped).
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vcgen.il.errors import ExitCode  # noqa: E402
from vcgen.testsuite import parse_header  # noqa: E402

EXPECTED = ROOT / "corpus" / "mutants.expected"
DEFAULT_TIMEOUT = 1800  # seconds; blelloch_scan shift-temp-1 needs 10-11 min even on a quiet machine
OUTCOMES = ("race", "verified", "error")
_BARRIER = re.compile(r"\b(?:work_group_barrier|barrier|__syncwarp|__syncthreads(_count|_or|_and)?)\s*\(")
_SHARED_DECL = re.compile(r"\b(?:__local|__shared__|local)\s+(?:(?:const|volatile|unsigned|signed|long|short|struct)\s+)*"
                          r"\w+(?:\s*(\*)\s*|\s+)(?:const\s+)?(\w+)\s*(\[)?")


@dataclass(frozen=True)
class Mutant:
    kernel: str  # path relative to the repository root
    mutation: str  # e.g. "del-barrier-2@14:5"
    source: str  # mutated source text


@dataclass
class Record:
    kernel: str
    mutation: str
    outcome: str
    reason: str = ""

    def line(self) -> str:
        return f"{self.kernel}  {self.mutation}  {self.outcome}  {self.reason}".rstrip()


# ---------------------------------------------------------------------- generation


def _mask_comments(text: str) -> str:
    """``text`` with comments, string and character literals replaced by spaces
    (same length and line structure) so that searches skip them."""
    out = list(text)
    i, n = 0, len(text)
    while i < n:
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
        elif text[i] in "\"'":
            j = i + 1
            while j < n and text[j] != text[i]:
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
        else:
            i += 1
            continue
        for k in range(i, j):
            if out[k] != "\n":
                out[k] = " "
        i = j
    return "".join(out)


def _matching(masked: str, open_at: int) -> int:
    """Index of the bracket closing the one at ``open_at`` (``(`` or ``[``)."""
    pairs = {"(": ")", "[": "]"}
    stack = []
    for i in range(open_at, len(masked)):
        c = masked[i]
        if c in pairs:
            stack.append(pairs[c])
        elif stack and c == stack[-1]:
            stack.pop()
            if not stack:
                return i
    raise ValueError(f"unbalanced bracket at offset {open_at}")


def _position(text: str, offset: int) -> str:
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return f"{line}:{col}"


def barrier_mutants(kernel: str, text: str) -> list:
    """One mutant per barrier call of ``text``, the call and its ``;`` replaced by ``;``;
    a barrier with a value (``__syncthreads_count/_or/_and(e)``) is replaced by ``(e)``."""
    masked = _mask_comments(text)
    out = []
    for k, m in enumerate(_BARRIER.finditer(masked), 1):
        close = _matching(masked, m.end() - 1)
        if _is_declaration(masked, m.start()):
            continue
        if m.group(1):  # valued barrier: keep the (evaluated) argument, drop the synchronisation
            src = text[:m.start()] + text[m.end() - 1:close + 1] + text[close + 1:]
            out.append(Mutant(kernel, f"del-barrier-{k}@{_position(text, m.start())}", src))
            continue
        end = close + 1
        while end < len(masked) and masked[end] in " \t":
            end += 1
        if end < len(masked) and masked[end] == ";":
            end += 1
        out.append(Mutant(kernel, f"del-barrier-{k}@{_position(text, m.start())}", text[:m.start()] + ";" + text[end:]))
    return out


def _is_declaration(masked: str, start: int) -> bool:
    """Is the name at ``start`` part of a declaration or definition (``void barrier(...)``)
    or a preprocessor line rather than a call?"""
    line_start = masked.rfind("\n", 0, start) + 1
    before = masked[line_start:start].strip()
    return before.startswith("#") or bool(re.search(r"\b(void|int|unsigned|float|define)\s*$", before))


def shared_arrays(text: str) -> dict:
    """Group-shared arrays of ``text``: name -> offset of the declaring name (arrays
    declared with ``[...]`` and ``__local`` pointer parameters; scalars are skipped)."""
    masked = _mask_comments(text)
    out = {}
    for m in _SHARED_DECL.finditer(masked):
        if m.group(1) or m.group(3):
            out.setdefault(m.group(2), m.start(2))
    return out


def index_mutants(kernel: str, text: str) -> list:
    """One mutant per indexing ``NAME[e]`` of a group-shared array: ``NAME[(e) + 1]``."""
    masked = _mask_comments(text)
    out = []
    for name, decl_at in sorted(shared_arrays(text).items()):
        k = 0
        for m in re.finditer(rf"(?<![\w.>]){re.escape(name)}\s*\[", masked):
            if m.start() == decl_at:
                continue
            open_at = m.end() - 1
            close = _matching(masked, open_at)
            k += 1
            e = text[open_at + 1:close]
            src = text[:open_at + 1] + f"({e}) + 1" + text[close:]
            out.append(Mutant(kernel, f"shift-{name}-{k}@{_position(text, m.start())}", src))
    return out


def correct_kernels() -> list:
    """Corpus kernels expected to verify (``//pass``, no ``known_gap``), relative paths."""
    out = []
    for p in sorted((ROOT / "corpus").glob("*/*.c[lu]")):
        h = parse_header(p)
        if h.expected == ExitCode.SUCCESS and h.known_gap is None:
            out.append(str(p.relative_to(ROOT)))
    return out


def all_mutants(only: str | None = None) -> list:
    out = []
    for k in correct_kernels():
        if only and only not in k:
            continue
        text = (ROOT / k).read_text()
        out += barrier_mutants(k, text) + index_mutants(k, text)
    return out


# ---------------------------------------------------------------------- running


def run_mutant(m: Mutant, timeout: float) -> tuple:
    """(outcome, reason) of running the driver on mutant ``m``."""
    flags = list(parse_header(ROOT / m.kernel).flags)
    with tempfile.TemporaryDirectory(prefix="mutant-") as tmp:
        path = Path(tmp) / Path(m.kernel).name
        path.write_text(m.source)
        env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        try:
            p = subprocess.run([sys.executable, "-m", "vcgen.driver", *flags, str(path)], cwd=ROOT, env=env,
                               capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return "error", f"timeout after {timeout:.0f} s"
    output = (p.stdout + p.stderr).replace(str(path), Path(m.kernel).name)
    if p.returncode == ExitCode.SUCCESS:
        return "verified", ""
    first = next((ln.strip() for ln in output.splitlines() if "error" in ln), output.strip()[:120])
    first = re.sub(r"\s+", " ", first)
    if p.returncode == ExitCode.NOT_ALL_VERIFIED:
        return "race", first
    try:
        name = ExitCode(p.returncode).name
    except ValueError:
        name = f"exit {p.returncode}"
    return "error", f"{name}: {first}"


def run_all(mutants: list, jobs: int, timeout: float, progress=None) -> dict:
    """(kernel, mutation) -> (outcome, reason) for every mutant; ``progress(mutant,
    (outcome, reason), seconds)`` is called after each run (wall-clock seconds)."""
    results = {}

    def one(m):
        t0 = time.monotonic()
        r = run_mutant(m, timeout)
        if progress:
            progress(m, r, time.monotonic() - t0)
        return (m.kernel, m.mutation), r
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as ex:
        for key, r in ex.map(one, mutants):
            results[key] = r
    return results


# ---------------------------------------------------------------------- the record


def read_records(path: Path = EXPECTED) -> dict:
    """(kernel, mutation) -> Record.  ValueError on a malformed line."""
    out = {}
    if not path.exists():
        return out
    for n, raw in enumerate(path.read_text().splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        parts = re.split(r"\s{2,}", line, maxsplit=3)
        if len(parts) < 3 or parts[2] not in OUTCOMES:
            raise ValueError(f"{path}:{n}: expected 'KERNEL  MUTATION  race|verified|error  REASON'")
        rec = Record(parts[0], parts[1], parts[2], parts[3] if len(parts) > 3 else "")
        out[(rec.kernel, rec.mutation)] = rec
    return out


HEADER = """\
# Expected outcomes of the barrier / index mutants of the correct corpus kernels.
# Generated by `python tests/mutants.py record`, checked by `make mutants`.
# KERNEL  MUTATION  race|verified|error  REASON   (fields separated by 2+ spaces)
# A `verified` mutant needs a human-written reason why the mutation is harmless;
# `race` reasons are the first error line of the report (informational).
"""


def write_records(records: list, path: Path = EXPECTED) -> None:
    body = "".join(r.line() + "\n" for r in sorted(records, key=lambda r: (r.kernel, _mutation_key(r.mutation))))
    tmp = path.with_suffix(".tmp")
    tmp.write_text(HEADER + body)
    tmp.replace(path)


def _mutation_key(mutation: str) -> tuple:
    kind, _, rest = mutation.rpartition("-")
    num = int(rest.split("@")[0]) if rest.split("@")[0].isdigit() else 0
    return kind, num


def compare(records: dict, results: dict, only: str | None = None) -> list:
    """Problems (strings) of the results against the record; empty when all is as recorded."""
    problems = []
    for key, (outcome, reason) in sorted(results.items()):
        rec = records.get(key)
        if rec is None:
            problems.append(f"{key[0]} {key[1]}: not recorded (outcome {outcome}: {reason or 'no reason'}); "
                            "run `python tests/mutants.py record` and review it")
            continue
        if rec.outcome != outcome:
            problems.append(f"{key[0]} {key[1]}: expected {rec.outcome}, got {outcome}"
                            + (f" ({reason})" if reason else ""))
        if rec.outcome == "verified" and not rec.reason.strip():
            problems.append(f"{key[0]} {key[1]}: recorded as verified without a reason")
    for key in records:
        if key not in results and (only is None or only in key[0]):
            problems.append(f"{key[0]} {key[1]}: recorded but no longer generated")
    return problems


def summary(results: dict) -> str:
    counts = {o: sum(1 for r in results.values() if r[0] == o) for o in OUTCOMES}
    return f"{len(results)} mutants: " + ", ".join(f"{n} {o}" for o, n in counts.items())


def _pending(rec: Record | None) -> bool:
    """Does ``record --pending`` re-run a mutant with this record?"""
    return rec is None or rec.outcome == "error"


def record(records: dict, results: dict, path: Path, only: str | None, pending: bool) -> None:
    """Rewrite the record at ``path`` with ``results``.  Kept unchanged: records of kernels
    outside ``only`` and, with ``pending``, records of still-generated mutants not re-run.
    A ``verified`` mutant keeps its reason if it was ``verified`` before."""
    still = {(m.kernel, m.mutation) for m in all_mutants()} if pending else set()
    out = [r for key, r in records.items()
           if (only is not None and only not in r.kernel) or (key in still and key not in results)]
    for (k, mut), (outcome, reason) in results.items():
        old = records.get((k, mut))
        if outcome == "verified":
            reason = old.reason if old is not None and old.outcome == "verified" else ""
        out.append(Record(k, mut, outcome, reason))
    write_records(out, path)
    missing = [r for r in out if r.outcome == "verified" and not r.reason]
    print(f"wrote {path}" + (f"; {len(missing)} verified mutants need a reason" if missing else ""))


def check(records: dict, results: dict, only: str | None) -> int:
    """Print the mismatches of ``results`` against ``records``; 0 if none, else 1."""
    problems = compare(records, results, only)
    for p in problems:
        print(f"MISMATCH {p}")
    verified = sum(1 for r in results.values() if r[0] == "verified")
    print("mutants: OK" + (f" ({verified} verified, each with a recorded reason)" if verified else "")
          if not problems else f"mutants: {len(problems)} problem(s)")
    return 1 if problems else 0


def _arguments(argv) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("command", choices=("record", "check", "list"))
    ap.add_argument("-j", "--jobs", type=int, default=int(os.environ.get("JOBS", "2")))
    ap.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help="seconds per mutant")
    ap.add_argument("--only", default=None, help="only kernels whose path contains this text")
    ap.add_argument("--pending", action="store_true",
                    help="record: only re-run mutants that are unrecorded or recorded as error")
    ap.add_argument("--expected", default=str(EXPECTED), help="the record file")
    ap.add_argument("-v", "--verbose", action="store_true", help="print each outcome and its time")
    a = ap.parse_args(argv)
    if a.pending and a.command != "record":
        ap.error("--pending is an option of `record`")
    return a


def main(argv=None) -> int:
    a = _arguments(argv)
    path = Path(a.expected)
    mutants = all_mutants(a.only)
    if a.command == "list":
        for m in mutants:
            print(f"{m.kernel}  {m.mutation}")
        return 0
    try:
        records = read_records(path)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1

    def progress(m, r, seconds):
        if a.verbose:
            print(f"{m.kernel}  {m.mutation}  {r[0]}  [{seconds:.1f} s]  {r[1]}", flush=True)
    if a.pending:
        mutants = [m for m in mutants if _pending(records.get((m.kernel, m.mutation)))]
    results = run_all(mutants, a.jobs, a.timeout, progress)
    print(summary(results))
    if a.command == "record":
        record(records, results, path, a.only, a.pending)
        return 0
    return check(records, results, a.only)


if __name__ == "__main__":
    sys.exit(main())
