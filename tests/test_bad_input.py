"""Bad input and failures end in a clear message and the right exit code (docs/design.md 7-8).

Every case runs the real commands (``gpuverify``, ``bugle``, ``vcgen``) as subprocesses
and checks the exit code, the message, and that no Python traceback is printed.
"""
from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
TRACEBACK = "Traceback (most recent call last)"

DRIVER = ["-m", "vcgen.driver"]
VCGEN = ["-m", "vcgen.cli"]
BUGLE = ["-m", "bugle.cli"]


def env() -> dict:
    e = dict(os.environ)
    e["PYTHONPATH"] = str(REPO) + os.pathsep + e.get("PYTHONPATH", "")
    return e


def run(args: list, cwd: Path, expect: int, timeout: float = 240) -> str:
    """Run ``python ARGS`` in ``cwd``; assert exit code ``expect`` and no traceback.

    Returns stdout + stderr.
    """
    p = subprocess.run([sys.executable, *args], cwd=cwd, env=env(), capture_output=True,
                       text=True, timeout=timeout)
    out = p.stdout + p.stderr
    assert TRACEBACK not in out, out
    assert p.returncode == expect, f"exit {p.returncode}, expected {expect}:\n{out}"
    return out


# ---- small inputs -----------------------------------------------------------------

GOOD_CL = """\
__kernel void copy(__global int *out, __global const int *in) {
  out[get_global_id(0)] = in[get_global_id(0)];
}
"""

SYNTAX_CL = """\
__kernel void broken(__global int *out) {
  int x = 1
  out[get_global_id(0)] = x;
}
"""

# An ordered comparison of pointers into different arrays is not translated (no address order).
PTRCMP_CL = """\
__kernel void count(__global int *c, __global int *d) {
  int x = 1;
  c[x] = c < d;
}
"""

PTRCMP_CU = """\
__global__ void count(int *c, int *d) {
  int x = 1;
  c[x] = c < d;
}
"""

VACUOUS_CL = """\
__kernel void vac(__global int *p, int n) {
  __requires(n > 10);
  __requires(n < 5);
  p[get_global_id(0)] = n;
}
"""

# Two-thread IL with a syntax error on line 4, column 14 (missing ':' before the type).
MALFORMED_BPL = """\
function {:bvbuiltin "bvadd"} BV32_ADD(bv32, bv32): bv32;
const local_id_x$1: bv32;
const local_id_x$2: bv32;
var $$p: [bv32] bv32 bv32;
procedure {:kernel} $k()
{
  $entry:
    return;
}
"""

# One-thread IL whose CFG is irreducible: the cycle $a <-> $b has two entries.
IRREDUCIBLE_GBPL = """\
function {:bvbuiltin "bvult"} BV32_ULT(bv32, bv32): bool;
const {:local_id_x} local_id_x: bv32;
const {:group_id_x} group_id_x: bv32;
const {:group_size_x} group_size_x: bv32;
const {:num_groups_x} num_groups_x: bv32;
var {:source_name "A"} {:global} {:elem_width 32} $$A: [bv32]bv32;
procedure {:barrier} $bugle_barrier(local_fence: bv1, global_fence: bv1);
procedure {:kernel} {:source_name "k"} $k($n: bv32)
{
  $entry:
    goto $a, $b;
  $a:
    goto $b, $end;
  $b:
    assume {:sourceloc "k.cl", 5, 3} true;
    $$A[local_id_x] := $n;
    goto $a;
  $end:
    return;
}
"""

# The same irreducible cycle in a two-thread program given straight to `vcgen verify`.
IRREDUCIBLE_BPL = """\
const local_id_x$1: bv32;
const local_id_x$2: bv32;
axiom local_id_x$1 != local_id_x$2;
procedure {:kernel} {:source_name "k"} {:language "opencl"} $k($n: bv32)
{
  var $x$1: bv32;
  $entry:
    goto $a, $b;
  $a:
    goto $b, $end;
  $b:
    $x$1 := $n;
    goto $a;
  $end:
    assert {:sourceloc "k.cl", 7, 3} {:user_assert} {:thread 1} $x$1 == $n;
    return;
}
"""

