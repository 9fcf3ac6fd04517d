"""The pipeline's stages, in order, with their flags (docs/design.md section 2):
``STAGES`` is the one list the stage commands, ``gpuverify``, the Makefile's stage rules and
``tests/header_flags.py`` are derived from (``vcgen.il.stage``).

``python -m vcgen.stages makefile`` prints the Makefile's stage rules.
"""
from __future__ import annotations

import sys
from typing import Any, Mapping

import bugle.stages

from . import il
from .analysis import abstraction
from .analysis.abstraction import AbstractOptions
from .il.errors import ExitCode, ToolError
from .il.stage import Flag, MakeRule, Stage, option_value
from .inference.houdini import HoudiniOptions, HoudiniResult, ProvedInvariants, run_houdini
from .report.results import VerificationResult
from .twothread import transform
from .twothread.launch import launch_config
from .twothread.options import LockstepOptions
from .vc import query
from .vc.query import SmtOptions
from .verify.checker import VerifyOptions, verify_program

# ---------------------------------------------------------------------------- flags

ABSTRACT_FLAGS = (
    Flag("equality_abstraction", ("--equality-abstraction",), "Equality abstraction for every array.",
         is_flag=True, vcgen_opt=True),
    Flag("adversarial_abstraction", ("--adversarial-abstraction",), "Adversarial abstraction for every array.",
         is_flag=True, vcgen_opt=True),
)
LAUNCH_FLAGS = (
    Flag("local_size", ("--local_size", "--local-size"), "Work-group size: N, [x,y] or [x,y,z]; * for any "
         "size (symbolic: at most 1024 work items per group and, with 32-bit global offsets, 2^32 / (bytes of "
         "the widest global element) work items in all; README)."),
    Flag("num_groups", ("--num_groups", "--num-groups"), "Number of work groups: N, [x,y] or [x,y,z]; * for "
         "any number (within the limits of --local_size)."),
    Flag("global_size", ("--global_size", "--global-size"), "Global size (a multiple of the local size)."),
    Flag("block_dim", ("--blockDim",), "CUDA threads per block (* for any: at most 1024)."),
    Flag("grid_dim", ("--gridDim",), "CUDA blocks per grid (* for any: fewer than 2^32 threads per dimension)."),
    Flag("global_offset", ("--global_offset",), "OpenCL global offset."),
)
LOCKSTEP_FLAGS = LAUNCH_FLAGS + (
    Flag("only_intra_group", ("--only-intra-group",), "Check only pairs of threads in one group.",
         is_flag=True, vcgen_opt=True),
    Flag("only_divergence", ("--only-divergence",), "Check only barrier divergence (adversarial arrays).",
         is_flag=True, vcgen_opt=True),
    Flag("no_benign_tolerance", ("--no-benign-tolerance",), "Report same-value write-write races too.",
         is_flag=True, vcgen_opt=True),
    Flag("no_infer", ("--no-infer",), "Generate no candidate invariants.", is_flag=True, vcgen_opt=True),
    Flag("warp_sync", ("--warp-sync",), "Warp size: threads of one warp run in lock-step (pre-Volta CUDA).",
         type=int, vcgen_opt=True),
    Flag("check_array_bounds", ("--check-array-bounds",),
         "Check that accesses to arrays of known size (local/shared/constant/private/fixed-size global "
         "arrays) stay in bounds.", is_flag=True, vcgen_opt=True),
    Flag("kernel_args", ("--kernel-args",), "Fix scalar arguments of kernel NAME, in source parameter "
         "order (* = any value; pointers take *). Decimal or hex.", metavar="NAME,V1,*,...", vcgen_opt=True),
    Flag("invariants_as_candidates", ("--invariants-as-candidates",), "User loop invariants (also "
         "function-wide ones) become candidates for Houdini: kept if proved, dropped otherwise.",
         is_flag=True, vcgen_opt=True),
    Flag("asymmetric_asserts", ("--asymmetric-asserts",), "Instantiate annotations (assertions, "
         "invariants, contracts) and candidate invariants for the first thread only.", is_flag=True, vcgen_opt=True),
    Flag("only_log", ("--only-log",), "Log accesses (for annotations about the logs) but check no races.",
         is_flag=True, vcgen_opt=True),
    Flag("no_annotations", ("--no-annotations",), "Ignore every source annotation.", is_flag=True,
         vcgen_opt=True),
    Flag("only_requires", ("--only-requires",), "Ignore every source annotation except __requires.",
         is_flag=True, vcgen_opt=True),
    Flag("check_arrays", ("--check-arrays",), "Log and race-check only these arrays (source names, "
         "comma-separated; GPUVerify: --vcgen-opt=/checkArrays:A,B).", metavar="A,B,...", vcgen_opt=True),
    Flag("no_barrier_access_checks", ("--no-barrier-access-checks",), "Check barrier invariants without "
         "checking that the work item may read the memory they read (unsound when another work item wrote it).",
         is_flag=True, vcgen_opt=True),
)
# flags of ``gpuverify`` alone: what it does between the stages
DRIVER_FLAGS = (
    Flag("no_launch_inference", ("--no-launch-inference",), "CUDA: do not read launch sizes from the "
         "host code's <<<grid, block>>> launches (bugle launches); with no size flag every size is then "
         "symbolic.", is_flag=True),
)
# shared by the Houdini and verify stages
TIMEOUT = Flag("timeout", ("--timeout",), "Seconds per solver query (0 = none).", type=float,
               driver={"type": int, "default": 300, "show_default": True})
