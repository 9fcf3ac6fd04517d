"""``bugle`` commands: ``bugle cc`` (source -> LLVM IR) and ``bugle translate`` (LLVM IR ->
one-thread IL), with the flags of ``bugle.stages`` (the program is started by ``bugle.cli``).  Exit codes per
docs/design.md section 7: 1 command line, 2 clang, 3 optimizer, 4 bugle (unsupported
construct)."""
from __future__ import annotations

import os

import click

from vcgen.il.command import ExitCodeGroup, guarded
from vcgen.il.errors import ExitCode, ToolError
from vcgen.il.files import read_text, write_text
from vcgen.il.printer import program_str

from .launch_sites import LaunchReadError
from .stages import CC, LAUNCHES, TRANSLATE


@click.group("bugle", cls=ExitCodeGroup)
def group() -> None:
    """bugle: the GPU kernel front end (OpenCL C / CUDA -> LLVM IR -> IL)."""


@group.command("cc")
@click.argument("kernel", type=click.Path(dir_okay=False))
@click.option("-o", "--output", default="-", show_default=True, help="LLVM IR output file ('-' = stdout).")
@CC.with_flags
def cc(kernel: str, output: str, **flags: object) -> None:
    """Compile KERNEL (.cl or .cu) to optimized LLVM IR text."""
    def body() -> None:
        write_text(output, CC.run(kernel, CC.options(flags)), kernel)
    guarded(body)


@group.command("translate")
@click.argument("ir_file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("-o", "--output", default="-", show_default=True, help="IL output file ('-' = stdout).")
@TRANSLATE.with_flags
def translate(ir_file: str, output: str, **flags: object) -> None:
    """Translate LLVM IR (from `bugle cc`) into the one-thread IL (.gbpl)."""
    def body() -> None:
        try:
            prog = TRANSLATE.run(read_text(ir_file), TRANSLATE.options(flags))
        except RecursionError:
            raise ToolError("error: expression nesting too deep", ExitCode.BUGLE_ERROR) from None
        except (ValueError, KeyError, IndexError, AttributeError, TypeError) as e:
            # an IR shape the translator does not expect: report, never a traceback
            raise ToolError(f"error: unsupported LLVM IR ({type(e).__name__}: {e})", ExitCode.BUGLE_ERROR) from None
        write_text(output, program_str(prog), ir_file)
    guarded(body)


@group.command("launches")
@click.argument("kernel", type=click.Path(dir_okay=False))
@click.option("-o", "--output", default="-", show_default=True, help="Output file ('-' = stdout).")
@LAUNCHES.with_flags
def launches(kernel: str, output: str, **flags: object) -> None:
    """Print the kernel launches of a CUDA file's host code: one line per launch, with its
    sizes as --gridDim/--blockDim flags (* = not a compile-time constant)."""
    def body() -> None:
        if not kernel.endswith((".cu", ".cuh")):
            raise ToolError(f"{kernel}: launches are read from CUDA files (.cu)", ExitCode.COMMAND_LINE_ERROR)
        if not os.path.isfile(kernel):
            raise ToolError(f"{kernel}: file not found", ExitCode.COMMAND_LINE_ERROR)
        try:
            found = LAUNCHES.run(kernel, LAUNCHES.options(flags))
        except LaunchReadError as e:
            raise ToolError(f"error: {e}", ExitCode.CLANG_ERROR) from None
        text = "".join(line + "\n" for line in found.lines())
        write_text(output, text, kernel)
    guarded(body)
