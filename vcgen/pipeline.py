"""``gpuverify``: the whole chain in one process (docs/design.md sections 2 and 7); the
program is started by ``vcgen.driver``.

kernel.cl|.cu -> ``bugle cc`` -> LLVM IR -> ``bugle translate`` -> one-thread IL ->
``vcgen abstract`` -> ``vcgen lockstep`` -> two-thread IL -> ``vcgen houdini`` ->
``vcgen verify`` -> report: the pipeline stages of ``vcgen.stages.STAGES``, in its order,
each with the options its flags give.  Everything stays in memory (no re-parsing between
stages); ``--keep-temps`` writes every intermediate file next to the kernel, and the
verdict equals what chaining the stage commands gives.  A ``.ll``, ``.gbpl`` or ``.bpl``
input enters the pipeline at the stage that reads it.

Exit codes: ``vcgen.il.errors`` (GPUVerify-compatible).
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, TypeVar

import click

from bugle import BugleError
from bugle.launch_sites import HostLaunches, LaunchReadError, LaunchSite
from bugle.modular import defined_functions
from bugle.stages import CC, LAUNCHES, TRANSLATE
from bugle.translate import kernel_table

from . import il, stages
from .il import files
from .il.boogie_file import splice
from .il.command import PrefixCommand, guarded
from .il.errors import ExitCode, ToolError
from .il.printer import program_str
from .il.stage import Stage, with_flags
from .inference.houdini import HoudiniResult
from .report import progress
from .report.render import describe_launch, launch_claim, render_report
from .report.results import Launch, VerificationResult
from .twothread.kernel_args import apply_kernel_args, parse_spec
from .twothread.options import LaunchConfig
from .twothread.user_annotations import parse_check_arrays
from .vc.encode import MATH_INT_WARNING

T = TypeVar("T")
LANGS = {".cl": "opencl", ".cu": "cuda", ".ll": "llvm", ".gbpl": "gbpl", ".bpl": "bpl"}
PIPELINE: tuple[Stage, ...] = tuple(s for s in stages.STAGES if s.in_pipeline)
# the stage that reads each kind of input
ENTRY: dict[str, Stage] = {"opencl": CC, "cuda": CC, "llvm": TRANSLATE, "gbpl": stages.ABSTRACT, "bpl": stages.HOUDINI}


@dataclass
class Timings:
    """Wall-clock seconds per pipeline stage (``cc``, ``translate``, ``abstract``,
    ``lockstep``, ``houdini``, ``verify``), reported by ``--time`` as four phases."""
    phases: dict[str, float] = field(default_factory=dict)

    # reported phase -> the stages it sums (issue 4: front end, lock-step, Houdini, final check)
    GROUPS = (("frontend", ("cc", "translate")), ("lockstep", ("abstract", "lockstep")),
              ("houdini", ("houdini",)), ("check", ("verify",)))

    current: str | None = None  # the stage running, or the one an exception stopped

    def run(self, name: str, fn: Callable[..., T], *a: Any, **k: Any) -> T:
        """``fn(*a, **k)``, its wall time added to stage ``name``; with ``--verbose`` a
        progress line when the stage starts and one when it ends (or is stopped)."""
        t0 = time.perf_counter()
        self.current = name
        progress.note("stage %s started", name)
        ended = False
        try:
            value = fn(*a, **k)
            ended = True
            self.current = None
            return value
        finally:
            dt = time.perf_counter() - t0
            self.phases[name] = self.phases.get(name, 0.0) + dt
            progress.note("stage %s: %.3f s" if ended else "stage %s stopped after %.3f s", name, dt)

    def grouped(self) -> dict[str, float]:
        """Seconds per reported phase (0.0 for a phase that did not run), in pipeline order."""
        return {g: sum(self.phases.get(s, 0.0) for s in steps) for g, steps in self.GROUPS}

    def line(self, interrupted: str | None = None) -> str:
        """``timing: frontend 0.120s, lockstep 0.031s, houdini 0.502s, check 0.100s, total 0.753s``;
        ``interrupted``: the stage a Ctrl-C or SIGTERM stopped (``timing (interrupted in
        houdini): ...``, its time up to the interrupt counted)."""
        g = self.grouped()
        head = f"timing (interrupted in {interrupted})" if interrupted else "timing"
        return head + ": " + ", ".join(f"{k} {v:.3f}s" for k, v in g.items()) + f", total {sum(g.values()):.3f}s"


def _temp_path(kernel: str, suffix: str) -> str:
    p = Path(kernel)
    return str(p.with_name(p.stem + suffix))


def _kept_suffix(stage: Stage) -> str:
    """The file suffix of a stage's output (``.ll``, ``.gbpl``, ...), from its Makefile rule."""
    return stage.make.output.split("%", 1)[1]