# Factoring the 64-bit product of the primes 3000000019 and 4000000007 by bit-blasting a
# 64-bit multiplication: far beyond a 1 s solver timeout.  The assertion does fail (x, y
# those primes), so the verdict must never be "verified".  (The square of 2^31-1 used
# before stopped being hard: z3 found x = y = 2^31-1 in 3 s once the two-thread program
# of the kernel changed shape.)
HARD_BPL = """\
function {:bvbuiltin "bvmul"} BV64_MUL(bv64, bv64): bv64;
function {:bvbuiltin "bvult"} BV64_ULT(bv64, bv64): bool;
const local_id_x$1: bv32;
const local_id_x$2: bv32;
axiom local_id_x$1 != local_id_x$2;
procedure {:kernel} {:source_name "hard"} {:language "opencl"} $hard($x: bv64, $y: bv64)
  requires BV64_ULT(1bv64, $x) && BV64_ULT($x, 4294967296bv64);
  requires BV64_ULT(1bv64, $y) && BV64_ULT($y, 4294967296bv64);
{
  $entry:
    assert {:sourceloc "hard.cl", 3, 3} {:user_assert} BV64_MUL($x, $y) != 12000000097000000133bv64;
    assert {:vacuity_check} false;
    return;
}
"""

# Small valid inputs: a one-thread program and a two-thread one.
VALID_GBPL = IRREDUCIBLE_GBPL.replace("    goto $a, $b;\n  $a:\n    goto $b, $end;", "    goto $b;\n  $a:\n    goto $end;") \
    .replace("    goto $a;\n  $end:", "    goto $end;\n  $end:")
VALID_BPL = IRREDUCIBLE_BPL.replace("    goto $a, $b;\n  $a:\n    goto $b, $end;", "    goto $b;\n  $a:\n    goto $end;") \
    .replace("    goto $a;\n  $end:", "    goto $end;\n  $end:")

# The same hard query from OpenCL source, for the driver's Ctrl-C test.
HARD_CL = """\
__kernel void hard(__global ulong *p, ulong x, ulong y) {
  __requires(x > 1); __requires(x < 4294967296UL);
  __requires(y > 1); __requires(y < 4294967296UL);
  __assert(x * y != 12000000097000000133UL);
  p[get_global_id(0)] = x;
}
"""


def write(d: Path, name: str, text: str) -> Path:
    p = d / name
    p.write_text(text)
    return p


def test_valid_inputs_are_valid(tmp_path):
    """The overwrite tests below would be vacuous if their inputs were rejected anyway."""
    write(tmp_path, "v.gbpl", VALID_GBPL)
    write(tmp_path, "v.bpl", VALID_BPL)
    run(VCGEN + ["lockstep", "v.gbpl", "--local_size=4", "--num_groups=1", "-o", "v2.bpl"], tmp_path, 0)
    out = run(VCGEN + ["verify", "v.bpl"], tmp_path, 0)
    assert "Verified" in out


# ---- command-line errors (exit 1) ---------------------------------------------------

@pytest.mark.parametrize("cmd", [
    DRIVER + ["--local_size=64", "--num_groups=2", "missing.cl"],
    BUGLE + ["cc", "missing.cl", "-o", "-"],
    BUGLE + ["translate", "missing.ll", "-o", "-"],
    VCGEN + ["abstract", "missing.gbpl", "-o", "-"],
    VCGEN + ["lockstep", "missing.gbpl", "--local_size=4", "--num_groups=1"],
    VCGEN + ["houdini", "missing.bpl", "-o", "-"],
    VCGEN + ["smt", "missing.bpl", "-o", "-"],
    VCGEN + ["verify", "missing.bpl"],
    VCGEN + ["run", "missing.gbpl"],
], ids=lambda c: " ".join(c[1:3]))
def test_missing_file(tmp_path, cmd):
    out = run(cmd, tmp_path, 1)
    assert "missing." in out
    assert "not found" in out.lower() or "no such file" in out.lower() or "does not exist" in out.lower()


@pytest.mark.parametrize("cmd", [
    DRIVER + ["--local_size=64", "--num_groups=2", "--bogus-flag", "k.cl"],
    BUGLE + ["cc", "--bogus-flag", "k.cl"],
    VCGEN + ["lockstep", "--bogus-flag", "k.gbpl"],
    VCGEN + ["verify", "--bogus-flag", "k.bpl"],
    VCGEN + ["no-such-stage", "k.bpl"],
], ids=lambda c: " ".join(c[1:4]))
def test_unknown_flag(tmp_path, cmd):
    write(tmp_path, "k.cl", GOOD_CL)
    out = run(cmd, tmp_path, 1)
    assert "bogus-flag" in out or "no-such-stage" in out