SOLVER = Flag("solver", ("--solver",), "SMT-LIB2 solver: z3|cvc5|yices|bitwuzla or a command line.",
              driver={"default": "auto", "show_default": True,
                      "help": "auto (z3 in-process; a query undecided after 0.25 s is raced against "
                              "yices/bitwuzla/cvc5 when installed), z3 (in-process only), cvc5, yices, "
                              "bitwuzla, portfolio[:yices,cvc5,...], or an SMT-LIB2 solver command line."})
INFER_INFO = Flag("infer_info", ("--infer-info",), "Print candidates generated and proved per rule.",
                  is_flag=True, vcgen_opt=True)
MATH_INT = Flag("math_int", ("--math-int",), "Mathematical integers instead of bit-vectors (faster; "
                "unsound for overflow).", is_flag=True, vcgen_opt=True)
LOOP_UNWIND = Flag("loop_unwind", ("--loop-unwind",), "Unroll loops N times instead of cutting them "
                   "(implies --findbugs; default 2).", type=int)
HOUDINI_FLAGS = (
    TIMEOUT, SOLVER, INFER_INFO,
    Flag("refutation", ("--refutation",), "Refutation engines for Houdini (paper 003 section 5): none, "
         "or a comma-separated list of sbase, sstep, lu1, dyn run alongside Houdini; prefix seq: to run "
         "them first.", metavar="SPEC", vcgen_opt=True),
    Flag("disable_rules", ("--disable-rule",), "Drop the candidate invariants of RULE (e.g. r7) before "
         "Houdini (rule worth).", multiple=True, metavar="RULE", vcgen_opt=True),
)
SMT_FLAGS = (LOOP_UNWIND, MATH_INT)
VERIFY_FLAGS = (
    TIMEOUT, SOLVER,
    Flag("json", ("--json",), "Print the result as JSON.", is_flag=True),
    Flag("findbugs", ("--findbugs",), "Bug-finding mode: unroll loops, no invariants.", is_flag=True),
    LOOP_UNWIND,
    Flag("k_induction_depth", ("--k-induction-depth",), "Prove loops by k-induction of depth K "
         "(K checked iterations from the entry; from any K consecutive iterations in which every "
         "assertion held, the next): invariants need not be inductive on their own.", type=int,
         metavar="K"),
    Flag("source", ("--source",), "The kernel source file (report and source lines).", in_driver=False),
    INFER_INFO, MATH_INT,
)

