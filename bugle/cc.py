"""``bugle cc``: OpenCL C / CUDA -> LLVM IR, the front-end recipe of docs/design.md section 2.1.

1. clang 22 from the ``ziglang`` wheel (its ``zig clang -cc1 ...``, ``zig_command``) at
   ``-O1 -disable-llvm-passes`` (``-O0`` would mark everything ``noinline``), line tables,
   our header (``bugle/include/opencl.h`` or ``cuda.h``) force-included;
2. an llvmlite pass pipeline (``PIPELINE``): ``alwaysinline`` on every non-kernel
   definition, then always-inliner, SROA, lower-switch, instruction namer, DCE, global
   DCE, verifier.  Never simplifycfg/instcombine or other passes that exploit undefined
   behaviour (they would turn a possible null dereference into ``llvm.assume``/
   ``unreachable``).  No pass may delete a load or store of non-private memory (a read
   whose value is unused still races): ``bugle.keep_accesses`` marks them volatile, before
   the pipeline and again after SROA.

Errors: ToolError with CLANG_ERROR (2, clang's diagnostics in the message) or
OPT_ERROR (3); COMMAND_LINE_ERROR (1) for a missing file or unknown language.
"""
from __future__ import annotations

import atexit
import contextlib
import importlib.util
import os
import re
import subprocess
import sys
from importlib import resources
from pathlib import Path

import llvmlite.binding as llvm

from vcgen.il.errors import ExitCode, ToolError

from . import irtext
from .annotations import mark_returns
from .function_pointers import promote_indirect_calls
from .keep_accesses import keep_accesses
from .modular import checked_functions
from .undefined import havoc_locals

# Our headers (package data, pyproject.toml) as a directory clang can read: importlib.resources
# gives the installed folder itself (wheel or editable install), or an extracted copy that
# lives until the process exits if the package is not on the file system.
_RESOURCES = contextlib.ExitStack()
atexit.register(_RESOURCES.close)
INCLUDE_DIR: Path = _RESOURCES.enter_context(resources.as_file(resources.files("bugle") / "include"))
EVENT_TYPE = 'target("spirv.Event")'
# OpenCL images and samplers (bugle.images): an image is a pointer to its global array,
# a sampler its bv32 flag word (what ``__translate_sampler_initializer`` receives)
IMAGE_TYPE = re.compile(r'target\("spirv\.Image"[^)]*\)')
SAMPLER_TYPE = 'target("spirv.Sampler")'
_DEFINE_KERNEL = re.compile(
    r'^define [^@\n]*\b(?:spir_kernel|ptx_kernel)\b[^@\n]*@(?:"((?:[^"\\]|\\.)*)"|([-A-Za-z0-9_.$]+))\(',
    re.M)


def language_of(path: str, language: str | None = None) -> str:
    """``"opencl"`` or ``"cuda"`` from an explicit choice or the file suffix (.cl / .cu)."""
    if language:
        if language not in ("opencl", "cuda"):
            raise ToolError(f"unknown language {language!r} (expected opencl or cuda)",
                            ExitCode.COMMAND_LINE_ERROR)
        return language
    suffix = Path(path).suffix.lower()
    if suffix == ".cl":
        return "opencl"
    if suffix in (".cu", ".cuh"):
        return "cuda"
    raise ToolError(f"{path}: cannot tell the language from the suffix (use .cl or .cu)",
                    ExitCode.COMMAND_LINE_ERROR)


def clang_command(path: str, language: str, defines=(), includes=(), spir64: bool = False,
                  clang_opts=(), host: bool = False) -> list[str]:
    """The clang ``-cc1`` command line (emits LLVM IR text on stdout); ``clang_opts`` are
    extra ``-cc1`` options passed through (``--clang-opt``).  ``host`` (CUDA only): the
    *host* side of the file (x86-64, ``-aux-triple`` nvptx64 so device builtins still
    parse), with the device compile's headers and definitions, for ``bugle.launch_sites``;
    unlike the device side it runs LLVM's ``-O1`` passes, so launch sizes written as
    constant-foldable expressions become constants (the host code is never translated or
    verified, so optimising it hides nothing)."""
    p = Path(path)
    common = ["-O1", *([] if host else ["-disable-llvm-passes"]), "-emit-llvm",
              "-debug-info-kind=line-tables-only", "-main-file-name", p.name,
              f"-fdebug-compilation-dir={p.parent.resolve()}", "-I", str(INCLUDE_DIR), "-Wno-everything"]
    if language == "opencl":
        triple = "spir64-unknown-unknown" if spir64 else "spir-unknown-unknown"
        flags = ["-triple", triple, "-x", "cl", "-cl-std=CL1.2", "-fdeclare-opencl-builtins",
                 "-include", str(INCLUDE_DIR / "opencl.h")]
    elif host:
        flags = ["-triple", "x86_64-unknown-linux-gnu", "-aux-triple", "nvptx64-nvidia-cuda", "-x", "cuda",
                 "-std=c++17", "-include", str(INCLUDE_DIR / "cuda.h")]
    else:
        flags = ["-triple", "nvptx64-nvidia-cuda", "-fcuda-is-device", "-x", "cuda", "-std=c++17",
                 "-target-cpu", "sm_70", "-target-feature", "+ptx70",
                 "-include", str(INCLUDE_DIR / "cuda.h")]
    extra = []
    for d in defines:
        extra += ["-D", d]
    for i in includes:
        extra += ["-I", i]
    extra += list(clang_opts)
    if language == "cuda":
        # whole programs: <cstdio>, <cuda_runtime.h>, <curand_kernel.h> ... (declarations for
        # the host code, which is parsed but never translated); after the user's -I
        # directories, so a program's own header of one of these names wins
        extra += ["-isystem", str(INCLUDE_DIR / "system")]
    return [*zig_command(), "clang", "-cc1", *flags, *common, *extra, "-o", "-", str(path)]


