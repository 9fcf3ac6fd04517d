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
    """Wall-clock seconds per pipeline step (``clang``, ``translate``, ``abstract``,
    ``lockstep``, ``houdini``, ``verify``), reported by ``--time`` as four phases."""
    phases: dict = field(default_factory=dict)

    # reported phase -> the steps it sums (issue 4: front end, lock-step, Houdini, final check)
    GROUPS = (("frontend", ("clang", "translate")), ("lockstep", ("abstract", "lockstep")),
              ("houdini", ("houdini",)), ("check", ("verify",)))

    def run(self, name: str, fn, *a, **k):
        t0 = time.perf_counter()
        try:
            return fn(*a, **k)
        finally:
            self.phases[name] = self.phases.get(name, 0.0) + time.perf_counter() - t0

    def grouped(self) -> dict:
        """Seconds per reported phase (0.0 for a phase that did not run), in pipeline order."""
        return {g: sum(self.phases.get(s, 0.0) for s in steps) for g, steps in self.GROUPS}

    def line(self) -> str:
        """``timing: frontend 0.120s, lockstep 0.031s, houdini 0.502s, check 0.100s, total 0.753s``"""
        g = self.grouped()
        return "timing: " + ", ".join(f"{k} {v:.3f}s" for k, v in g.items()) + f", total {sum(g.values()):.3f}s"


def _temp_path(kernel: str, suffix: str) -> str:
    p = Path(kernel)
    return str(p.with_name(p.stem + suffix))


def _translate(ir: str, o: dict, source: str | None):
    """bugle translate; without ``--kernel`` the name given to ``--kernel-args`` picks the
    kernel of a file with several (an unknown name is then a command-line error)."""
    from bugle import BugleError
    from bugle.translate import translate_ir
    from .kernel_args import parse_spec
    wanted = o["kernel"] or (parse_spec(o["kernel_args"])[0] if o["kernel_args"] else None)
    try:
        return translate_ir(ir, wanted, source)
    except BugleError as e:
        if o["kernel"] is None and wanted is not None and f"no kernel named {wanted}" in str(e):
            raise ToolError(f"--kernel-args: no kernel named {wanted} in {source or 'the module'}",
                            ExitCode.COMMAND_LINE_ERROR) from None
        raise


# Options `--vcgen-opt=OPT` may set: those of the abstract / lockstep / houdini / verify stages.
VCGEN_OPTS = ("no_infer", "only_intra_group", "only_divergence", "no_benign_tolerance", "warp_sync",
              "check_array_bounds", "equality_abstraction", "adversarial_abstraction", "math_int",
              "refutation", "disable_rules", "infer_info", "kernel_args")


def _apply_vcgen_opts(o: dict) -> None:
    """Fold each ``--vcgen-opt=--flag[=V]`` into ``o`` as if ``--flag[=V]`` had been given.

    Raises ToolError(COMMAND_LINE_ERROR) for options that are not vcgen-stage options
    (``VCGEN_OPTS``) or have a bad value."""
    by_flag = {f: p for p in command.params if isinstance(p, click.Option) and p.name in VCGEN_OPTS
               for f in p.opts}
    for text in (t for opt in o["vcgen_opts"] for t in opt.split()):  # "--a --b" is two options
        flag, eq, value = text.partition("=")
        p = by_flag.get(flag)
        if p is None:
            known = " ".join(sorted(f for f in by_flag if f.startswith("--")))
            raise ToolError(f"--vcgen-opt: unknown vcgen option {text!r} (known: {known})",
                            ExitCode.COMMAND_LINE_ERROR)
        if p.is_flag and eq:
            raise ToolError(f"--vcgen-opt: {flag} takes no value", ExitCode.COMMAND_LINE_ERROR)
        if not p.is_flag and not eq:
            raise ToolError(f"--vcgen-opt: {flag} needs a value ({flag}=V)", ExitCode.COMMAND_LINE_ERROR)
        try:
            val = True if p.is_flag else p.type.convert(value, p, None)
        except click.BadParameter as e:
            raise ToolError(f"--vcgen-opt: {flag}: {e.message}", ExitCode.COMMAND_LINE_ERROR) from None
        o[p.name] = tuple(o[p.name]) + (val,) if p.multiple else val


