"""``gpuverify``: the whole chain in one process (DESIGN.md sections 2 and 7).

kernel.cl|.cu -> clang -> LLVM IR -> one-thread IL -> abstraction -> two-thread IL ->
Houdini -> verification -> report.  Everything stays in memory (no re-parsing between
stages); ``--keep-temps`` writes every intermediate file next to the kernel, and the
verdict equals what chaining the stage commands gives.

Exit codes: ``vcgen.exitcodes`` (GPUVerify-compatible).
"""
from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import click

from . import fileio, printer
from .exitcodes import ExitCode, ToolError

LANGS = {".cl": "opencl", ".cu": "cuda", ".ll": "llvm", ".gbpl": "gbpl", ".bpl": "bpl"}


@dataclass
class Timings:
    phases: dict = field(default_factory=dict)

    def run(self, name: str, fn, *a, **k):
        t0 = time.perf_counter()
        try:
            return fn(*a, **k)
        finally:
            self.phases[name] = self.phases.get(name, 0.0) + time.perf_counter() - t0


def _temp_path(kernel: str, suffix: str) -> str:
    p = Path(kernel)
    return str(p.with_name(p.stem + suffix))


def run(kernel: str, o: dict) -> int:
    """Run the pipeline on ``kernel`` with the parsed options ``o``; returns the exit code.

    Raises ToolError for every failure that has its own exit code.
    """
    from .abstract import choose_abstraction
    from .cli import lockstep_options
    from .lockstep import lockstep

    ext = Path(kernel).suffix
    lang = LANGS.get(ext)
    if lang is None:
        raise ToolError(f"{kernel}: unknown file type {ext!r} (expected .cl, .cu, .ll, .gbpl or .bpl)",
                        ExitCode.COMMAND_LINE_ERROR)
    if not os.path.exists(kernel):
        raise ToolError(f"{kernel}: file not found", ExitCode.COMMAND_LINE_ERROR)
    times = Timings()
    keep = o["keep_temps"]
    lopts = lockstep_options(o["local_size"], o["num_groups"], o["global_size"], o["block_dim"], o["grid_dim"],
                             o["global_offset"], o["only_intra_group"], o["only_divergence"],
                             o["no_benign_tolerance"], o["no_infer"] or o["findbugs"], o["warp_sync"])
    if o["warp_sync"]:
        click.echo(f"warning: --warp-sync={o['warp_sync']} assumes the threads of a warp execute in lock-step "
                   "(pre-Volta GPUs); newer GPUs give this only with __syncwarp", err=True)
    source = kernel
    if lang in ("opencl", "cuda"):
        from bugle.cc import compile_kernel
        ir = times.run("clang", compile_kernel, kernel, language=lang, defines=o["defines"],
                       includes=o["includes"], spir64=o["spir64"])
        if keep:
            fileio.write_text(_temp_path(kernel, ".ll"), ir)
    if lang in ("opencl", "cuda", "llvm"):
        from bugle.translate import translate_ir
        if lang == "llvm":
            ir = fileio.read_text(kernel)
        prog = times.run("translate", translate_ir, ir, o["kernel"], kernel if lang != "llvm" else None)
    else:
        from .cli import load_program
        prog = load_program(kernel)
    if lang != "bpl":
        if keep or o["stop_at_gbpl"]:
            fileio.write_text(_temp_path(kernel, ".gbpl"), printer.program_str(prog), kernel)
        if o["stop_at_gbpl"]:
            return 0
        prog = times.run("abstract", choose_abstraction, prog, o["force_abstraction"] or
                         ("adversarial" if o["only_divergence"] else None))
        prog = times.run("lockstep", lockstep, prog, lopts)
        if keep or o["stop_at_bpl"]:
            fileio.write_text(_temp_path(kernel, ".bpl"), printer.program_str(prog), kernel)
        if o["stop_at_bpl"]:
            return 0
    from .houdini import run_houdini
    from .report import render_report
    from .verify import VerifyOptions, verify_program
    solver = None if o["solver"] in (None, "z3") else o["solver"]
    vopts = VerifyOptions(timeout=o["timeout"], solver=solver, findbugs=o["findbugs"],
                          loop_unwind=o["loop_unwind"], source=source, json=o["json"],
                          math_int=o["math_int"], refutation=o["refutation"],
                          disable_rules=tuple(o["disable_rules"]))
    if not o["findbugs"]:
        prog, stats = times.run("houdini", run_houdini, prog, vopts)
        if keep:
            fileio.write_text(_temp_path(kernel, ".inv.bpl"), printer.program_str(prog), kernel)
        if o["infer_info"]:
            click.echo("\n".join(stats.lines()))
    result = times.run("verify", verify_program, prog, vopts, kernel)
    if o["math_int"] and not o["json"]:
        from .solvers import MATH_INT_WARNING
        click.echo(MATH_INT_WARNING)
    click.echo(render_report(result, vopts), nl=False)
    if o["time"]:
        click.echo("timing: " + ", ".join(f"{k} {v:.3f}s" for k, v in times.phases.items()), err=True)
    return int(result.exit_code)