def zig_command() -> list[str]:
    """The ``zig`` executable of the ``ziglang`` wheel, found without importing the package:
    ``python -m ziglang`` would start a second interpreter only to ``exec`` it (40-80 ms
    of every verification).  Falls back to ``python -m ziglang`` for a wheel laid out
    otherwise."""
    spec = importlib.util.find_spec("ziglang")
    for loc in (spec.submodule_search_locations or []) if spec else []:
        exe = os.path.join(loc, "zig.exe" if os.name == "nt" else "zig")
        if os.access(exe, os.X_OK):
            return [exe]
    return [sys.executable, "-m", "ziglang"]


STRUCT_POINTER_PARAM = "struct kernel parameters may not contain pointers"  # clang's OpenCL 1.2 rule
# clang's diagnostic when the program typedefs size_t other than the header's (the note
# quotes the header's line)
SIZE_T_REDEFINED = re.compile(r"typedef redefinition with different types[^\n]*\n(?:.*\n)*?"
                              r".*note: previous definition is here\n.*typedef __SIZE_TYPE__ size_t;")


def run_clang(path: str, language: str, defines=(), includes=(), spir64: bool = False,
              clang_opts=(), host: bool = False) -> str:
    """LLVM IR text straight from clang (``host``: the host side of a CUDA file, see
    ``clang_command``).  ToolError(CLANG_ERROR) with clang's diagnostics."""
    if not os.path.isfile(path):
        raise ToolError(f"{path}: file not found", ExitCode.COMMAND_LINE_ERROR)
    cmd = clang_command(path, language, defines, includes, spir64, clang_opts, host)
    try:
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0 and language == "opencl" and STRUCT_POINTER_PARAM in r.stderr \
                and not any(o.startswith("-cl-std=") for o in clang_opts):
            # OpenCL 1.2 forbids pointers in struct kernel parameters, OpenCL 2.0 lifted it
            # (SVM) and GPUVerify accepts them: compile such a kernel as OpenCL 2.0
            clang_opts = (*clang_opts, "-cl-std=CL2.0")
            cmd = clang_command(path, language, defines, includes, spir64, clang_opts)
            r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0 and SIZE_T_REDEFINED.search(r.stderr):
            # CUDA and OpenCL programs written for 32-bit targets typedef their own size_t
            # (GPUVerify compiled them that way): the program's size_t is what it says,
            # the headers keep the target's (the macro in cuda.h / opencl.h)
            cmd = clang_command(path, language, defines, includes, spir64,
                                (*clang_opts, "-D__BUGLE_PROGRAM_SIZE_T"), host)
            r = subprocess.run(cmd, capture_output=True, text=True)
    except OSError as e:
        raise ToolError(f"cannot run clang: {e}", ExitCode.CLANG_ERROR) from None
    if r.returncode != 0:
        diag = r.stderr.strip() or f"clang exited with status {r.returncode}"
        raise ToolError(diag, ExitCode.CLANG_ERROR)
    return r.stdout