def _check_options(o: dict, kernel: str) -> None:
    """Inconsistent flag combinations: ToolError(COMMAND_LINE_ERROR) with a one-line reason.
    (Launch-size conflicts are checked by ``vcgen.launch.launch_config``.)"""
    conflicts = [
        (o["verify_mode"] and o["findbugs"], "--verify and --findbugs exclude each other"),
        (o["verify_mode"] and o["loop_unwind"] is not None, "--loop-unwind is for --findbugs, not --verify"),
        (o["equality_abstraction"] and o["adversarial_abstraction"],
         "--equality-abstraction and --adversarial-abstraction exclude each other"),
        (o["only_divergence"] and o["equality_abstraction"],
         "--only-divergence uses the adversarial abstraction; drop --equality-abstraction"),
        (o["stop_at_gbpl"] and o["stop_at_bpl"], "give only one of --stop-at-gbpl and --stop-at-bpl"),
        (o["global_offset"] and (o["block_dim"] or o["grid_dim"]),
         "--global_offset is an OpenCL flag; it does not combine with --blockDim/--gridDim"),
        (o["loop_unwind"] is not None and o["loop_unwind"] < 0, "--loop-unwind must not be negative"),
        (o["timeout"] is not None and o["timeout"] < 0, "--timeout must not be negative (0 = no limit)"),
        (bool(o["clang_opts"]) and LANGS.get(Path(kernel).suffix) not in ("opencl", "cuda"),
         "--clang-opt needs an OpenCL (.cl) or CUDA (.cu) kernel"),
    ]
    for bad, why in conflicts:
        if bad:
            raise ToolError(why, ExitCode.COMMAND_LINE_ERROR)


def run(kernel: str, o: dict) -> int:
    """Run the pipeline on ``kernel`` with the parsed options ``o``; returns the exit code.

    Raises ToolError for every failure that has its own exit code.
    """
    from .cli import lockstep_options

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
                             o["no_benign_tolerance"], o["no_infer"] or o["findbugs"], o["warp_sync"],
                             o["check_array_bounds"])
    if o["warp_sync"]:
        click.echo(f"warning: --warp-sync={o['warp_sync']} assumes the threads of a warp execute in lock-step "
                   "(pre-Volta GPUs); newer GPUs give this only with __syncwarp", err=True)
    source = kernel
    no_inline = o["no_inline"] and lang in ("opencl", "cuda", "llvm")
    if lang in ("opencl", "cuda"):
        from bugle.cc import compile_kernel
        ir = times.run("clang", compile_kernel, kernel, language=lang, defines=o["defines"],
                       includes=o["includes"], spir64=o["spir64"], clang_opts=o["clang_opts"],
                       keep_functions=no_inline)
        if keep:
            fileio.write_text(_temp_path(kernel, ".ll"), ir)
    if lang == "llvm":
        ir = fileio.read_text(kernel)
    from .report import render_report
    from .verify import VerifyOptions
    solver = None if o["solver"] in (None, "z3") else o["solver"]
    vopts = VerifyOptions(timeout=o["timeout"], solver=solver, findbugs=o["findbugs"],
                          loop_unwind=o["loop_unwind"], source=source, json=o["json"],
                          math_int=o["math_int"], refutation=o["refutation"],
                          disable_rules=tuple(o["disable_rules"]))
    names = _all_kernels(ir, o) if lang in ("opencl", "cuda", "llvm") else [None]
    result = None
    for name in names:
        kres = _verify_one(kernel, lang, ir if lang in ("opencl", "cuda", "llvm") else None, name,
                           len(names) > 1, o, lopts, vopts, times)
        if kres is None:  # --stop-at-gbpl / --stop-at-bpl
            continue
        if result is None:
            result = kres
        else:
            merge_function_result(result, kres, name, kind="kernel")
    if result is None:
        return 0
    if len(names) > 1 and result.status == "verified":
        result.claims.append("for every kernel of the file: " + ", ".join(names))
    if no_inline:
        result = _check_functions(result, ir, o, lopts, vopts, kernel, times)
    if o["math_int"] and not o["json"]:
        from .solvers import MATH_INT_WARNING
        click.echo(MATH_INT_WARNING)
    click.echo(render_report(result, vopts), nl=False)
    if o["time"]:
        click.echo(times.line(), err=True)
    return int(result.exit_code)


