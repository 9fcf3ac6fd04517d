"""An SMT-LIB2 solver process over a solver's Python API: ``python -m vcgen.vc.solvers.server
cvc5|bitwuzla`` reads SMT-LIB2 commands on stdin and answers on stdout, flushed after each
command, like the solvers' own executables in incremental mode.  The cvc5 and bitwuzla
PyPI packages ship no executables; this lets ``process.ProcessBackend`` drive them
like any other solver (and keeps their crashes out of our process).

Kept free of z3 and the rest of vcgen so that it starts fast (it is restarted after
every timed-out query).
"""
from __future__ import annotations

import re
import sys


def smt_commands(lines):
    """Complete top-level SMT-LIB2 commands (text) from an iterable of lines; comments,
    strings and ``|quoted|`` symbols may hold parentheses."""
    buf, depth, state = [], 0, None  # state: None, '"' (in a string) or '|' (quoted symbol)
    for line in lines:
        for ch in line:
            if state is None and ch == ";":
                break
            if depth > 0 or ch == "(":
                buf.append(ch)
            if state is not None:
                state = None if ch == state else state  # "" in a string closes and reopens
            elif ch in '"|':
                state = ch
            elif ch == "(":
                depth += 1
            elif ch == ")" and depth > 0:
                depth -= 1
                if depth == 0:
                    yield "".join(buf)
                    buf = []
        if depth > 0:
            buf.append("\n")


class _Cvc5Engine:
    def __init__(self):
        import cvc5  # lazy: an optional solver package, loaded only when asked for
        self.cvc5 = cvc5
        self.solver = cvc5.Solver()
        self.solver.setOption("incremental", "true")
        self.sm = cvc5.SymbolManager(self.solver.getTermManager())
        self.parser = cvc5.InputParser(self.solver, self.sm)

    def run(self, command: str) -> str:
        self.parser.setStringInput(self.cvc5.InputLanguage.SMT_LIB_2_6, command, "stdin")
        out: list[str] = []
        while True:
            cmd = self.parser.nextCommand()
            if cmd.isNull():
                return "".join(out)
            out.append(cmd.invoke(self.solver, self.sm))


class _BitwuzlaEngine:
    def __init__(self):
        import bitwuzla  # lazy: an optional solver package, loaded only when asked for
        self.tm = bitwuzla.TermManager()
        opts = bitwuzla.Options()
        opts.set(bitwuzla.Option.PRODUCE_MODELS, True)
        # Term abstraction (on by default in bitwuzla 0.10) made the hard bit-vector queries
        # slower: 29 queries of PolyBench covariance kernel3, seidel-2d kernel0, lu kernel1
        # and SHOC fft1D_512 that took over 1 s in the portfolio, one process per query,
        # took 144 s of CPU with it and 121 s without (session 22, report_solver.md).
        opts.set(bitwuzla.Option.ABSTRACTION, False)
        self.parser = bitwuzla.Parser(self.tm, opts)

    def run(self, command: str) -> str:
        if command.startswith("(get-info") and ":reason-unknown" in command:
            return "(:reason-unknown unknown)\n"  # not supported by bitwuzla's parser
        self.parser.parse(command, False, False)  # answers go to stdout from C++
        return ""


def _quote(msg: str) -> str:
    return '"' + msg.replace('"', '""').replace("\n", " ") + '"'


def serve(name: str, stdin=None, stdout=None) -> int:
    """Act as an SMT-LIB2 solver process for ``name`` (``cvc5`` or ``bitwuzla``) through
    its Python API: read commands from ``stdin``, answer on ``stdout`` (flushed after every
    command).  An error answers ``(error "...")``; bitwuzla cannot go on after one, so its
    server then exits with status 1.  Returns the exit status."""
    stdin, stdout = stdin or sys.stdin, stdout or sys.stdout
    try:
        engines: dict[str, type[_Cvc5Engine] | type[_BitwuzlaEngine]] = {"cvc5": _Cvc5Engine, "bitwuzla": _BitwuzlaEngine}
        engine = engines[name]()
    except (KeyError, ImportError) as e:
        stdout.write(f"(error {_quote(f'cannot load solver {name}: {e}')})\n")
        stdout.flush()
        return 1
    for command in smt_commands(stdin):
        if re.match(r"\(\s*exit\s*\)", command):
            break
        try:
            stdout.write(engine.run(command))
        except Exception as e:  # the solver's own exception types
            stdout.write(f"(error {_quote(str(e))})\n")
            stdout.flush()
            if name == "bitwuzla":
                return 1
        stdout.flush()
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python -m vcgen.vc.solvers.server cvc5|bitwuzla  (an SMT-LIB2 solver on stdin)")
    sys.exit(serve(sys.argv[1]))