@pytest.mark.parametrize("flags", [["--local_size=64"], ["--num_groups=4"], ["--blockDim=32"]])
def test_missing_launch_config(tmp_path, flags):
    """One of the two sizes alone is an error (no size at all means symbolic sizes)."""
    write(tmp_path, "k.cl", GOOD_CL)
    out = run(DRIVER + flags + ["k.cl"], tmp_path, 1)
    assert "launch configuration" in out and "*" in out


def test_missing_launch_config_lockstep(tmp_path):
    write(tmp_path, "k.gbpl", IRREDUCIBLE_GBPL)
    out = run(VCGEN + ["lockstep", "k.gbpl", "--local_size=4"], tmp_path, 1)
    assert "launch configuration" in out


@pytest.mark.parametrize("flags", [["--local_size=abc", "--num_groups=2"], ["--local_size=0", "--num_groups=2"],
                                   ["--local_size=64", "--blockDim=64", "--num_groups=2"],
                                   ["--local_size=[*,**]", "--num_groups=2"], ["--local_size=*x", "--num_groups=2"],
                                   ["--local_size=64", "--num_groups=2", "--global_offset=*"]])
def test_malformed_launch_flags(tmp_path, flags):
    write(tmp_path, "k.cl", GOOD_CL)
    out = run(DRIVER + flags + ["k.cl"], tmp_path, 1)
    assert "--local_size" in out or "--blockDim" in out or "--global_offset" in out


# ---- global size that does not fit the local size (exit 1, as GPUVerify) -------------

@pytest.mark.parametrize("flags, why", [
    (["--local_size=64", "--global_size=100"], "Dimension 0 of global size does not divide by dimension 0"),
    (["--local_size=[16,16]", "--global_size=[64,40]"], "Dimension 1 of global size does not divide"),
    (["--local_size=[16,16]", "--global_size=64"], "Dimensions of local and global size must match"),
    (["--local_size=16", "--global_size=64", "--num_groups=4"], "--num_groups=: not allowed with argument --global_size="),
])
def test_global_size_not_multiple(tmp_path, flags, why):
    write(tmp_path, "k.cl", GOOD_CL)
    out = run(DRIVER + flags + ["k.cl"], tmp_path, 1)
    assert why in out


# ---- front-end errors (exit 2 and 4) ------------------------------------------------

def test_clang_syntax_error(tmp_path):
    write(tmp_path, "broken.cl", SYNTAX_CL)
    for cmd in (DRIVER + ["--local_size=64", "--num_groups=2", "broken.cl"],
                BUGLE + ["cc", "broken.cl", "-o", "broken.ll"]):
        out = run(cmd, tmp_path, 2)
        # clang's own diagnostic: file:line:col: error: expected ';' ...
        assert "broken.cl:2:" in out and "error: expected ';'" in out, out
    assert not (tmp_path / "broken.ll").exists()


@pytest.mark.parametrize("name,text,flags", [
    ("ptrcmp.cl", PTRCMP_CL, ["--local_size=64", "--num_groups=2"]),
    ("ptrcmp.cu", PTRCMP_CU, ["--blockDim=64", "--gridDim=2"]),
])
def test_unsupported_construct_names_construct_and_line(tmp_path, name, text, flags):
    write(tmp_path, name, text)
    out = run(DRIVER + flags + [name], tmp_path, 4)
    assert "ordered comparison of pointers" in out.lower()
    assert f"{name}:3:" in out, out
    # the same through the stage commands: cc succeeds, translate fails with 4
    run(BUGLE + ["cc", name, "-o", "k.ll"], tmp_path, 0)
    out = run(BUGLE + ["translate", "k.ll", "-o", "k.gbpl"], tmp_path, 4)
    assert "ordered comparison of pointers" in out.lower() and f"{name}:3:" in out, out
    assert not (tmp_path / "k.gbpl").exists()


def test_malformed_ll_is_an_error_not_a_traceback(tmp_path):
    write(tmp_path, "bad.ll", "define void @k( {\n  ret void\n}\n")
    p = subprocess.run([sys.executable, *BUGLE, "translate", "bad.ll", "-o", "-"], cwd=tmp_path,
                       env=env(), capture_output=True, text=True)
    assert TRACEBACK not in p.stdout + p.stderr
    assert p.returncode in (3, 4), p.stdout + p.stderr


