"""Solver back ends for a ``VC``: z3 in-process (default) and any SMT-LIB2 solver process.

Both answer ``check(assumptions)`` incrementally on one instance that holds the VC's
constraints and goal, with a per-query timeout; after ``sat``, ``values(terms)`` reads the
model.  Outcomes are ``Outcome("sat" | "unsat" | "unknown" | "timeout", reason)``: callers
must treat anything but ``unsat`` as "not proved" (DESIGN.md section 6).

``smt_script`` writes the query as a standalone SMT-LIB2 script (``vcgen smt``).
"""
from __future__ import annotations

import os
import queue
import shlex
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import dataclass

import z3

from .exitcodes import ExitCode, ToolError
from .vc import VC


@dataclass
class Outcome:
    status: str  # "sat" | "unsat" | "unknown" | "timeout"
    reason: str = ""


def python_value(v: z3.ExprRef):
    """A model value as Python: bool, int (bit-vectors unsigned), or its text."""
    if z3.is_true(v):
        return True
    if z3.is_false(v):
        return False
    if z3.is_bv_value(v) or z3.is_int_value(v):
        return v.as_long()
    return str(v)


class Z3Backend:
    """z3 in-process: one ``z3.Solver`` in the VC's context, queries under assumptions."""

    name = "z3 (in-process)"

    def __init__(self, vc: VC, timeout: float | None = None):
        self.solver = z3.Solver(ctx=vc.ctx)
        if timeout:
            self.solver.set("timeout", max(1, int(timeout * 1000)))
        self.solver.add(*vc.constraints)
        self.solver.add(vc.goal)
        self.model = None
        self.queries = 0

    def check(self, assumptions: list) -> Outcome:
        self.queries += 1
        self.model = None
        try:
            r = self.solver.check(*assumptions)
        except z3.Z3Exception as e:
            return Outcome("unknown", f"z3 error: {e}")
        if r == z3.sat:
            self.model = self.solver.model()
            return Outcome("sat")
        if r == z3.unsat:
            return Outcome("unsat")
        reason = self.solver.reason_unknown()
        if reason in ("timeout", "canceled"):
            return Outcome("timeout")
        return Outcome("unknown", reason)

    def values(self, terms: list) -> list:
        if self.model is None:
            raise RuntimeError("no model: the last query was not sat")
        return [python_value(self.model.eval(t, model_completion=True)) for t in terms]

    def close(self) -> None:
        pass


# ------------------------------------------------------------------ SMT-LIB text


_LOGICS = {"QF_UF", "QF_BV", "QF_ABV", "QF_UFBV", "QF_AUFBV", "QF_AX", "QF_LIA", "QF_ALIA",
           "QF_UFLIA", "QF_AUFLIA", "QF_NIA", "QF_UFNIA", "QF_ANIA", "QF_AUFNIA",
           "BV", "UFBV", "ABV", "AUFBV", "LIA", "ALIA", "UFLIA", "AUFLIA", "NIA", "UFNIA",
           "AUFNIRA", "UF"}


def smt_logic(vc: VC) -> str:
    """The smallest standard SMT-LIB logic covering the VC's features, else ``ALL``."""
    f = vc.translator.features
    if "BV" in f and ("LIA" in f or "NIA" in f):
        return "ALL"
    arith = "NIA" if "NIA" in f else "LIA" if "LIA" in f else "BV" if "BV" in f else ""
    q, a, uf = ("" if "Q" in f else "QF_"), ("A" if "A" in f else ""), ("UF" if "UF" in f else "")
    if arith:
        name = q + a + uf + arith
    else:
        name = q + ("AX" if a and not uf else "UF" if not a else "AUF")
    return name if name in _LOGICS else "ALL"


def smt_body(vc: VC) -> str:
    """Declarations and assertions (constraints + goal) of the VC, SMT-LIB2 text."""
    s = z3.Solver(ctx=vc.ctx)
    s.add(*vc.constraints)
    s.add(vc.goal)
    return s.sexpr()


def _describe(check) -> str:
    site = check.site
    if site is None:
        return "end of the kernel reachable (vacuity check)"
    from .printer import attrs_str
    return f"block {site.block}: {attrs_str(site.attrs)}".replace("\n", " ")


def smt_script(vc: VC, assumptions: list, title: str = "") -> str:
    """Standalone SMT-LIB2 script: unsat iff no enabled assertion can fail under
    ``assumptions`` (asserted as unit clauses).  Comments name each assertion's label."""
    lines = [f"; {title}" if title else "; verification condition", "; assertions:"]
    lines += [f";   {c.label}: {_describe(c)}" for c in vc.checks]
    lines += ["(set-info :smt-lib-version 2.6)", f"(set-logic {smt_logic(vc)})",
              smt_body(vc).rstrip()]
    lines += [f"(assert {a.sexpr()})" for a in assumptions]
    lines += ["(check-sat)", "(exit)", ""]
    return "\n".join(lines)


# ------------------------------------------------------------- external solvers

_SHORT_NAMES = {
    "z3": ["z3", "-in"],
    "cvc5": ["cvc5", "--incremental", "--lang=smt2"],
    "yices": ["yices-smt2", "--incremental"],
    "yices-smt2": ["yices-smt2", "--incremental"],
    "bitwuzla": ["bitwuzla"],
}


def solver_command(spec: str) -> list:
    """Command line of an external solver: a short name (z3, cvc5, yices, bitwuzla) or a
    full command (``"cvc5 --incremental"``).  ToolError(CONFIGURATION_ERROR) if the
    program is not found on PATH nor next to this Python."""
    argv = list(_SHORT_NAMES.get(spec, shlex.split(spec)))
    if not argv:
        raise ToolError("--solver: empty command", ExitCode.COMMAND_LINE_ERROR)
    exe = shutil.which(argv[0]) or shutil.which(argv[0], path=os.path.join(sys.prefix, "bin"))
    if exe is None:
        raise ToolError(f"--solver: solver program {argv[0]!r} not found",
                        ExitCode.CONFIGURATION_ERROR)
    return [exe] + argv[1:]