@click.command(context_settings={"help_option_names": ["-h", "--help"], "ignore_unknown_options": False})
@click.argument("kernel_file", required=False, metavar="KERNEL")
@click.option("--local_size", "--local-size", "local_size", help="Work-group size: N, [x,y] or [x,y,z].")
@click.option("--num_groups", "--num-groups", "num_groups", help="Number of work groups: N, [x,y] or [x,y,z].")
@click.option("--global_size", "--global-size", "global_size", help="Global size (a multiple of the local size).")
@click.option("--blockDim", "block_dim", help="CUDA threads per block.")
@click.option("--gridDim", "grid_dim", help="CUDA blocks per grid.")
@click.option("--global_offset", "global_offset", help="OpenCL global offset.")
@click.option("-D", "defines", multiple=True, help="Preprocessor definition NAME[=VALUE].")
@click.option("-I", "includes", multiple=True, help="Include directory.")
@click.option("--kernel", help="Kernel to verify when the file has several.")
@click.option("--findbugs", is_flag=True, help="Bug-finding mode: unroll loops, no invariants.")
@click.option("--loop-unwind", "loop_unwind", type=int, default=None, help="Unroll depth in --findbugs mode.")
@click.option("--verify", "verify_mode", is_flag=True, help="Verification mode (the default).")
@click.option("--equality-abstraction", "force_abstraction", flag_value="equality", help="Equality abstraction for every array.")
@click.option("--adversarial-abstraction", "force_abstraction", flag_value="adversarial", help="Adversarial abstraction for every array.")
@click.option("--no-benign-tolerance", is_flag=True, help="Report same-value write-write races.")
@click.option("--only-divergence", is_flag=True, help="Check barrier divergence only.")
@click.option("--only-intra-group", is_flag=True, help="Check races within work groups only.")
@click.option("--no-infer", is_flag=True, help="No candidate invariants.")
@click.option("--no-inline", is_flag=True, help="Accepted for compatibility; calls are always inlined.")
@click.option("--warp-sync", "warp_sync", type=int, default=None,
              help="Warp size: threads of one warp run in lock-step (pre-Volta CUDA).")
@click.option("--timeout", type=int, default=300, show_default=True, help="Solver timeout per query, seconds.")
@click.option("--solver", default="z3", show_default=True, help="z3 (in-process), cvc5, yices, bitwuzla, portfolio[:yices,cvc5,...], or an SMT-LIB2 solver command line.")
@click.option("--math-int", is_flag=True, help="Mathematical integers instead of bit-vectors (faster; unsound for overflow).")
@click.option("--keep-temps", is_flag=True, help="Keep .ll/.gbpl/.bpl/.inv.bpl next to the kernel.")
@click.option("--stop-at-gbpl", is_flag=True, help="Stop after the one-thread IL.")
@click.option("--stop-at-bpl", is_flag=True, help="Stop after the two-thread IL.")
@click.option("--json", is_flag=True, help="Machine-readable result.")
@click.option("--infer-info", is_flag=True, help="Print candidates generated and proved per rule.")
@click.option("--refutation", default=None, metavar="SPEC",
              help="Refutation engines for Houdini (paper 003 section 5): none, or a comma-separated "
                   "list of sbase, sstep, lu1, dyn run alongside Houdini; prefix seq: to run them first.")
@click.option("--disable-rule", "disable_rules", multiple=True, metavar="RULE",
              help="Drop the candidate invariants of RULE (e.g. r7) before Houdini (rule worth).")
@click.option("--spir64", is_flag=True, help="64-bit size_t for OpenCL kernels.")
@click.option("--time", is_flag=True, help="Print per-phase times on stderr.")
def command(kernel_file, **o):
    """Verify a GPU kernel free of data races and barrier divergence."""
    kernel = kernel_file
    if kernel is None:
        raise click.UsageError("missing KERNEL file")
    o["defines"] = tuple(o["defines"])
    o["includes"] = tuple(o["includes"])
    if o["loop_unwind"] is not None and not o["findbugs"]:
        o["findbugs"] = True
    sys.exit(run(kernel, o))


def main(argv=None) -> None:
    """Entry point: GPUVerify exit codes for usage errors (1), tool errors, Ctrl-C (8)."""
    try:
        command.main(args=argv, standalone_mode=False)
    except click.UsageError as e:
        e.show()
        sys.exit(int(ExitCode.COMMAND_LINE_ERROR))
    except click.exceptions.Abort:
        click.echo("interrupted", err=True)
        sys.exit(int(ExitCode.CTRL_C))
    except ToolError as e:
        click.echo(str(e) if ": error" in str(e) or str(e).startswith("error") else f"error: {e}", err=True)
        sys.exit(int(e.code))
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(int(ExitCode.CTRL_C))
    except RecursionError:
        click.echo("error: kernel too deeply nested for the verifier", err=True)
        sys.exit(int(ExitCode.GPUVERIFYVCGEN_ERROR))
    except Exception as e:  # a bug of ours: one line, never a traceback (unless asked for)
        if os.environ.get("GPUVERIFY_DEBUG"):
            raise
        click.echo(f"internal error: {type(e).__name__}: {e} (set GPUVERIFY_DEBUG=1 for a traceback)", err=True)
        sys.exit(int(ExitCode.GPUVERIFYVCGEN_ERROR))
    sys.exit(0)


if __name__ == "__main__":
    main()