# The pipeline after clang, in order: (name, what it is).  ``havoc-locals`` is
# bugle.undefined (an arbitrary value in every private variable, so that no pass folds
# an undefined value into a constant), ``keep-*`` are bugle.keep_accesses (accesses to
# non-private memory marked volatile so that no pass deletes them); the others are LLVM
# passes.  ``bugle cc --stop-after=NAME`` prints the
# module after NAME (the lit tests of tests/lit/bugle/keep_*.{cl,cu} check each pass).
PIPELINE = (
    ("havoc-locals", "uninitialised private variables start arbitrary (bugle.undefined)"),
    ("indirect-calls", "indirect calls to case splits over their candidates (bugle.function_pointers)"),
    ("keep-certain", "mark accesses certainly to non-private memory volatile"),
    ("always-inline", "inline every non-kernel function"),
    ("sroa", "private variables to registers"),
    ("lower-switch", "switch to branches"),
    # before keep-all: its re-parse starts fresh symbol tables, and the names the namer
    # gives after it would differ from those of the pipeline without keep-all (solver
    # models, hence the threads and accesses a report picks, depend on names)
    ("instnamer", "name every value"),
    ("keep-all", "mark every access not provably private volatile"),
    ("dce", "dead code elimination"),
    ("globaldce", "drop functions and globals nothing uses"),
    ("verify", "LLVM's module verifier"),
)
PASS_STAGES = ("clang",) + tuple(name for name, _ in PIPELINE)
_LLVM_PASSES = {
    "always-inline": "add_always_inliner_pass", "sroa": "add_sroa_pass",
    "lower-switch": "add_lower_switch_pass", "dce": "add_dead_code_elimination_pass",
    "globaldce": "add_global_dead_code_eliminate_pass", "instnamer": "add_instruction_namer_pass",
    "verify": "add_verifier",
}


def optimize(ir_text: str, stop_after: str = "verify", keep_functions: bool = False) -> str:
    """Run the bugle pipeline (``PIPELINE``) on IR text up to and including the stage
    ``stop_after``; returns the IR text.  ``stop_after="clang"`` runs nothing.

    ToolError(OPT_ERROR) if the IR does not parse or the verifier rejects the result;
    ValueError for an unknown stage name.
    """
    if stop_after not in PASS_STAGES:
        raise ValueError(f"unknown pipeline stage {stop_after!r} (one of {', '.join(PASS_STAGES)})")
    # OpenCL event_t is an opaque target type that llvmlite cannot read; bugle models
    # events as i32 bit sets of async copy sites (bugle.async_copy).
    ir_text = ir_text.replace(EVENT_TYPE, "i32")
    ir_text = IMAGE_TYPE.sub("ptr addrspace(1)", ir_text.replace(SAMPLER_TYPE, "i32"))
    if stop_after == "clang":
        return ir_text
    try:
        ir_text = havoc_locals(ir_text)
    except irtext.IRTextError as e:
        raise ToolError(f"optimizer: cannot read the IR: {e}", ExitCode.OPT_ERROR) from None
    if stop_after == "havoc-locals":
        return ir_text
    ir_text = promote_indirect_calls(ir_text)
    if stop_after == "indirect-calls":
        return ir_text
    try:
        mod = llvm.parse_assembly(mark_returns(ir_text))
    except RuntimeError as e:
        raise ToolError(f"optimizer: cannot parse IR: {e}", ExitCode.OPT_ERROR) from None
    kernels = _kernel_names(ir_text)
    target = "nvptx" if mod.triple.startswith("nvptx") else "spir"
    kept = set(checked_functions(ir_text)) if keep_functions else set()
    for f in mod.functions:
        if not f.is_declaration and f.name not in kernels:
            f.add_function_attribute("alwaysinline")
            if f.name not in kept:
                f.linkage = llvm.Linkage.internal  # so global DCE drops it once inlined
    try:
        for name, _ in PIPELINE[2:]:
            if name.startswith("keep-"):
                mod = keep_accesses(mod, target, kernels, certain_only=name == "keep-certain")
            else:
                _run_pass(mod, _LLVM_PASSES[name])
            if name == stop_after:
                break
        mod.verify()
    except RuntimeError as e:
        raise ToolError(f"optimizer: {e}", ExitCode.OPT_ERROR) from None
    return str(mod)


def _run_pass(mod, adder: str) -> None:
    """Run one LLVM pass (``adder``: the ModulePassManager method adding it) on ``mod``."""
    pb = llvm.create_pass_builder(None, llvm.create_pipeline_tuning_options())
    mpm = llvm.create_new_module_pass_manager()
    getattr(mpm, adder)()
    mpm.run(mod, pb)


def _kernel_names(ir_text: str) -> set:
    """Names of kernel definitions (calling convention spir_kernel / ptx_kernel)."""
    out = set()
    for m in _DEFINE_KERNEL.finditer(ir_text):
        out.add(m.group(1) if m.group(1) is not None else m.group(2))
    return out


def compile_kernel(path: str, language: str | None = None, defines=(), includes=(),
                   spir64: bool = False, clang_opts=(), stop_after: str = "verify",
                   keep_functions: bool = False) -> str:
    """Source file -> optimized LLVM IR text (the ``bugle cc`` output).

    ``defines``: ``NAME`` or ``NAME=VALUE`` strings; ``includes``: directories;
    ``clang_opts``: extra clang ``-cc1`` options; ``stop_after``: the last stage to run
    (``PASS_STAGES``; the default runs them all); ``keep_functions``: see ``optimize``.
    Raises ToolError (exit codes 1, 2 or 3).
    """
    lang = language_of(path, language)
    return optimize(run_clang(path, lang, defines, includes, spir64, clang_opts), stop_after,
                    keep_functions)
