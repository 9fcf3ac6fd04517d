"""Chaining the stage commands equals the driver; the IL round-trips (docs/design.md 2, docs/IL.md).

* ``parse(print(p)) == p`` for every IL program the corpus produces: the one-thread
  program (``bugle translate``), its abstraction (``vcgen abstract``) and the two-thread
  program (``vcgen lockstep``), built in memory with each kernel's header flags.
* The Makefile's stage rules (one command per stage, files on disk) give the same exit
  code and the same first report line as ``gpuverify`` on the same kernel, and every
  file they write is printed exactly as the printer prints its parse.
"""
from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from bugle.cc import compile_kernel
from bugle.translate import kernel_names, translate_ir
from header_flags import stage_flags
from vcgen import stages
from vcgen.twothread.cli import lockstep_command
from vcgen.analysis.abstraction import choose_abstraction
from vcgen.il.errors import ExitCode, ToolError
from vcgen.twothread.kernel_args import apply_kernel_args
from vcgen.twothread.transform import lockstep
from vcgen.il.parser import parse_program
from vcgen.il.printer import program_str
from vcgen.testsuite import parse_header

REPO = Path(__file__).resolve().parent.parent
CORPUS = sorted(p.relative_to(REPO).as_posix() for p in (REPO / "corpus").rglob("*") if p.suffix in (".cl", ".cu"))
# errors that stop a kernel before its two-thread IL exists: the front end's, and vcgen's
# rejections while building it (an invariant not at a loop head, --equality-abstraction
# with atomics)
FRONT_END_ERRORS = (ExitCode.CLANG_ERROR, ExitCode.OPT_ERROR, ExitCode.BUGLE_ERROR, ExitCode.GPUVERIFYVCGEN_ERROR)


def cc_args(flags: tuple) -> tuple:
    """(defines, includes, spir64) from a header's ``cc`` flags (``-D X``, ``-DX``, ``-I d``)."""
    defines, includes, it = [], [], iter(stage_flags("cc", flags))
    for f in it:
        if f in ("-D", "-I"):
            (defines if f == "-D" else includes).append(next(it))
        elif f.startswith("-D"):
            defines.append(f[2:])
        elif f.startswith("-I"):
            includes.append(f[2:])
    return tuple(defines), tuple(includes), "--spir64" in flags


def command_params(command, stage: str, flags: tuple) -> dict:
    """The parameters the stage command's own click parser gives the header's flags."""
    ctx = command.make_context(stage, stage_flags(stage, flags))
    return {k: v for k, v in ctx.params.items() if k not in ("input", "output")}


def build_in_memory(kernel: str) -> list:
    """[one-thread, abstracted one-thread, two-thread] programs of a corpus kernel; for a
    file with several kernels and no ``--kernel`` flag, those of each kernel in turn (the
    driver verifies them all)."""
    flags = parse_header(REPO / kernel).flags
    defines, includes, spir64 = cc_args(flags)
    clang_opts = [f.split("=", 1)[1] for f in stage_flags("cc", flags) if f.startswith("--clang-opt=")]
    ir = compile_kernel(str(REPO / kernel), defines=defines, includes=includes, spir64=spir64,
                        clang_opts=clang_opts)
    name = next((f.split("=", 1)[1] for f in stage_flags("translate", flags) if f.startswith("--kernel=")), None)
    names = [name] if name is not None or len(found := kernel_names(ir)) == 1 else found
    force = next((f[2:].split("-")[0] for f in stage_flags("abstract", flags)), None)
    params = command_params(lockstep_command, "lockstep", flags)
    kernel_args = params.pop("kernel_args", None)  # `vcgen lockstep --kernel-args` adds requires first
    opts = stages.lockstep_options(params)
    progs = []
    for name in names:
        one = translate_ir(ir, name, str(REPO / kernel))
        abstracted = choose_abstraction(one, force=force)
        progs += [one, abstracted, lockstep(apply_kernel_args(abstracted, kernel_args), opts)]
    return progs