# ---- IL errors (exit 5) -------------------------------------------------------------

@pytest.mark.parametrize("stage", ["verify", "houdini", "smt", "lockstep", "abstract"])
def test_malformed_bpl_reports_line_and_column(tmp_path, stage):
    write(tmp_path, "bad.bpl", MALFORMED_BPL)
    args = ["bad.bpl"] + (["-o", "out.bpl"] if stage != "verify" else [])
    if stage == "lockstep":
        args += ["--local_size=4", "--num_groups=1"]
    out = run(VCGEN + [stage] + args, tmp_path, 5)
    assert "bad.bpl:4:" in out, out
    assert not (tmp_path / "out.bpl").exists()


def test_malformed_bpl_to_driver(tmp_path):
    write(tmp_path, "bad.bpl", MALFORMED_BPL)
    out = run(DRIVER + ["--local_size=4", "--num_groups=1", "bad.bpl"], tmp_path, 5)
    assert "bad.bpl:4:" in out


def test_irreducible_cfg_lockstep(tmp_path):
    write(tmp_path, "irr.gbpl", IRREDUCIBLE_GBPL)
    out = run(VCGEN + ["lockstep", "irr.gbpl", "--local_size=4", "--num_groups=1", "-o", "irr.bpl"],
              tmp_path, 5)
    assert "irreducible" in out.lower()
    assert not (tmp_path / "irr.bpl").exists()


def test_irreducible_cfg_driver(tmp_path):
    write(tmp_path, "irr.gbpl", IRREDUCIBLE_GBPL)
    out = run(DRIVER + ["--local_size=4", "--num_groups=1", "irr.gbpl"], tmp_path, 5)
    assert "irreducible" in out.lower()
    assert "Verified" not in out


def test_irreducible_cfg_verify(tmp_path):
    write(tmp_path, "irr.bpl", IRREDUCIBLE_BPL)
    out = run(VCGEN + ["verify", "irr.bpl"], tmp_path, 5)
    assert "irreducible" in out.lower()
    assert "Verified" not in out


# ---- solver outcomes (exit 7 and 6) -------------------------------------------------

def test_solver_timeout_is_never_verified(tmp_path):
    write(tmp_path, "hard.bpl", HARD_BPL)
    t0 = time.monotonic()
    out = run(VCGEN + ["verify", "hard.bpl", "--timeout=1"], tmp_path, 7)
    assert time.monotonic() - t0 < 60
    assert "Verified" not in out and "timed out" in out
    # --solver=z3: the query is hard for z3 (yices, which --solver=auto would add, factors it)
    out = run(DRIVER + ["--local_size=4", "--num_groups=1", "--timeout=1", "--solver=z3", "hard.bpl"], tmp_path, 7)
    assert "Verified" not in out


def test_contradictory_preconditions_are_vacuous(tmp_path):
    write(tmp_path, "vac.cl", VACUOUS_CL)
    out = run(DRIVER + ["--local_size=16", "--num_groups=2", "vac.cl"], tmp_path, 6)
    assert "vacuous" in out and "contradictory" in out
    assert "Verified" not in out


UNKNOWN_SOLVER = """\
#!/bin/sh
# An SMT-LIB2 "solver" that answers unknown to every query.
while read -r line; do
  case "$line" in
    *check-sat*) echo unknown ;;
    *reason-unknown*) echo '(:reason-unknown incomplete)' ;;
  esac
done
"""


@pytest.mark.parametrize("solver", ["crash", "unknown"])
def test_solver_crash_or_unknown_is_never_verified(tmp_path, solver):
    write(tmp_path, "v.bpl", VALID_BPL)
    if solver == "crash":
        cmd = shlex.join([sys.executable, "-c", "import sys; sys.exit(1)"])  # exits at once
    else:
        script = write(tmp_path, "unknown.sh", UNKNOWN_SOLVER)
        script.chmod(0o755)
        cmd = str(script)
    for args in (VCGEN + ["verify", "v.bpl", f"--solver={cmd}"],
                 DRIVER + ["--local_size=4", "--num_groups=1", f"--solver={cmd}", "v.bpl"]):
        out = run(args, tmp_path, 6)
        assert "Verified" not in out and "not verified" in out


def test_missing_solver_program(tmp_path):
    write(tmp_path, "v.bpl", VALID_BPL)
    out = run(VCGEN + ["verify", "v.bpl", "--solver=no-such-solver-xyz"], tmp_path, 9)
    assert "no-such-solver-xyz" in out