def _apply_vcgen_opts(o: dict[str, Any]) -> None:
    """Fold each ``--vcgen-opt=--flag[=V]`` into ``o`` as if ``--flag[=V]`` had been given
    (flags with ``Flag.vcgen_opt``).  Raises ToolError(COMMAND_LINE_ERROR) for other
    options or a bad value."""
    allowed = {f.dest for f in stages.driver_flags() if f.vcgen_opt}
    by_flag = {f: p for p in command.params if isinstance(p, click.Option) and p.name in allowed
               for f in p.opts}
    for text in (t for opt in o["vcgen_opts"] for t in opt.split()):  # "--a --b" is two options
        if text.startswith("/"):  # GPUVerify's own vcgen options: /checkArrays:A,B
            o["check_arrays"] = ",".join(parse_check_arrays(text))
            continue
        flag, eq, value = text.partition("=")
        p = by_flag.get(flag)
        if p is None or p.name is None:
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


def _check_options(o: dict[str, Any], kernel: str) -> None:
    """Inconsistent flag combinations: ToolError(COMMAND_LINE_ERROR) with a one-line reason.
    (Conflicts within one stage's flags are its options builder's: ``vcgen.stages``.)"""
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


def _stage_params(kernel: str, lang: str, o: dict[str, Any]) -> dict[str, Any]:
    """The flag values the stages' options are built from: the driver's, plus what
    ``gpuverify`` decides for its stages (the source file names, the kernel named by
    ``--kernel-args``, z3 in-process for ``--solver=z3``)."""
    p = dict(o)
    p["source_path"] = kernel if lang in ("opencl", "cuda") else None  # {:sourceloc} file names
    p["source"] = kernel  # reports name the kernel file
    p["kernel"] = o["kernel"] or (parse_spec(o["kernel_args"])[0] if o["kernel_args"] else None)
    p["solver"] = None if o["solver"] in (None, "z3") else o["solver"]
    p["no_infer"] = o["no_infer"] or o["findbugs"]  # bug finding uses no invariants
    return p


def _translate(stage: Stage, ir: str, opts: Any, o: dict[str, Any], kernel: str) -> il.Program:
    """The translate stage; without ``--kernel`` the name given to ``--kernel-args`` picks the
    kernel of a file with several (an unknown name is then a command-line error)."""
    try:
        return stage.run(ir, opts)
    except BugleError as e:
        wanted = opts.kernel
        if o["kernel"] is None and wanted is not None and f"no kernel named {wanted}" in str(e):
            source = kernel if opts.source_path else None
            raise ToolError(f"--kernel-args: no kernel named {wanted} in {source or 'the module'}",
                            ExitCode.COMMAND_LINE_ERROR) from None
        raise


def run(kernel: str, o: dict[str, Any]) -> int:
    """Run the pipeline on ``kernel`` with the parsed options ``o``; returns the exit code.

    Raises ToolError for every failure that has its own exit code.
    """
    ext = Path(kernel).suffix
    lang = LANGS.get(ext)
    if lang is None:
        raise ToolError(f"{kernel}: unknown file type {ext!r} (expected .cl, .cu, .ll, .gbpl or .bpl)",
                        ExitCode.COMMAND_LINE_ERROR)
    if not os.path.exists(kernel):
        raise ToolError(f"{kernel}: file not found", ExitCode.COMMAND_LINE_ERROR)
    times = Timings()
    try:
        return _run(kernel, lang, o, times)
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM: say where the time went before exiting 8
        if o["time"]:
            click.echo(times.line(interrupted=times.current or "the driver"), err=True)
        raise


