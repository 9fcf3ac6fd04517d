"""The front end's two stages (docs/design.md section 2): ``bugle cc`` (OpenCL C / CUDA ->
LLVM IR) and ``bugle translate`` (LLVM IR -> one-thread IL), with their flags and options.
They head the pipeline's list of stages, ``vcgen.stages.STAGES``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from vcgen import il
from vcgen.il.stage import Flag, MakeRule, Stage, option_value

from .cc import PASS_STAGES, compile_kernel
from .launch_sites import HostLaunches, host_launches
from .bodiless import MODES as BODILESS_MODES
from .translate import translate_ir


@dataclass(frozen=True)
class CcOptions:
    """``language``: ``opencl``/``cuda`` or None (from the suffix); ``defines``:
    ``NAME[=V]``; ``includes``: directories; ``spir64``: 64-bit ``size_t`` for OpenCL;
    ``clang_opts``: extra ``clang -cc1`` options; ``stop_after``: the last step of the pass
    pipeline to run (``bugle.cc.PASS_STAGES``); ``keep_functions`` (``--no-inline``): keep
    the functions verified on their own against their contracts (``bugle.modular``)."""
    language: str | None = None
    defines: tuple[str, ...] = ()
    includes: tuple[str, ...] = ()
    spir64: bool = False
    clang_opts: tuple[str, ...] = ()
    stop_after: str = "verify"
    keep_functions: bool = False


@dataclass(frozen=True)
class TranslateOptions:
    """``kernel``: the kernel to translate (source or LLVM name; needed when the module has
    several); ``source_path``: the file name ``{:sourceloc}`` attributes give the main
    source file; ``function``: translate this non-kernel function as the entry of its
    modular check instead (``--no-inline``, ``bugle.modular``); ``bodiless_calls``: what a
    call to a function declared but not defined does, ``havoc`` (its result and the arrays
    its pointer arguments reach become arbitrary) or ``error`` (``bugle.bodiless``)."""
    kernel: str | None = None
    source_path: str | None = None
    function: str | None = None
    bodiless_calls: str = "havoc"


CC_FLAGS = (
    Flag("defines", ("-D",), "Preprocessor definition NAME[=VALUE].", multiple=True, metavar="NAME[=V]"),
    Flag("includes", ("-I",), "Include directory.", multiple=True, metavar="DIR"),
    Flag("spir64", ("--spir64",), "OpenCL: 64-bit size_t and pointers (spir64 triple).", is_flag=True),
    Flag("language", ("--language",), "Override the language chosen from the suffix (.cl/.cu).",
         choices=("opencl", "cuda"), in_driver=False),
    Flag("clang_opts", ("--clang-opt",), "Option passed through to clang -cc1, e.g. --clang-opt=-DN=4 "
         "(repeatable).", multiple=True, metavar="OPT"),
    Flag("stop_after", ("--stop-after",), "Print the module after this step of the pass pipeline "
         "(clang = clang's output; see bugle.cc.PIPELINE).", choices=PASS_STAGES, default="verify",
         in_driver=False),
    Flag("no_inline", ("--no-inline",), "Also verify functions on their own against their contracts "
         "(every input their __requires allow); kernels are still verified with calls inlined "
         "(bugle cc: keep those functions, bugle.modular).", is_flag=True),
)
TRANSLATE_FLAGS = (
    Flag("kernel", ("--kernel",), "Kernel to translate (source name) when the file has several."),
    Flag("source_path", ("--source",), "Source file name for {:sourceloc} attributes.", in_driver=False),
    Flag("function", ("--function",), "Translate this non-kernel function as the entry of its modular "
         "check (needs `bugle cc --no-inline`).", in_driver=False),
    Flag("bodiless_calls", ("--bodiless-calls",), "A call to a function declared but not defined: "
         "havoc = arbitrary result, the arrays its pointer arguments reach are read, written and left "
         "arbitrary (default); error = reject the kernel naming the function.", choices=BODILESS_MODES,
         default="havoc"),
)


@dataclass(frozen=True)
class LaunchesOptions:
    """``defines``/``includes``/``clang_opts``: as ``CcOptions`` (the host compile sees what
    the device compile sees)."""
    defines: tuple[str, ...] = ()
    includes: tuple[str, ...] = ()
    clang_opts: tuple[str, ...] = ()


LAUNCHES_FLAGS = tuple(f for f in CC_FLAGS if f.dest in ("defines", "includes", "clang_opts"))


def launches_options(p: Mapping[str, Any]) -> LaunchesOptions:
    return LaunchesOptions(tuple(option_value(p, "defines", ())), tuple(option_value(p, "includes", ())),
                           tuple(option_value(p, "clang_opts", ())))


def run_launches(path: str, o: LaunchesOptions) -> HostLaunches:
    """The ``bugle launches`` stage: a CUDA file -> the launches of its host code
    (``bugle.launch_sites``)."""
    return host_launches(path, o.defines, o.includes, o.clang_opts)


def cc_options(p: Mapping[str, Any]) -> CcOptions:
    return CcOptions(option_value(p, "language"), tuple(option_value(p, "defines", ())),
                     tuple(option_value(p, "includes", ())), bool(option_value(p, "spir64", False)),
                     tuple(option_value(p, "clang_opts", ())), option_value(p, "stop_after", "verify"),
                     bool(option_value(p, "no_inline", False)))


def translate_options(p: Mapping[str, Any]) -> TranslateOptions:
    return TranslateOptions(option_value(p, "kernel"), option_value(p, "source_path"), option_value(p, "function"),
                            option_value(p, "bodiless_calls", "havoc") or "havoc")


def run_cc(path: str, o: CcOptions) -> str:
    """The ``bugle cc`` stage: kernel source file -> optimized LLVM IR text."""
    return compile_kernel(path, o.language, o.defines, o.includes, o.spir64, o.clang_opts, o.stop_after,
                          keep_functions=o.keep_functions)


def run_translate(ir: str, o: TranslateOptions) -> il.Program:
    """The ``bugle translate`` stage: LLVM IR text -> one-thread IL program."""
    return translate_ir(ir, o.kernel, o.source_path, function=o.function, bodiless=o.bodiless_calls)


CC: Stage[str, str, CcOptions] = Stage(
    "cc", "bugle", "Compile KERNEL (.cl or .cu) to optimized LLVM IR text.", CC_FLAGS, cc_options, run_cc,
    MakeRule(("%.cl", "%.cu"), "$(BUILD)/%.ll", header="$<"))
TRANSLATE: Stage[str, il.Program, TranslateOptions] = Stage(
    "translate", "bugle", "Translate LLVM IR (from `bugle cc`) into the one-thread IL (.gbpl).",
    TRANSLATE_FLAGS, translate_options, run_translate, MakeRule(("$(BUILD)/%.ll",), "$(BUILD)/%.gbpl"))
LAUNCHES: Stage[str, HostLaunches, LaunchesOptions] = Stage(
    "launches", "bugle", "Print the kernel launches of a CUDA file's host code with their sizes "
    "(* = not a compile-time constant), as launch flags.", LAUNCHES_FLAGS, launches_options, run_launches,
    MakeRule(("%.cu",), "$(BUILD)/%.launches", header="$<", stdout=True), in_pipeline=False)
STAGES = (CC, TRANSLATE, LAUNCHES)