# ----------------------------------------------------------------- options from flags


def _usage(message: str) -> ToolError:
    return ToolError(message, ExitCode.COMMAND_LINE_ERROR)


def _seconds(p: Mapping[str, Any]) -> float | None:
    t = option_value(p, "timeout")
    return t if t and t > 0 else None  # 0 = no limit


def abstract_options(p: Mapping[str, Any]) -> AbstractOptions:
    """``--only-divergence`` (a lock-step flag, given to ``gpuverify``) forces adversarial."""
    eq, adv = option_value(p, "equality_abstraction", False), option_value(p, "adversarial_abstraction", False)
    if eq and adv:
        raise _usage("--equality-abstraction and --adversarial-abstraction exclude each other")
    if eq and option_value(p, "only_divergence", False):
        raise _usage("--only-divergence uses the adversarial abstraction; drop --equality-abstraction")
    adv = adv or option_value(p, "only_divergence", False)
    return AbstractOptions("equality" if eq else "adversarial" if adv else None)


def lockstep_options(p: Mapping[str, Any]) -> LockstepOptions:
    """Raises ToolError(COMMAND_LINE_ERROR) for a missing or malformed launch configuration
    (a global size that is not a multiple of the local size included) and a warp size
    below 1."""
    warp_sync = option_value(p, "warp_sync")
    if warp_sync is not None and warp_sync <= 0:
        raise _usage("--warp-sync: the warp size must be positive")
    launch = launch_config(*(option_value(p, f.dest) for f in LAUNCH_FLAGS))
    if option_value(p, "no_annotations", False) and option_value(p, "only_requires", False):
        raise _usage("--no-annotations and --only-requires exclude each other")
    annotations = "none" if option_value(p, "no_annotations", False) else \
        "requires" if option_value(p, "only_requires", False) else "all"
    check = option_value(p, "check_arrays")
    check_arrays = tuple(n for n in check.split(",") if n) if check is not None else None
    if check_arrays == ():
        raise _usage("--check-arrays needs at least one array name")
    return LockstepOptions(launch, only_intra_group=option_value(p, "only_intra_group", False),
                           only_divergence=option_value(p, "only_divergence", False),
                           benign_tolerance=not option_value(p, "no_benign_tolerance", False),
                           infer=not option_value(p, "no_infer", False), warp_sync=warp_sync,
                           check_array_bounds=option_value(p, "check_array_bounds", False),
                           kernel_args=option_value(p, "kernel_args"),
                           invariants_as_candidates=option_value(p, "invariants_as_candidates", False),
                           asymmetric_asserts=option_value(p, "asymmetric_asserts", False),
                           only_log=option_value(p, "only_log", False), check_arrays=check_arrays,
                           annotations=annotations,
                           no_barrier_access_checks=option_value(p, "no_barrier_access_checks", False))


def houdini_options(p: Mapping[str, Any]) -> HoudiniOptions:
    return HoudiniOptions(_seconds(p), option_value(p, "solver"), option_value(p, "refutation"),
                          tuple(option_value(p, "disable_rules", ())), option_value(p, "math_int", False))


def smt_options(p: Mapping[str, Any]) -> SmtOptions:
    return SmtOptions(option_value(p, "loop_unwind"), option_value(p, "math_int", False))


def verify_options(p: Mapping[str, Any]) -> VerifyOptions:
    unwind = option_value(p, "loop_unwind")
    return VerifyOptions(_seconds(p), option_value(p, "solver"),
                         option_value(p, "findbugs", False) or unwind is not None, unwind,
                         option_value(p, "source"), option_value(p, "json", False),
                         math_int=option_value(p, "math_int", False),
                         k_induction_depth=option_value(p, "k_induction_depth"))


def run_verify(program: il.Program, options: VerifyOptions,
               proved: ProvedInvariants | None = None) -> VerificationResult:
    """The ``vcgen verify`` stage (``verify_program``); ``proved``: the record of the
    invariants the Houdini stage proved in this process (``gpuverify`` only)."""
    return verify_program(program, options, proved=proved)