def _load_program(path: str) -> Any:
    """An IL program file given as the kernel (``parser.load_program``): lark is imported
    only for such runs (the prelude is cached, ``il.prelude``)."""
    from .il.parser import load_program  # lazy: lark only for IL input
    return load_program(path)


def _run(kernel: str, lang: str, o: dict[str, Any], times: Timings) -> int:
    keep = o["keep_temps"]
    params = _stage_params(kernel, lang, o)
    options = {s.name: s.options(params) for s in PIPELINE}  # bad flag values fail before any work
    if o["warp_sync"]:
        click.echo(f"warning: --warp-sync={o['warp_sync']} assumes the threads of a warp execute in lock-step "
                   "(pre-Volta GPUs); newer GPUs give this only with __syncwarp", err=True)
    entry: Stage = ENTRY[lang]
    value: Any = kernel if lang in ("opencl", "cuda") else files.read_text(kernel) if lang == "llvm" \
        else _load_program(kernel)
    if entry is stages.HOUDINI:  # a two-thread program: lockstep's part happens here
        value = splice(apply_kernel_args(value, o["kernel_args"]), o["boogie_file"])
    ir = value if lang == "llvm" else None
    if entry is CC:
        ir = value = times.run(CC.name, CC.run, value, options[CC.name])
        _keep(CC, value, o, kernel)
        entry = TRANSLATE
    host = _host_launches(kernel, lang, o) if ir is not None else None
    named = o["kernel"] is not None or bool(o["kernel_args"])  # one kernel, picked by translate
    # kernel name -> LLVM name, read once: for the kernels to verify and for the launch sites
    table = dict(kernel_table(ir)) if ir is not None and (host is not None or not named) else {}
    names: list[str | None] = list(table) if not named and len(table) > 1 else [None]
    result: VerificationResult | None = None
    launch_claims: list[str] = []
    symbolic_errors = False  # a kernel without host sizes (all symbolic) has errors
    for name in names:
        kopts = options if name is None else \
            dict(options, **{TRANSLATE.name: replace(options[TRANSLATE.name], kernel=name)})
        shown = name or kopts[TRANSLATE.name].kernel or (next(iter(table)) if len(table) == 1 else "")
        runs = _launch_runs(host, table, shown) if host is not None else [(None, ())]
        for i, (config, sites) in enumerate(runs):
            ropts = kopts if config is None else \
                dict(kopts, **{stages.LOCKSTEP.name: replace(kopts[stages.LOCKSTEP.name], launch=config)})
            tag = (f".{name}" if name else "") + (f".launch{i + 1}" if len(runs) > 1 else "")
            kres = _run_stages(entry, value, ropts, o, times, kernel, tag=tag, stops=True)
            if kres is None:  # --stop-at-gbpl / --stop-at-bpl
                continue
            if host is not None:
                launch_claims.append(_launch_attribution(kres, shown, config, sites))
                symbolic_errors |= config is None and kres.launch_unspecified and bool(kres.errors)
            if result is None:
                result = kres
            else:
                merge_function_result(result, kres, shown, kind="kernel")
    if result is None:
        return 0
    if host is not None:  # the per-launch claims replace the one launch claim of a single run
        result.launch, result.launch_unspecified = None, symbolic_errors
        if result.status == "verified":
            result.claims += launch_claims
    if len(names) > 1 and result.status == "verified":
        result.claims.append("for every kernel of the file: " + ", ".join(n or "" for n in names))
    if o["no_inline"] and ir is not None:
        result = _check_functions(result, ir, options, o, times, kernel, lang)
    return _report(result, o, times)


SIZE_FLAGS = ("local_size", "num_groups", "global_size", "block_dim", "grid_dim")


