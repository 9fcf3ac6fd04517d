"""A fresh machine and a real install (README "Tests"): nothing in the suite may depend on
the machine it was written on, and ``pip install .`` must give a working verifier.

* No tracked file under ``tests/``, ``Makefile``, ``.ci/`` or ``pyproject.toml`` names a
  temporary-directory or home-directory path: tests find the project's commands through
  the running interpreter (``sys.executable``) and write into pytest's ``tmp_path``.
* The wheel built from this checkout holds every tracked file of the package folders
  (``bugle/``, ``vcgen/``, and ``prelude/``, ``templates/`` mapped into ``vcgen``; see
  pyproject.toml), and installed into a fresh virtual environment outside the checkout
  (dependencies resolved by pip, nothing borrowed from the test environment) its
  ``gpuverify`` verifies a correct corpus kernel (exit 0), reports the race of a racy one
  (exit 6), and its stage commands chain ``bugle cc`` ... ``vcgen verify``.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from header_flags import stage_flags
from vcgen.il.errors import ExitCode
from vcgen.testsuite import parse_header

ROOT = Path(__file__).resolve().parent.parent
VERIFIED_KERNEL = ROOT / "corpus" / "opencl" / "reduce.cl"
RACY_KERNEL = ROOT / "corpus" / "opencl" / "reduce_bug_nobarrier.cl"
PIP_TIMEOUT = 900  # seconds: building the wheel, resolving and unpacking the dependencies
RUN_TIMEOUT = 600  # seconds per installed command

# --------------------------------------------------------------- machine paths

# Built from pieces, so that this file (which is checked too) does not match its own
# pattern: absolute paths under the usual temporary and home roots, paths relative to the
# home directory (tilde), and the HOME variable.
_ROOTS = ("tmp", "var/tmp", "home", "root", "Users", "work")
MACHINE_PATH = re.compile(
    r"(?<![\w./~-])/(?:" + "|".join(_ROOTS) + r")\b"
    + r"|(?<![\w$])~[/]"
    + r"|\$[({]?HOME\b")
CHECKED = ("tests", "Makefile", ".ci", "pyproject.toml")


def tracked_files(*paths: str) -> list:
    """Paths (relative to the checkout) of the files git tracks under ``paths``."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    out = subprocess.run(["git", "ls-files", "-z", "--", *paths], cwd=ROOT, check=True,
                         capture_output=True).stdout.decode()
    return [p for p in out.split("\0") if p]


@pytest.mark.parametrize("text", [
    "/" + "tmp" + "/venv/bin/gpuverify", 'directory: "/' + 'tmp"', "/var/" + "tmp/x",
    "/" + "home/alice/k.cl", "/" + "root/.cache", "/" + "work/main/corpus", "/" + "Users/bob",
    "~" + "/venv", "cd ~" + "/x", "$" + "HOME/.local", "$(" + "HOME)/x", "${" + "HOME}/x",
])
def test_machine_path_pattern_catches(text):
    assert MACHINE_PATH.search(text), text


@pytest.mark.parametrize("text", [
    "tmp_path / 'k.cl'", "build/" + "tmp/x", "corpus/" + "work/k.cl", "a.home", "os.path.expanduser",
    "x ~= y", "$(BIN)/gpuverify",
])
def test_machine_path_pattern_spares(text):
    assert not MACHINE_PATH.search(text), text