def _tokens(text: str):
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
        elif ch in "()":
            yield ch
            i += 1
        elif ch == "|":
            j = text.index("|", i + 1)
            yield text[i + 1:j]
            i = j + 1
        elif ch == '"':
            j = i + 1
            while j < n and not (text[j] == '"' and (j + 1 >= n or text[j + 1] != '"')):
                j += 2 if text[j] == '"' else 1
            yield text[i:j + 1]
            i = j + 1
        else:
            j = i
            while j < n and not text[j].isspace() and text[j] not in "()":
                j += 1
            yield text[i:j]
            i = j


def parse_sexpr(text: str):
    """Parse one s-expression into nested lists of atom strings."""
    stack: list = [[]]
    for t in _tokens(text):
        if t == "(":
            stack.append([])
        elif t == ")":
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(t)
    return stack[0][0] if stack[0] else None


def smt_value(v):
    """Python value of an SMT-LIB value s-expression (bool, int, or its text)."""
    if v == "true":
        return True
    if v == "false":
        return False
    if isinstance(v, str):
        if v.startswith("#x"):
            return int(v[2:], 16)
        if v.startswith("#b"):
            return int(v[2:], 2)
        if v.isdigit():
            return int(v)
        return v
    if len(v) == 3 and v[0] == "_" and v[1].startswith("bv"):
        return int(v[1][2:])
    if len(v) == 2 and v[0] == "-":
        inner = smt_value(v[1])
        return -inner if isinstance(inner, int) else v
    return str(v)


class ProcessBackend:
    """An SMT-LIB2 solver process fed the VC once; each query is ``check-sat-assuming``.

    After a timeout the process is killed and restarted (the VC is re-sent) on the next
    query.  A crash or an ``(error ...)`` answer is an ``unknown`` outcome, never ``unsat``.
    """

    def __init__(self, vc: VC, command: list, timeout: float | None = None):
        self.command = command
        self.name = " ".join(command)
        self.timeout = timeout
        self.prelude = ("(set-option :print-success false)\n(set-option :produce-models true)\n"
                        f"(set-logic {smt_logic(vc)})\n{smt_body(vc)}\n")
        self.proc = None
        self.lines: queue.Queue | None = None
        self.queries = 0
        self.has_model = False

    def _start(self) -> None:
        try:
            self.proc = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.STDOUT, text=True, bufsize=1)
        except OSError as e:
            raise ToolError(f"cannot start solver {self.name}: {e}", ExitCode.CONFIGURATION_ERROR) from None
        self.lines = queue.Queue()
        threading.Thread(target=self._pump, args=(self.proc, self.lines), daemon=True).start()
        self._send(self.prelude)

    @staticmethod
    def _pump(proc, lines) -> None:
        for line in proc.stdout:
            lines.put(line)
        lines.put(None)

    def _send(self, text: str) -> None:
        try:
            self.proc.stdin.write(text)
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass  # the read reports the crash

    def _response(self, deadline: float | None) -> str | None:
        """One complete s-expression or atom from the solver; None on timeout."""
        buf, depth = "", 0
        while True:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                return None
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                return None
            if line is None:
                return buf + "(error \"solver process ended\")"
            if not line.strip() and not buf:
                continue
            buf += line
            depth += line.count("(") - line.count(")")
            if depth <= 0:
                return buf.strip()

    def _kill(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def check(self, assumptions: list) -> Outcome:
        self.queries += 1
        self.has_model = False
        if self.proc is None:
            self._start()
        lits = " ".join(a.sexpr() for a in assumptions)
        self._send(f"(check-sat-assuming ({lits}))\n")
        deadline = None if not self.timeout else time.monotonic() + self.timeout
        resp = self._response(deadline)
        if resp is None:
            self._kill()
            return Outcome("timeout", f"no answer within {self.timeout} s")
        if resp == "sat":
            self.has_model = True
            return Outcome("sat")
        if resp == "unsat":
            return Outcome("unsat")
        if resp == "unknown":
            self._send("(get-info :reason-unknown)\n")
            why = self._response(time.monotonic() + 5) or ""
            return Outcome("timeout" if "timeout" in why or "canceled" in why else "unknown", why)
        self._kill()
        return Outcome("unknown", f"solver said: {resp[:300]}")

    def values(self, terms: list) -> list:
        if not self.has_model:
            raise RuntimeError("no model: the last query was not sat")
        if not terms:
            return []
        self._send(f"(get-value ({' '.join(t.sexpr() for t in terms)}))\n")
        resp = self._response(time.monotonic() + max(30.0, self.timeout or 0))
        parsed = parse_sexpr(resp or "")
        if not isinstance(parsed, list) or len(parsed) != len(terms) or parsed[:1] == ["error"]:
            raise ToolError(f"solver {self.name}: unexpected get-value answer: {(resp or '')[:300]}",
                            ExitCode.NOT_ALL_VERIFIED)
        return [smt_value(pair[1]) for pair in parsed]

    def close(self) -> None:
        if self.proc is not None:
            self._send("(exit)\n")
            try:
                self.proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None


def make_backend(vc: VC, solver: str | None = None, timeout: float | None = None):
    """z3 in-process when ``solver`` is None or ``"z3-inprocess"``, else a solver process."""
    if solver in (None, "", "z3-inprocess", "inprocess"):
        return Z3Backend(vc, timeout)
    return ProcessBackend(vc, solver_command(solver), timeout)