def _host_launches(kernel: str, lang: str, o: dict[str, Any]) -> HostLaunches | None:
    """The launches of a CUDA program's host code (``bugle launches``, README "Launch sizes
    from the host code") when they give the sizes: a ``.cu`` source, no size flag (flags
    always win), no ``--no-launch-inference``.  None otherwise.  When they cannot be read
    (the host side does not compile, an unexpected shape, a launch not matched to one
    kernel) a one-line warning, and None: every size symbolic, which covers every launch."""
    if lang != "cuda" or o["no_launch_inference"] or any(o[f] for f in SIZE_FLAGS):
        return None
    found: HostLaunches | None = None
    try:
        found = LAUNCHES.run(kernel, LAUNCHES.options(o))
        why = found.unclear
    except (ToolError, LaunchReadError) as e:
        why = (str(e).strip().splitlines() or [type(e).__name__])[0]
    if why is not None:
        click.echo(f"warning: cannot read the launch sizes from the host code ({why}); every size is "
                   "symbolic", err=True)
        return None
    return found


def _launch_runs(host: HostLaunches, table: dict[str, str], name: str) -> \
        list[tuple[LaunchConfig | None, tuple[LaunchSite, ...]]]:
    """The launch configurations to verify kernel ``name`` (as ``kernel_table`` names it,
    or its LLVM name) with: one per distinct configuration of its launch sites, or
    ``[(None, ())]`` (the symbolic default) when the host code gives none."""
    llvm_name = table.get(name) or next((v for k, v in table.items() if name in (k, v)), None)
    runs = host.configurations(llvm_name) if llvm_name else []
    return [(LaunchConfig(block, grid), sites) for grid, block, sites in runs] or [(None, ())]


def _launch_attribution(res: VerificationResult, name: str, config: LaunchConfig | None,
                        sites: tuple[LaunchSite, ...]) -> str:
    """Tie the result of one run to its launch: every error gets the sizes and the launch
    sites (reports: ``Launch with blockDim = ..., launched at k.cu:42:3``); returns the
    claim of a proof for that run."""
    lang = res.language
    if config is None:  # no launch in the host code
        return f"kernel {name} (no launch sizes in the host code): " + \
            (launch_claim(res.launch, lang, False) if res.launch is not None else "the given sizes")
    where = "; ".join(s.where() for s in sites)
    launch = Launch(config.local_size, config.num_groups, res.launch.max_work_items if res.launch else None)
    for e in res.errors:
        e.launch_site = where
        if e.launch is None:
            e.launch = launch
    if config.symbolic:
        claim = launch_claim(launch, lang, False)
    else:
        claim = f"for the launch with {describe_launch(launch, lang)}"
    return f"kernel {name}, launched at {where} (sizes read from the host code): {claim}"


def _keep(stage: Stage, value: Any, o: dict[str, Any], kernel: str, tag: str = "") -> None:
    """``--keep-temps``: the stage's output next to the kernel (``tag`` names a function's files)."""
    if o["keep_temps"]:
        out = value.program if isinstance(value, HoudiniResult) else value
        files.write_text(_temp_path(kernel, tag + _kept_suffix(stage)),
                         out if isinstance(out, str) else program_str(out), kernel)


