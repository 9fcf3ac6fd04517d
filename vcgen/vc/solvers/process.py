"""Any SMT-LIB2 solver as a process (``--solver=z3|cvc5|yices|bitwuzla|COMMAND``): fed the VC
once and asked ``check-sat-assuming`` per query.  cvc5 and bitwuzla are used through their
executables when on PATH, else through their Python packages in a process of ours
(``python -m vcgen.vc.solvers.server cvc5|bitwuzla``) that speaks SMT-LIB2 on
stdin/stdout, so all external solvers share ``ProcessBackend``.
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
from typing import Any

import z3

from ...il.errors import ExitCode, ToolError
from ..encode import VC, uninterpreted_constants
from .backend import Outcome, query_limit
from .smtlib import ints_as_bv, logic_of, parse_sexpr, script, smt_body, smt_value


# run by this interpreter, which imports vcgen from where it is installed (wheel or editable)
_SERVE = "import sys; from vcgen.vc.solvers.server import serve; sys.exit(serve({name!r}))"
_PY_SOLVERS = {"cvc5": "cvc5", "bitwuzla": "bitwuzla"}  # name -> Python package


def _served(name: str) -> list:
    return [sys.executable, "-c", _SERVE.format(name=name)]


def _short_command(spec: str) -> list | None:
    if spec == "z3":
        return ["z3", "-in"]
    if spec in ("yices", "yices-smt2"):
        return ["yices-smt2", "--incremental"]
    if spec == "cvc5":
        if find_program("cvc5"):
            return ["cvc5", "--incremental", "--lang=smt2"]
    elif spec == "bitwuzla":
        if find_program("bitwuzla"):
            return ["bitwuzla"]
    else:
        return None
    if importlib.util.find_spec(_PY_SOLVERS[spec]) is None:
        raise ToolError(f"--solver={spec}: neither a {spec} executable nor the {spec} Python "
                        f"package is installed (pip install {spec})", ExitCode.CONFIGURATION_ERROR)
    return _served(spec)


def find_program(prog: str) -> str | None:
    """The path of the executable ``prog`` on PATH or next to this Python, or None."""
    return shutil.which(prog) or shutil.which(prog, path=os.path.join(sys.prefix, "bin"))


def solver_command(spec: str) -> list[str]:
    """Command line of an external solver: a short name (z3, cvc5, yices, bitwuzla) or a
    full command (``"cvc5 --incremental"``).  ToolError(CONFIGURATION_ERROR) if the
    program is not found on PATH nor next to this Python."""
    argv = _short_command(spec) or shlex.split(spec)
    if not argv:
        raise ToolError("--solver: empty command", ExitCode.COMMAND_LINE_ERROR)
    if argv[0] == sys.executable:
        return argv
    exe = find_program(argv[0])
    if exe is None:
        raise ToolError(f"--solver: solver program {argv[0]!r} not found",
                        ExitCode.CONFIGURATION_ERROR)
    return [exe] + argv[1:]


def is_bitwuzla(argv: list) -> bool:
    """Whether a solver command runs bitwuzla (which needs ``ints_as_bv``)."""
    return os.path.basename(argv[0]).startswith("bitwuzla") or \
        (argv[0] == sys.executable and "serve('bitwuzla')" in argv[-1])


_CANCELLED = "(cancelled)"
_STRINGS = re.compile(r'"(?:[^"]|"")*"|\|[^|]*\|')


def _depth_change(line: str) -> int:
    """Parentheses opened minus closed in a line of solver output, outside strings and
    quoted symbols (error messages quote source text)."""
    bare = _STRINGS.sub("", line)
    return bare.count("(") - bare.count(")")


class ProcessBackend:
    """An SMT-LIB2 solver process fed the VC once; each query is ``check-sat-assuming``.

    After a timeout or a ``cancel`` (the portfolio abandons the query: another member
    answered) the process is killed and restarted (the VC is re-sent) on the next query.
    A crash or an ``(error ...)`` answer is an ``unknown`` outcome, never ``unsat``.
    ``int_as_bv`` rewrites all text with ``ints_as_bv`` (bitwuzla); it raises
    ToolError(CONFIGURATION_ERROR) here if the VC cannot be rewritten.
    """

    def __init__(self, vc: VC, command: list, timeout: float | None = None,
                 int_as_bv: bool | None = None, prelude: str | None = None):
        self.command = command
        self.name = _display(command)
        self.timeout = timeout
        self.int_as_bv = is_bitwuzla(command) if int_as_bv is None else int_as_bv
        self.prelude = prelude if prelude is not None else self._prelude(vc)
        self.proc: subprocess.Popen[str] | None = None
        self.lines: queue.Queue = queue.Queue()
        self.queries = 0
        self.has_model = False
        self.generation = 0  # of the query in progress (cancel markers name it)
        self._declared: set[str] | None = None  # constant names the prelude declares
        self._printed: dict[int, tuple] = {}  # literal's ast id -> (literal, its text)
        # a query past its limit keeps searching, for ``resume`` (``sliced.SliceProver.race``)
        self.keep_on_timeout = False

    def _prelude(self, vc: VC) -> str:
        """Options, logic, declarations and assertions of ``vc``: the text every process
        of this back end is fed first (``prelude=`` shares it between back ends of one VC:
        printing a large VC takes seconds)."""
        features = set(vc.translator.features)
        if self.int_as_bv and features & {"LIA", "NIA"}:
            features = (features - {"LIA", "NIA"}) | {"BV"}
        return self._text(script(logic_of(features), f"{smt_body(vc)}\n", ("produce-models",)))

    def _sexpr(self, lit) -> str:
        """SMT-LIB text of an assumption literal, printed once per literal (the same
        literals come back in every query)."""
        hit = self._printed.get(lit.get_id())
        if hit is None:  # the entry keeps ``lit`` alive, so its id is never reused
            hit = self._printed[lit.get_id()] = (lit, lit.sexpr())
        return hit[1]

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
        stdin = self.proc.stdin if self.proc is not None else None
        if stdin is None:
            return  # no solver process: the read reports it
        try:
            stdin.write(text)
            stdin.flush()
        except (BrokenPipeError, OSError):
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
        if proc is not None:
            proc.kill()
            proc.wait()

    def prepare(self, assumptions: list) -> str:
        """The query text (z3 terms are printed on the caller's thread)."""
        self.generation += 1
        lits = " ".join(self._sexpr(a) for a in assumptions)
        return self._text(f"(check-sat-assuming ({lits}))\n")

    def run(self, query: str, limit: float | None = None) -> Outcome:
        """Send a prepared query and wait for the answer (may run on another thread) at
        most ``query_limit(timeout, limit)`` seconds; after that the process is killed
        (unless ``keep_on_timeout``: then ``resume`` waits again for the same answer).

        A cancelled query (``cancel``: abandoned by the portfolio) kills the process too:
        the solver cannot be interrupted (yices-smt2 exits on SIGINT, and has no per-query
        timeout option), and its answer would be thrown away, so finishing the search only
        takes CPU from the winner, from the next query and, on the two-core machine, from
        the other kernel of a ``-j 2`` run.  Kept running behind the next query, the warm
        yices of AMD AESEncryptDecrypt kernel2 spent 9.8 s of CPU on abandoned searches
        (the one-process-per-query yices that won them: 2.5 s); killed, it took 0.7 s,
        its restarts included (each re-reads the VC, well under 0.1 s there)."""
        self.submit(query)
        return self._answer(query_limit(self.timeout, limit))

    def submit(self, query: str) -> None:
        """Send a prepared query (``prepare``) without waiting for its answer: ``resume``
        waits for it (``sliced.SliceProver``'s bit-blasting companion starts searching
        while another process of the same query already is)."""
        self.queries += 1
        self.has_model = False
        if self.proc is None:
            self._start()
        self._send(query)

    def resume(self, limit: float | None = None) -> Outcome:
        """Wait once more, at most ``query_limit(timeout, limit)`` seconds, for the answer
        to the query that timed out while ``keep_on_timeout`` was set, or that ``submit``
        sent (its process still searching); ``unknown`` when there is none.  Same outcomes
        as ``run``; a ``cancel`` from another thread ends the wait."""
        if self.proc is None:
            return Outcome("unknown", f"{self.name}: no query in progress")
        return self._answer(query_limit(self.timeout, limit))

    def _answer(self, budget: float | None) -> Outcome:
        """The outcome of the query sent last, waiting at most ``budget`` seconds (None:
        no bound); the process is killed on a cancel, on an unexpected answer, and on
        timeout unless ``keep_on_timeout``."""
        deadline = None if budget is None else time.monotonic() + budget
        resp = self._response(deadline)
        if resp is _CANCELLED:
            self._kill()
            return Outcome("unknown", f"{self.name}: cancelled")
        if resp is None:
            if not self.keep_on_timeout:
                self._kill()
            return Outcome("timeout", f"{self.name}: no answer within {budget:g} s")
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

    def check(self, assumptions: list, limit: float | None = None) -> Outcome:
        return self.run(self.prepare(assumptions), limit)

    def cancel(self) -> None:
        """Abandon the ``run`` in progress on another thread (it returns unknown at once)."""
        lines = self.lines
        if lines is not None:
            lines.put(("cancel", self.generation))

    def values(self, terms: list) -> list[Any]:
        if not self.has_model:
            raise RuntimeError("no model: the last query was not sat")
        if not terms:
            return []
        terms = self._completed(terms)
        self._send(self._text(f"(get-value ({' '.join(t.sexpr() for t in terms)}))\n"))
        resp = self._response(time.monotonic() + max(30.0, self.timeout or 0))
        parsed = parse_sexpr(resp or "")
        if not isinstance(parsed, list) or len(parsed) != len(terms) or parsed[:1] == ["error"] \
                or not all(isinstance(p, list) and len(p) == 2 for p in parsed):
            raise ToolError(f"solver {self.name}: unexpected get-value answer: {(resp or '')[:300]}",
                            ExitCode.NOT_ALL_VERIFIED)
        return [smt_value(pair[1]) for pair in parsed]

    def _completed(self, terms: list[z3.ExprRef]) -> list[z3.ExprRef]:
        """``terms`` with constants the script never declared (a kernel parameter the VC
        does not mention) replaced by a default value of their sort, as z3's model
        completion does: they are unconstrained, so any value belongs to the model, and
        asking the solver for them would be an error.  One walk over all the terms: one
        walk per term cost about 2.7 s per model of Rodinia heartwall under cProfile
        (about 11000 checks, most sharing subterms)."""
        if self._declared is None:
            self._declared = set(_DECLARED.findall(self.prelude))
        missing = [c for c in uninterpreted_constants(*terms) if c.decl().name() not in self._declared
                   and f"|{c.decl().name()}|" not in self._declared]
        if not missing:
            return terms
        default = {c.get_id(): _default(c.sort()) for c in missing}
        pairs = [(c, default[c.get_id()]) for c in missing]
        return [default.get(t.get_id(), t) if z3.is_const(t) else z3.substitute(t, *pairs)
                for t in terms]

    def close(self) -> None:
        """End the solver process: asked to exit (it is idle: an abandoned query killed
        it), killed if it has not within 2 s."""
        if self.proc is not None:
            self._send("(exit)\n")
            try:
                self.proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None


_DECLARED = re.compile(r"^\(declare-fun (\S+) \(\)", re.M)




def _default(sort: z3.SortRef) -> z3.ExprRef:
    if sort.kind() == z3.Z3_BOOL_SORT:
        return z3.BoolVal(False, sort.ctx)
    if sort.kind() == z3.Z3_BV_SORT:
        return z3.BitVecVal(0, sort.size(), sort.ctx)
    if sort.kind() == z3.Z3_INT_SORT:
        return z3.IntVal(0, sort.ctx)
    raise ToolError(f"no default value for sort {sort}", ExitCode.NOT_ALL_VERIFIED)


def _display(argv: list) -> str:
    if argv and argv[0] == sys.executable and "serve(" in argv[-1]:
        return argv[-1].split("serve(")[1].split(")")[0].strip("'") + " (Python API)"
    return os.path.basename(argv[0]) if argv else "?"