def test_no_machine_paths_in_tests_makefile_ci():
    hits = []
    for rel in tracked_files(*CHECKED):
        text = (ROOT / rel).read_bytes().decode("utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            if MACHINE_PATH.search(line):
                hits.append(f"{rel}:{number}: {line.strip()}")
    assert not hits, "machine-specific paths (use sys.executable, tmp_path):\n" + "\n".join(hits)


# --------------------------------------------------------------- a real install

def installed_names() -> dict:
    """Tracked file (checkout path) -> its path inside the wheel, from pyproject.toml's
    package list and package-dir mapping (a package without a mapping lives in the folder
    named like it)."""
    conf = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    mapped = conf.get("package-dir", {})
    wheel_dir = {mapped.get(pkg, pkg.replace(".", "/")): pkg.replace(".", "/") for pkg in conf["packages"]}
    names = {}
    for rel in tracked_files(*wheel_dir):
        folder = max((f for f in wheel_dir if rel.startswith(f + "/")), key=len)
        names[rel] = wheel_dir[folder] + rel[len(folder):]
    return names


def build_wheel(work: Path) -> Path:
    """The wheel of a copy of this checkout (pip builds in the source tree: the copy keeps
    build/ and *.egg-info out of the checkout)."""
    src = work / "src"
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(
        ".git", ".venv", "build", "*.egg-info", "__pycache__", "Output", ".pytest_cache"))
    pip(sys.executable, "wheel", "--no-deps", "-w", str(work / "wheels"), str(src))
    wheels = list((work / "wheels").glob("*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


def pip(python: str, *args: str) -> None:
    """``pip`` of the test environment acting on ``python``'s environment."""
    p = subprocess.run([sys.executable, "-m", "pip", "--python", python, "-q", *args],
                       capture_output=True, text=True, timeout=PIP_TIMEOUT)
    assert p.returncode == 0, p.stdout + p.stderr


def clean_env(venv: Path) -> dict:
    """The environment of a user of the new virtual environment: its bin first on PATH, no
    PYTHONPATH or other interpreter's directories that could supply ``vcgen``."""
    ours = str(Path(sys.executable).parent)
    path = [venv / "bin"] + [d for d in os.environ.get("PATH", "").split(os.pathsep) if d != ours]
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP")}
    env["PATH"] = os.pathsep.join(map(str, path))
    return env


def run(venv: Path, cwd: Path, command: str, *args: str) -> subprocess.CompletedProcess:
    """An installed console script, run in ``cwd`` (outside the checkout)."""
    return subprocess.run([str(venv / "bin" / command), *args], cwd=cwd, env=clean_env(venv),
                          capture_output=True, text=True, timeout=RUN_TIMEOUT)


def check_wheel_contents(wheel: Path) -> None:
    shipped = set(zipfile.ZipFile(wheel).namelist())
    expected = installed_names()
    missing = sorted(f"{rel} (as {name})" for rel, name in expected.items() if name not in shipped)
    assert not missing, "tracked files missing from the wheel (pyproject.toml packages/package-data):\n" \
        + "\n".join(missing)
    assert {"vcgen/boogie_prelude/bitvector.bpl", "vcgen/templates/verdict.txt.j2",
            "vcgen/il/grammar.lark", "bugle/include/opencl.h"} <= shipped


def check_imports_from_venv(venv: Path, work: Path) -> None:
    p = subprocess.run([str(venv / "bin" / "python"), "-c",
                        "import bugle, vcgen; print(bugle.__file__); print(vcgen.__file__)"],
                       cwd=work, env=clean_env(venv), capture_output=True, text=True, timeout=RUN_TIMEOUT)
    assert p.returncode == 0, p.stderr
    for module_file in p.stdout.split():
        assert Path(module_file).resolve().is_relative_to(venv.resolve()), module_file
        assert not Path(module_file).resolve().is_relative_to(ROOT), module_file


def check_driver(venv: Path, work: Path) -> None:
    """The installed ``gpuverify`` with each kernel's header flags: exit code, the
    header's expected report lines, and the verdict line."""
    for kernel, code, verdict in ((VERIFIED_KERNEL, ExitCode.SUCCESS, r"^Verified: .*reduce\.cl$"),
                                  (RACY_KERNEL, ExitCode.NOT_ALL_VERIFIED,
                                   r"error: possible (write-read|read-write) race on .*sdata")):
        header = parse_header(kernel)
        assert header.expected is code
        p = run(venv, work, "gpuverify", *header.flags, str(kernel))
        out = p.stdout + p.stderr
        assert p.returncode == code, f"{kernel.name}: exit {p.returncode}\n{out}"
        for pattern in (*header.patterns, re.compile(verdict, re.M)):
            assert pattern.search(out), f"{kernel.name}: no match for {pattern.pattern!r}\n{out}"


def check_stage_chain(venv: Path, work: Path) -> None:
    """``bugle cc`` -> ``bugle translate`` -> ``vcgen abstract`` -> ``vcgen lockstep`` ->
    ``vcgen houdini`` -> ``vcgen verify``, files on disk, flags from the kernel's header."""
    kernel = work / VERIFIED_KERNEL.name
    shutil.copy(VERIFIED_KERNEL, kernel)
    flags = parse_header(VERIFIED_KERNEL).flags
    stages = [("bugle", "cc", "k.cl", "k.ll"), ("bugle", "translate", "k.ll", "k.gbpl"),
              ("vcgen", "abstract", "k.gbpl", "k.abs.gbpl"), ("vcgen", "lockstep", "k.abs.gbpl", "k.bpl"),
              ("vcgen", "houdini", "k.bpl", "k.inv.bpl")]
    for command, stage, src, dst in stages:
        src = kernel.name if src == "k.cl" else src
        p = run(venv, work, command, stage, src, *stage_flags(stage, flags), "-o", dst)
        assert p.returncode == 0 and (work / dst).stat().st_size > 0, f"{command} {stage}: {p.stdout}{p.stderr}"
    p = run(venv, work, "vcgen", "verify", "k.inv.bpl", *stage_flags("verify", flags), "--source", kernel.name)
    assert p.returncode == 0 and f"Verified: {kernel.name}" in p.stdout, p.stdout + p.stderr


def test_wheel_installs_into_fresh_venv_and_verifies(tmp_path_factory):
    """One test (not a module fixture shared by several): under ``pytest -n`` each worker
    would build and install its own copy.  The virtual environment (hundreds of MB: clang,
    z3) is removed afterwards."""
    work = tmp_path_factory.mktemp("install")
    try:
        wheel = build_wheel(work)
        check_wheel_contents(wheel)
        venv = work / "venv"
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True,
                       timeout=RUN_TIMEOUT)
        pip(str(venv / "bin" / "python"), "install", "--no-compile", str(wheel))
        check_imports_from_venv(venv, work)
        check_driver(venv, work)
        check_stage_chain(venv, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