def _run_stages(entry: Stage, value: Any, options: dict[str, Any], o: dict[str, Any], times: Timings,
                kernel: str, tag: str = "", stops: bool = True) -> VerificationResult | None:
    """Run the pipeline from stage ``entry`` on ``value`` to the verdict; None when
    ``--stop-at-gbpl``/``--stop-at-bpl`` stopped it (after writing that file; ``stops``
    false: a function's modular check, which those flags do not stop).  ``tag`` names the
    kept files of one kernel of several, or of a function (``k.NAME.gbpl``).

    The Houdini stage's record of the invariants it proved goes to the verify stage with
    its program (``checker.verify_program``'s ``proved``): the final check does not prove
    them again, and reports what ``vcgen verify`` on that program reports."""
    proved = None
    for stage in PIPELINE[PIPELINE.index(entry):]:
        if stage is stages.HOUDINI and o["findbugs"]:
            continue
        opts = options[stage.name]
        if stage is TRANSLATE:
            value = times.run(stage.name, _translate, stage, value, opts, o, kernel)
            apply_kernel_args(value, o["kernel_args"])  # a bad spec fails even with --stop-at-gbpl
        elif stage is stages.VERIFY:
            value = times.run(stage.name, stages.run_verify, value, opts, proved)
        else:
            value = times.run(stage.name, stage.run, value, opts)
        if stage is stages.LOCKSTEP:
            value = splice(value, o["boogie_file"])
        if stage is stages.VERIFY:
            return value
        stop = stops and ((stage is TRANSLATE and o["stop_at_gbpl"]) or
                            (stage is stages.LOCKSTEP and o["stop_at_bpl"]))
        if stop:
            _keep(stage, value, dict(o, keep_temps=True), kernel, tag)
            return None
        _keep(stage, value, o, kernel, tag)
        if isinstance(value, HoudiniResult):
            if o["infer_info"]:
                click.echo("\n".join(value.stats.lines()), err=o["json"])  # keep stdout pure JSON
            value, proved = value.program, value.proved
    raise AssertionError("the pipeline ends with the verify stage")


def _check_functions(result: VerificationResult, ir: str, options: dict[str, Any], o: dict[str, Any],
                     times: Timings, kernel: str, lang: str) -> VerificationResult:
    """``--no-inline``: verify each function kept by ``bugle cc --no-inline`` on its own
    against its contract (``bugle.modular``) and merge the outcomes into the kernel's
    ``result``: any error, timeout or unknown makes the whole run fail."""
    checked = []
    for name in defined_functions(ir):
        topts = replace(options[TRANSLATE.name], kernel=None, function=name,
                        source_path=kernel if lang != "llvm" else None)
        try:
            prog = times.run(TRANSLATE.name, TRANSLATE.run, ir, topts)
        except BugleError as e:
            raise BugleError(f"{e} (in function {name}, checked on its own because of --no-inline)") from None
        tag = "." + prog.kernel().name.lstrip("$")
        _keep(TRANSLATE, prog, o, kernel, tag)
        fres = _run_stages(stages.ABSTRACT, prog, options, o, times, kernel, tag, stops=False)
        assert fres is not None
        checked.append(prog.kernel().name.lstrip("$"))
        merge_function_result(result, fres, checked[-1])
    if result.status == "verified" and checked:
        result.claims.append("functions meeting their contracts for every input their __requires allow "
                             "(--no-inline): " + ", ".join(checked))
    return result


# worst first: the status of a run that checked several programs
_STATUS_ORDER = ("errors", "timeout", "unknown", "vacuous", "no_bugs_found", "verified")


def merge_function_result(result: VerificationResult, fres: VerificationResult, name: str,
                          kind: str = "function") -> None:
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


def _report(result: VerificationResult, o: dict[str, Any], times: Timings) -> int:
    if o["error_limit"] is not None:
        result.errors = result.errors[:o["error_limit"]]
    code = int(result.exit_code)
    if o["math_int"] and not o["json"]:
        click.echo(MATH_INT_WARNING)
    if not (o["silent"] and code == 0):
        click.echo(render_report(result, o["json"]), nl=False)
    if o["time"]:
        click.echo(times.line(), err=True)
    if o["time_as_csv"] is not None:
        g = times.grouped()
        click.echo(",".join([o["time_as_csv"], *(f"{v:.3f}" for v in g.values()), f"{sum(g.values()):.3f}"]),
                   err=True)
    return code