# ---------------------------------------------------------------------------- stages


ABSTRACT: Stage[il.Program, il.Program, AbstractOptions] = Stage(
    "abstract", "vcgen", "Choose the shared-state abstraction per array (taint analysis, paper 000 5.2).",
    ABSTRACT_FLAGS, abstract_options, abstraction.run, MakeRule(("$(BUILD)/%.gbpl",), "$(BUILD)/%.abs.gbpl"))
LOCKSTEP: Stage[il.Program, il.Program, LockstepOptions] = Stage(
    "lockstep", "vcgen", "Two-thread reduction: one-thread .gbpl -> two-thread .bpl with checks and "
    "candidates.", LOCKSTEP_FLAGS, lockstep_options, transform.run,
    MakeRule(("$(BUILD)/%.abs.gbpl",), "$(BUILD)/%.bpl"))
HOUDINI: Stage[il.Program, HoudiniResult, HoudiniOptions] = Stage(
    "houdini", "vcgen", "Keep the largest inductive subset of the candidate invariants.",
    HOUDINI_FLAGS, houdini_options, run_houdini, MakeRule(("$(BUILD)/%.bpl",), "$(BUILD)/%.inv.bpl"))
SMT: Stage[il.Program, str, SmtOptions] = Stage(
    "smt", "vcgen", "Write the verification query as a standalone SMT-LIB2 script (unsat = verified).",
    SMT_FLAGS, smt_options, query.run, MakeRule(("$(BUILD)/%.inv.bpl",), "$(BUILD)/%.smt2"), in_pipeline=False)
VERIFY: Stage[il.Program, VerificationResult, VerifyOptions] = Stage(
    "verify", "vcgen", "Verify a two-thread program (running Houdini first if it has candidates).",
    VERIFY_FLAGS, verify_options, run_verify,
    MakeRule(("$(BUILD)/%.inv.bpl",), "$(BUILD)/%.verdict", extra="--source $(call src_of,$*)", stdout=True))

STAGES: tuple[Stage, ...] = (*bugle.stages.STAGES, ABSTRACT, LOCKSTEP, HOUDINI, SMT, VERIFY)


def by_name(name: str) -> Stage:
    """The stage called ``name``; KeyError if none."""
    return {s.name: s for s in STAGES}[name]


def driver_flags() -> tuple[Flag, ...]:
    """The stage flags ``gpuverify`` takes: each flag of a pipeline stage once, in stage order,
    then ``DRIVER_FLAGS``."""
    out: dict[str, Flag] = {}
    for s in STAGES:
        for f in s.flags:
            if s.in_pipeline and f.in_driver:
                out.setdefault(f.dest, f)
    return tuple(out.values()) + DRIVER_FLAGS


def makefile_rules() -> str:
    """The Makefile's stage rules: one pattern rule per stage input, each running the stage
    command on the kernel header's flags for it (``tests/header_flags.py STAGE``)."""
    out = ["# Generated by `python -m vcgen.stages makefile` from vcgen.stages.STAGES.", ""]
    for s in STAGES:
        m = s.make
        flags = f"$$($(PY) tests/header_flags.py {s.name} {m.header})"
        extra = f" {m.extra}" if m.extra else ""
        for source in m.inputs:
            out.append(f"{m.output}: {source}" + (" | setup" if not source.startswith("$(BUILD)") else ""))
            out.append("\t@mkdir -p $(dir $@)")
            if m.stdout:
                out.append(f"\t$(BIN)/{s.tool} {s.name} $< {flags}{extra} > $@; echo \"exit $$?\" >> $@")
            else:
                out.append(f"\t$(BIN)/{s.tool} {s.name} $< {flags}{extra} -o $@")
            out.append("")
    return "\n".join(out)


if __name__ == "__main__":
    if sys.argv[1:] != ["makefile"]:
        sys.exit("usage: python -m vcgen.stages makefile")
    sys.stdout.write(makefile_rules())