def _all_kernels(ir: str, o: dict) -> list:
    """The kernels to verify: the one ``--kernel`` (or ``--kernel-args``) names, else every
    kernel of the module (source names, in module order; ``[None]`` for a single kernel,
    which ``bugle translate`` then picks and reports by its own name)."""
    if o["kernel"] is not None or o["kernel_args"]:
        return [None]
    from bugle.translate import kernel_names
    names = kernel_names(ir)
    return names if len(names) > 1 else [None]


def _verify_one(kernel: str, lang: str, ir: str | None, name: str | None, several: bool, o: dict,
                lopts, vopts, times: Timings):
    """Translate (``ir`` given) or load the kernel ``name`` and verify it; None when a
    ``--stop-at-*`` flag ends the run after writing its file.  With ``several`` kernels in
    the file, the ``--keep-temps`` files are named ``k.NAME.gbpl`` ..."""
    from .boogie_file import splice
    from .kernel_args import apply_kernel_args
    tag = f".{name}" if several else ""
    if ir is not None:
        prog = times.run("translate", _translate, ir, dict(o, kernel=name) if name else o,
                         kernel if lang != "llvm" else None)
    else:
        from .cli import load_program
        prog = load_program(kernel)
    keep = o["keep_temps"]
    if lang == "bpl":
        prog = splice(apply_kernel_args(prog, o["kernel_args"]), o["boogie_file"])
    else:
        fixed = apply_kernel_args(prog, o["kernel_args"])  # as `vcgen lockstep --kernel-args` does
        if keep or o["stop_at_gbpl"]:  # the .gbpl is bugle's output, without the fixed values
            fileio.write_text(_temp_path(kernel, f"{tag}.gbpl"), printer.program_str(prog), kernel)
        if o["stop_at_gbpl"]:
            return None
        prog = _two_thread(fixed, o, lopts, times)
        if keep or o["stop_at_bpl"]:
            fileio.write_text(_temp_path(kernel, f"{tag}.bpl"), printer.program_str(prog), kernel)
        if o["stop_at_bpl"]:
            return None
    return _check(prog, o, vopts, kernel, times, tag)


def _two_thread(prog, o: dict, lopts, times: Timings):
    """One-thread IL -> two-thread IL: abstraction, lock-step, ``--boogie-file``."""
    from .abstract import choose_abstraction
    from .boogie_file import splice
    from .lockstep import lockstep
    prog = times.run("abstract", choose_abstraction, prog, o["force_abstraction"] or
                     ("adversarial" if o["only_divergence"] else None))
    prog = times.run("lockstep", lockstep, prog, lopts)
    return splice(prog, o["boogie_file"])


def _check(prog, o: dict, vopts, kernel: str, times: Timings, tag: str):
    """Houdini (unless ``--findbugs``) and verification of a two-thread program; with
    ``--keep-temps`` the ``.inv.bpl`` is kept (``tag`` names a function's files)."""
    from .houdini import run_houdini
    from .verify import verify_program
    if not o["findbugs"]:
        prog, stats = times.run("houdini", run_houdini, prog, vopts)
        if o["keep_temps"]:
            fileio.write_text(_temp_path(kernel, f"{tag}.inv.bpl"), printer.program_str(prog), kernel)
        if o["infer_info"]:
            click.echo("\n".join(stats.lines()), err=o["json"])  # keep stdout pure JSON
    return times.run("verify", verify_program, prog, vopts, kernel)


def _check_functions(result, ir: str, o: dict, lopts, vopts, kernel: str, times: Timings):
    """``--no-inline``: verify each function kept by ``bugle cc --no-inline`` on its own
    against its contract (``bugle.modular``) and merge the outcomes into the kernel's
    ``result``: any error, timeout or unknown makes the whole run fail."""
    from bugle import BugleError
    from bugle.modular import defined_functions
    from bugle.translate import translate_ir
    checked = []
    for name in defined_functions(ir):
        try:
            prog = times.run("translate", translate_ir, ir, None, kernel if Path(kernel).suffix != ".ll" else None,
                             function=name)
        except BugleError as e:
            raise BugleError(f"{e} (in function {name}, checked on its own because of --no-inline)") from None
        tag = "." + prog.kernel().name.lstrip("$")
        if o["keep_temps"]:
            fileio.write_text(_temp_path(kernel, f"{tag}.gbpl"), printer.program_str(prog), kernel)
        prog = _two_thread(prog, o, lopts, times)
        if o["keep_temps"]:
            fileio.write_text(_temp_path(kernel, f"{tag}.bpl"), printer.program_str(prog), kernel)
        fres = _check(prog, o, vopts, kernel, times, tag)
        checked.append(prog.kernel().name.lstrip("$"))
        merge_function_result(result, fres, checked[-1])
    if result.status == "verified" and checked:
        result.claims.append("functions meeting their contracts for every input their __requires allow "
                             "(--no-inline): " + ", ".join(checked))
    return result