@pytest.mark.parametrize("kernel", CORPUS)
def test_il_round_trip(kernel):
    header = parse_header(REPO / kernel)
    try:
        progs = build_in_memory(kernel)
    except ToolError as e:
        # only kernels whose header expects such an error may stop before the IL
        assert header.expected in FRONT_END_ERRORS and e.code == header.expected, (e.code, str(e))
        return
    for prog, what in zip(progs, ("one-thread", "abstracted", "two-thread") * (len(progs) // 3)):
        text = program_str(prog)
        again = parse_program(text, f"{kernel} ({what})")
        assert again == prog, f"{kernel}: {what} program changes under parse(print(p))"
        assert program_str(again) == text


def test_corpus_is_large_enough():
    assert len(CORPUS) >= 20


# ---- the Makefile's stage rules vs the driver -----------------------------------------

CHAIN_KERNELS = [
    "corpus/opencl/reduce.cl",                      # pass, loop + barrier, Houdini needed
    "corpus/opencl/reduce_bug_nobarrier.cl",        # intra-group race
    "corpus/opencl/vector_add_bug_intergroup.cl",   # inter-group race
    "corpus/cuda/transpose.cu",                     # pass, 2-D CUDA
    "corpus/cuda/stencil1d.cu",                     # pass, 1-D CUDA with a halo
    "corpus/cuda/reduce_bug_divergence.cu",         # barrier divergence
    "corpus/cuda/assertion_bug_wrong.cu",           # failing user assertion
    "corpus/opencl/kernel_args_stride.cl",          # --kernel-args (vcgen lockstep --kernel-args)
    "corpus/cuda/shift_bounds_bug_negative.cu",     # --check-array-bounds
]


@pytest.fixture(scope="module")
def make_env(tmp_path_factory):
    """A BIN directory with `bugle`/`vcgen` wrappers for this interpreter, a VENV whose
    `.installed` stamp is newer than pyproject.toml (so `setup` installs nothing), and
    the make command line overriding BIN, PY, VENV and BUILD."""
    root = tmp_path_factory.mktemp("chain")
    bindir, venv = root / "bin", root / "venv"
    bindir.mkdir()
    venv.mkdir()
    for name, module in (("bugle", "bugle.cli"), ("vcgen", "vcgen.cli"), ("gpuverify", "vcgen.driver")):
        w = bindir / name
        w.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m {module} "$@"\n')
        w.chmod(w.stat().st_mode | stat.S_IXUSR)
    (venv / ".installed").touch()
    env = dict(os.environ, PYTHONPATH=str(REPO))
    argv = ["make", "--no-print-directory", "-C", str(REPO), f"BUILD={root / 'build'}", f"VENV={venv}",
            f"BIN={bindir}", f"PY={sys.executable}"]
    return root, argv, env


def first_report_line(text: str) -> str:
    """The first error / Verified line, directories stripped from file names and what
    depends on the counterexample the solver picked replaced by ``N`` (the element index,
    thread and group ids: with the default solver a query slower than 1 s is raced
    against other solvers, so the model depends on timing, not on the chaining)."""
    for line in text.splitlines():
        if "error:" in line or line.startswith("Verified:"):
            line = re.sub(r"\[\d+\]", "[N]", line)
            line = re.sub(r"\b(thread|thread block|global id|work item|local id|work group) \d+", r"\1 N", line)
            return " ".join(os.path.basename(w) if "/" in w else w for w in line.split(" "))
    return ""


def driver_run(kernel: str) -> subprocess.CompletedProcess:
    flags = stage_flags("all", parse_header(REPO / kernel).flags)
    return subprocess.run([sys.executable, "-m", "vcgen.driver", *flags, kernel], cwd=REPO,
                          env=dict(os.environ, PYTHONPATH=str(REPO)), capture_output=True, text=True,
                          timeout=600)


@pytest.mark.parametrize("kernel", CHAIN_KERNELS)
def test_chaining_equals_driver(make_env, kernel):
    root, argv, env = make_env
    stem = root / "build" / Path(kernel).with_suffix("")
    verdict = Path(f"{stem}.verdict")
    m = subprocess.run(argv + [str(verdict)], env=env, capture_output=True, text=True, timeout=600)
    assert m.returncode == 0, m.stdout + m.stderr
    assert "pip install" not in m.stdout, "the setup prerequisite reinstalled the project"
    lines = verdict.read_text().splitlines()
    assert lines and lines[-1].startswith("exit "), lines
    chain_code = int(lines[-1].split()[1])
    d = driver_run(kernel)
    assert "Traceback" not in d.stderr
    assert chain_code == d.returncode, f"chain: {lines}\ndriver: {d.stdout}{d.stderr}"
    assert chain_code == parse_header(REPO / kernel).expected
    assert first_report_line("\n".join(lines)) == first_report_line(d.stdout)
    assert first_report_line(d.stdout), d.stdout
    # every intermediate file is printer-normal: print(parse(text)) == text
    for suffix in (".gbpl", ".abs.gbpl", ".bpl", ".inv.bpl"):
        text = Path(f"{stem}{suffix}").read_text()
        assert program_str(parse_program(text, f"{stem}{suffix}")) == text, suffix


def test_chaining_front_end_error_matches_driver(make_env):
    """A kernel the front end rejects: `make` stops at the same stage with the same message."""
    root, argv, env = make_env
    kernel = "corpus/cuda/warp_lane_bug_ptx.cu"
    target = root / "build" / "corpus/cuda/warp_lane_bug_ptx.gbpl"
    m = subprocess.run(argv + [str(target)], env=env, capture_output=True, text=True, timeout=600)
    assert m.returncode != 0 and not target.exists()
    d = driver_run(kernel)
    assert d.returncode == ExitCode.BUGLE_ERROR == parse_header(REPO / kernel).expected
    msg = first_report_line(d.stderr)
    assert msg and msg in first_report_line(m.stderr), (m.stderr, d.stderr)
