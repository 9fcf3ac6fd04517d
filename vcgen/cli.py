"""``vcgen``: the stage commands that read IL (DESIGN.md section 2).

Each command reads a file (or ``-``), writes a file (or ``-``) atomically, and never
overwrites its input.  Errors print one line on stderr and exit with the
GPUVerify-compatible code of ``vcgen.exitcodes``.
"""
from __future__ import annotations

import click

from .il import files as fileio, printer
from .il.command import ExitCodeGroup, guarded
from .il.errors import ExitCode, ToolError
from .il.parser import load_program


@click.group(cls=ExitCodeGroup)
def main():
    """Stages of the verifier that read and write IL (Boogie subset, docs/IL.md)."""


@main.command("abstract")
@click.argument("input", default="-")
@click.option("-o", "--output", default="-", help="Output .gbpl file (default: stdout).")
@click.option("--equality-abstraction", "force", flag_value="equality", help="Force equality for every array.")
@click.option("--adversarial-abstraction", "force", flag_value="adversarial", help="Force adversarial for every array.")
def abstract_cmd(input, output, force):
    """Choose the shared-state abstraction per array (taint analysis, paper 000 5.2).

    Reads a one-thread .gbpl, writes it back with {:equality} / {:adversarial} on each array.
    """
    from .analysis.abstraction import choose_abstraction

    def body():
        prog = choose_abstraction(load_program(input), force=force)
        fileio.write_text(output, printer.program_str(prog), input)
    guarded(body)


def lockstep_options(local_size, num_groups, global_size, block_dim, grid_dim, global_offset,
                     only_intra_group, only_divergence, no_benign_tolerance, no_infer, warp_sync=None,
                     check_array_bounds=False):
    from .twothread.launch import launch_config
    from .twothread.options import LockstepOptions
    if warp_sync is not None and warp_sync <= 0:
        raise ToolError("--warp-sync: the warp size must be positive", ExitCode.COMMAND_LINE_ERROR)
    return LockstepOptions(launch_config(local_size, num_groups, global_size, block_dim, grid_dim, global_offset),
                           only_intra_group=only_intra_group, only_divergence=only_divergence,
                           benign_tolerance=not no_benign_tolerance, infer=not no_infer, warp_sync=warp_sync,
                           check_array_bounds=check_array_bounds)


def launch_flags(f):
    for opt in reversed([
        click.option("--local_size", "--local-size", "local_size", help="Work-group size: N, [x,y] or [x,y,z]."),
        click.option("--num_groups", "--num-groups", "num_groups", help="Number of work groups per dimension."),
        click.option("--global_size", "--global-size", "global_size", help="Global size (multiple of local size)."),
        click.option("--blockDim", "block_dim", help="CUDA block size."),
        click.option("--gridDim", "grid_dim", help="CUDA grid size."),
        click.option("--global_offset", "global_offset", help="OpenCL global offset."),
        click.option("--only-intra-group", is_flag=True, help="Check only pairs of threads in one group."),
        click.option("--only-divergence", is_flag=True, help="Check only barrier divergence (adversarial arrays)."),
        click.option("--no-benign-tolerance", is_flag=True, help="Report same-value write-write races too."),
        click.option("--no-infer", is_flag=True, help="Generate no candidate invariants."),
        click.option("--warp-sync", "warp_sync", type=int, default=None,
                     help="Warp size: threads of one warp run in lock-step (pre-Volta CUDA)."),
        click.option("--check-array-bounds", is_flag=True,
                     help="Check accesses to arrays of known size stay in bounds."),
    ]):
        f = opt(f)
    return f


@main.command("lockstep")
@click.argument("input", default="-")
@click.option("-o", "--output", default="-", help="Output two-thread .bpl file (default: stdout).")
@click.option("--kernel-args", "kernel_args", default=None, metavar="NAME,V1,*,...",
              help="Fix scalar kernel arguments (source order; * = any value).")
@launch_flags
def lockstep_cmd(input, output, kernel_args, **flags):
    """Two-thread reduction: one-thread .gbpl -> two-thread .bpl with checks and candidates.

    Uniformity analysis, lock-step predication of the unstructured CFG, access logging,
    race / divergence / assertion checks, launch constraints (paper 000, sections 4-5).
    """
    from .twothread.transform import lockstep

    def body():
        from .twothread.kernel_args import apply_kernel_args
        opts = lockstep_options(**flags)
        prog = lockstep(apply_kernel_args(load_program(input), kernel_args), opts)
        fileio.write_text(output, printer.program_str(prog), input)
    guarded(body)


def _register_optional() -> None:
    """Commands implemented in the back-end modules (houdini, smt, verify, run)."""
    for module, attr in (("houdini", "houdini_command"), ("verify", "smt_command"),
                         ("verify", "verify_command"), ("interp", "run_command")):
        try:
            mod = __import__(f"vcgen.{module}", fromlist=[attr])
        except ImportError:
            continue
        cmd = getattr(mod, attr, None)
        if cmd is not None:
            main.add_command(cmd)


_register_optional()


if __name__ == "__main__":
    main()