# worst first: the status of a run that checked several programs
_STATUS_ORDER = ("errors", "timeout", "unknown", "vacuous", "no_bugs_found", "verified")


def merge_function_result(result, fres, name: str, kind: str = "function") -> None:
    """Fold the result ``fres`` of function ``name``'s modular check (``kind="kernel"``: of
    another kernel of the file) into ``result``."""
    result.errors += fres.errors
    worse = _STATUS_ORDER.index(fres.status) < _STATUS_ORDER.index(result.status)
    # a function both threads may skip is never vacuous; a kernel can be
    if worse and (fres.status != "vacuous" or kind == "kernel"):
        result.status = fres.status
        if fres.reason:
            result.reason = f"{kind} {name}: {fres.reason}"
    result.dims = max(result.dims, fres.dims)
    if result.status != "verified":
        result.claims = []


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
@click.option("--equality-abstraction", is_flag=True, help="Equality abstraction for every array.")
@click.option("--adversarial-abstraction", is_flag=True, help="Adversarial abstraction for every array.")
@click.option("--no-benign-tolerance", is_flag=True, help="Report same-value write-write races.")
@click.option("--only-divergence", is_flag=True, help="Check barrier divergence only.")
@click.option("--only-intra-group", is_flag=True, help="Check races within work groups only.")
@click.option("--no-infer", is_flag=True, help="No candidate invariants.")
@click.option("--no-inline", is_flag=True,
              help="Also verify functions on their own against their contracts (every input their "
                   "__requires allow); kernels are still verified with calls inlined.")
@click.option("--warp-sync", "warp_sync", type=int, default=None,
              help="Warp size: threads of one warp run in lock-step (pre-Volta CUDA).")
@click.option("--timeout", type=int, default=300, show_default=True, help="Solver timeout per query, seconds.")
@click.option("--solver", default="auto", show_default=True,
              help="auto (z3 in-process; a query undecided after 1 s is raced against yices/bitwuzla/cvc5 "
                   "when installed), z3 (in-process only), cvc5, yices, bitwuzla, portfolio[:yices,cvc5,...], "
                   "or an SMT-LIB2 solver command line.")
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
@click.option("--kernel-args", "kernel_args", default=None, metavar="NAME,V1,*,...",
              help="Fix scalar arguments of kernel NAME, in source parameter order (* = any value; "
                   "pointers take *). Decimal or hex.")
@click.option("--check-array-bounds", is_flag=True,
              help="Report accesses outside arrays of known size (local/shared/constant/private/global arrays).")
@click.option("--boogie-file", "boogie_file", multiple=True, metavar="FILE",
              help="Extra IL declarations (axioms, functions, ...) added before verification (repeatable).")
@click.option("--clang-opt", "clang_opts", multiple=True, metavar="OPT",
              help="Option passed through to clang -cc1, e.g. --clang-opt=-DN=4 (repeatable).")
@click.option("--vcgen-opt", "vcgen_opts", multiple=True, metavar="OPT",
              help="Option of the vcgen stages, e.g. --vcgen-opt=--no-infer (repeatable).")
def command(kernel_file, **o):
    """Verify a GPU kernel free of data races and barrier divergence."""
    kernel = kernel_file
    if kernel is None:
        raise click.UsageError("missing KERNEL file")
    o["defines"] = tuple(o["defines"])
    o["includes"] = tuple(o["includes"])
    _apply_vcgen_opts(o)
    _check_options(o, kernel)
    o["force_abstraction"] = ("equality" if o["equality_abstraction"] else
                              "adversarial" if o["adversarial_abstraction"] else None)
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