def test_external_solver_agrees_with_in_process_z3(tmp_path):
    z3 = Path(sys.executable).parent / "z3"
    if not z3.exists():
        pytest.skip("no z3 binary next to the interpreter")
    write(tmp_path, "v.bpl", VALID_BPL)
    assert "Verified" in run(VCGEN + ["verify", "v.bpl", f"--solver={z3} -in"], tmp_path, 0)
    write(tmp_path, "bad.bpl", VALID_BPL.replace("$x$1 == $n", "$x$1 != $n"))
    run(VCGEN + ["verify", "bad.bpl", f"--solver={z3} -in"], tmp_path, 6)
    run(VCGEN + ["verify", "bad.bpl"], tmp_path, 6)


# ---- Ctrl-C (exit 8) ----------------------------------------------------------------

def sigint_default() -> None:
    """``preexec_fn``: the child starts with SIGINT's default action, whatever ours is."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _interrupt(cmd: list, cwd: Path, after: float = 3.0, sig: int = signal.SIGINT,
               when: str | None = None) -> tuple:
    """Start ``python CMD``, send ``sig`` ``after`` seconds after the output first matched
    the regular expression ``when`` (after the start if None); (exit code, output).

    ``when``: on a loaded machine the imports alone can take seconds, and a signal sent
    before the program runs tests nothing.  A command still running 20 s after the
    signal is killed; its code is then None.
    """
    e = env()
    e["TMPDIR"] = str(cwd / "tmp")
    (cwd / "tmp").mkdir(exist_ok=True)
    # as a terminal's foreground job: a background job (``make test &``, some CI runners)
    # inherits SIGINT ignored, and a program keeps it so
    proc = subprocess.Popen([sys.executable, *cmd], cwd=cwd, env=e, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, preexec_fn=sigint_default)
    lines: list = []
    seen = threading.Event()

    def read() -> None:
        for line in proc.stdout:
            lines.append(line)
            if when is not None and re.search(when, line):
                seen.set()
    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        if when is not None:
            assert seen.wait(120), f"never printed {when!r}:\n{''.join(lines)}"
        time.sleep(after)
        assert proc.poll() is None, "the input was not slow enough to interrupt"
        proc.send_signal(sig)
        proc.wait(timeout=20)
        reader.join()
        return proc.returncode, "".join(lines)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        reader.join()
        return None, "".join(lines) + f"\n(still running 20 s after {signal.Signals(sig).name})"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.mark.parametrize("kind", ["driver-cl", "driver-bpl", "verify", "driver-auto"])
def test_ctrl_c_exits_8_and_leaves_no_temp_files(tmp_path, kind):
    """``driver-auto``: the default portfolio, whose in-process z3 runs on a racing thread
    and catches the SIGINT there (the old portfolio then waited for its answer forever; and
    once z3 had lost a race, it took a later Ctrl-C for that race's cancel)."""
    write(tmp_path, "hard.cl", HARD_CL)
    write(tmp_path, "hard.bpl", HARD_BPL)
    before = set(os.listdir(tmp_path)) | {"tmp"}
    cmd = {"driver-cl": DRIVER + ["--local_size=4", "--num_groups=1", "--timeout=0", "--solver=z3", "--verbose", "hard.cl"],
           "driver-bpl": DRIVER + ["--local_size=4", "--num_groups=1", "--timeout=0", "--solver=z3", "hard.bpl"],
           "verify": VCGEN + ["verify", "hard.bpl", "--timeout=0"],
           "driver-auto": DRIVER + ["--local_size=4", "--num_groups=1", "--timeout=0", "--verbose", "hard.cl"]}[kind]
    if kind in ("driver-cl", "driver-auto"):  # 2 s into the solver's query
        code, out = _interrupt(cmd, tmp_path, after=2.0, when="stage verify started")
    else:
        code, out = _interrupt(cmd, tmp_path, after=2.5)
    assert TRACEBACK not in out, out
    assert code == 8, f"exit {code}:\n{out}"
    assert "interrupt" in out.lower()
    assert set(os.listdir(tmp_path)) == before
    assert os.listdir(tmp_path / "tmp") == []


def test_sigterm_is_an_interrupt_that_says_where_it_stopped(tmp_path):
    """``timeout``/make/batch systems stop a run with SIGTERM: exit 8 as for Ctrl-C, no
    temporary file left, and with --verbose/--time the stage it was in and the times so far
    (the external solver process answers no more queries after the signal)."""
    write(tmp_path, "hard.cl", HARD_CL)
    before = set(os.listdir(tmp_path)) | {"tmp"}
    # --timeout=0: an unbounded query of z3 in-process must not hold the signal off
    # (``Z3Backend._run_interruptible``)
    cmd = DRIVER + ["--local_size=4", "--num_groups=1", "--timeout=0", "--solver=z3", "--verbose", "hard.cl"]
    code, out = _interrupt(cmd, tmp_path, after=2.0, sig=signal.SIGTERM, when="stage verify started")
    assert TRACEBACK not in out, out
    assert code == 8, f"exit {code}:\n{out}"
    assert "interrupted" in out
    assert re.search(r"verbose: \[ *[0-9.]+ s\] stage verify started", out), out
    assert "timing (interrupted in verify): frontend" in out, out
    assert re.search(r"stage verify stopped after [0-9.]+ s", out), out
    assert set(os.listdir(tmp_path)) == before
    assert os.listdir(tmp_path / "tmp") == []


def test_ctrl_c_during_houdini_writes_no_output(tmp_path):
    """An interrupted `vcgen houdini` leaves neither its output nor a temp file behind."""
    prog = HARD_BPL.replace("const local_id_x$1", "const {:existential true} _b0: bool;\nconst local_id_x$1")
    prog = prog.replace("  $entry:\n", "  $entry:\n    goto $head;\n  $head:\n"
                        "    assert {:candidate \"r1\"} _b0 ==> BV64_MUL($x, $y) != 12000000097000000133bv64;\n"
                        "    goto $head, $exit;\n  $exit:\n")
    write(tmp_path, "hard.bpl", prog)
    before = set(os.listdir(tmp_path)) | {"tmp"}
    code, out = _interrupt(VCGEN + ["houdini", "hard.bpl", "-o", "hard.inv.bpl", "--timeout=0"], tmp_path)
    assert TRACEBACK not in out, out
    assert code == 8, f"exit {code}:\n{out}"
    assert set(os.listdir(tmp_path)) == before, "houdini left files behind after Ctrl-C"
    assert os.listdir(tmp_path / "tmp") == []


# ---- a stage never overwrites its input ---------------------------------------------

@pytest.mark.parametrize("stage,name,extra", [
    ("lockstep", "x.bpl", ["--local_size=4", "--num_groups=1"]),
    ("lockstep", "x.gbpl", ["--local_size=4", "--num_groups=1"]),
    ("abstract", "x.gbpl", []),
    ("houdini", "x.bpl", []),
    ("smt", "x.bpl", []),
])
def test_stage_refuses_to_overwrite_input(tmp_path, stage, name, extra):
    """`vcgen STAGE x -o x` (however x is spelled) fails with 1 and leaves x as it was."""
    text = VALID_BPL if stage in ("houdini", "smt") else VALID_GBPL
    p = write(tmp_path, name, text)
    for target in (name, f"./{name}", str(tmp_path / name)):
        out = run(VCGEN + [stage, name, "-o", target] + extra, tmp_path, 1)
        assert "overwrite" in out.lower() or "same file" in out.lower() or "input" in out.lower(), out
        assert p.read_text() == text


def test_bugle_refuses_to_overwrite_input(tmp_path):
    write(tmp_path, "k.cl", GOOD_CL)
    run(BUGLE + ["cc", "k.cl", "-o", "k.cl"], tmp_path, 1)
    assert (tmp_path / "k.cl").read_text() == GOOD_CL
    run(BUGLE + ["cc", "k.cl", "-o", "k.ll"], tmp_path, 0)
    ll = (tmp_path / "k.ll").read_text()
    run(BUGLE + ["translate", "k.ll", "-o", "k.ll"], tmp_path, 1)
    assert (tmp_path / "k.ll").read_text() == ll


def test_stage_output_is_readable_like_any_file(tmp_path):
    """Atomic writes (temp file + rename) must not leave the output mode 0600."""
    write(tmp_path, "k.gbpl", VALID_GBPL)
    run(VCGEN + ["abstract", "k.gbpl", "-o", "k.abs.gbpl"], tmp_path, 0)
    old = os.umask(0o022)
    os.umask(old)
    mode = (tmp_path / "k.abs.gbpl").stat().st_mode & 0o777
    assert mode == 0o666 & ~old, oct(mode)