def _gpuverify_flags(o: dict[str, Any], kernel: str) -> None:
    """GPUVerify's flags that act on the driver (README, Flags): ``--debug`` (tracebacks of
    internal errors, and ``--verbose``), ``--verbose`` (progress lines, ``report.progress``,
    and the per-phase times), ``--omit-infer`` (=
    ``--no-infer``), ``--pointer-bitwidth`` (OpenCL: 64 = ``--spir64``; CUDA is 64-bit
    only), ``--cruncher-opt`` (accepted: there is no separate cruncher, our Houdini stage
    takes no such options)."""
    if o["k_induction_depth"] is not None and o["k_induction_depth"] < 1:
        raise ToolError("--k-induction-depth must be at least 1", ExitCode.COMMAND_LINE_ERROR)
    if o["debug"]:
        os.environ["GPUVERIFY_DEBUG"] = "1"
    o["time"] = o["time"] or o["debug"] or o["verbose"]
    o["no_infer"] = o["no_infer"] or o["omit_infer"]
    if o["error_limit"] is not None and o["error_limit"] < 1:
        raise ToolError("--error-limit must be at least 1", ExitCode.COMMAND_LINE_ERROR)
    bits = o["pointer_bitwidth"]
    if bits is not None:
        cuda = LANGS.get(Path(kernel).suffix) == "cuda"
        if cuda and bits != 64:
            raise ToolError("--pointer-bitwidth: CUDA pointers are 64 bits here (nvptx64)",
                            ExitCode.COMMAND_LINE_ERROR)
        o["spir64"] = o["spir64"] or bits == 64


@click.command(cls=PrefixCommand,
               context_settings={"help_option_names": ["-h", "--help"], "ignore_unknown_options": False})
@click.argument("kernel_file", required=False, metavar="KERNEL")
@with_flags(stages.driver_flags(), for_driver=True)
@click.option("--verify", "verify_mode", is_flag=True, help="Verification mode (the default).")
@click.option("--keep-temps", is_flag=True, help="Keep every intermediate file (.ll, .gbpl, ...) next to the kernel.")
@click.option("--stop-at-gbpl", is_flag=True, help="Stop after the one-thread IL.")
@click.option("--stop-at-bpl", is_flag=True, help="Stop after the two-thread IL.")
@click.option("--time", is_flag=True, help="Print per-phase times on stderr.")
@click.option("--boogie-file", "boogie_file", multiple=True, metavar="FILE",
              help="Extra IL declarations (axioms, functions, ...) added before verification (repeatable).")
@click.option("--vcgen-opt", "vcgen_opts", multiple=True, metavar="OPT",
              help="Option of the vcgen stages, e.g. --vcgen-opt=--no-infer or GPUVerify's "
                   "--vcgen-opt=/checkArrays:A,B (repeatable).")
@click.option("--debug", is_flag=True, help="Tracebacks for internal errors, and --verbose.")
@click.option("--verbose", is_flag=True,
              help="Progress on stderr as the run goes: each stage's start and time, each solver "
                   "query (answer, seconds, solver); then the per-phase times.")
@click.option("--silent", is_flag=True, help="Print nothing on success (the exit code says it).")
@click.option("--omit-infer", is_flag=True, help="Same as --no-infer.")
@click.option("--time-as-csv", metavar="LABEL", default=None,
              help="Print LABEL,frontend,lockstep,houdini,check,total seconds on stderr.")
@click.option("--error-limit", type=int, default=None, help="Report at most N errors.")
@click.option("--pointer-bitwidth", type=click.Choice(["32", "64"]), default=None,
              help="OpenCL: 64 is --spir64; CUDA pointers are always 64 bits.")
@click.option("--cruncher-opt", "cruncher_opts", multiple=True, metavar="OPT",
              help="GPUVerify's cruncher options: accepted, no effect (no separate cruncher stage).")
def command(kernel_file: str | None, **o: Any) -> None:
    """Verify a GPU kernel free of data races and barrier divergence."""
    kernel = kernel_file
    if kernel is None:
        raise click.UsageError("missing KERNEL file")

    def body() -> int:
        o["defines"] = tuple(o["defines"])
        o["includes"] = tuple(o["includes"])
        _apply_vcgen_opts(o)
        _gpuverify_flags(o, kernel)
        _check_options(o, kernel)
        if o["loop_unwind"] is not None and not o["findbugs"]:
            o["findbugs"] = True
        with progress.writing(o["verbose"] or o["debug"]):
            return run(kernel, o)
    guarded(body, nested_message="error: kernel too deeply nested for the verifier")
