"""``bugle`` command line: ``bugle cc`` (source -> LLVM IR) and ``bugle translate``
(LLVM IR -> one-thread IL).  Exit codes per DESIGN.md section 7: 1 command line,
2 clang, 3 optimizer, 4 bugle (unsupported construct)."""
from __future__ import annotations

import sys

import click

from vcgen.cli import ExitCodeGroup
from vcgen.exitcodes import ExitCode, ToolError
from vcgen.fileio import read_text, write_text

from .cc import STAGES


def _fail(e: ToolError) -> None:
    click.echo(str(e), err=True)
    sys.exit(int(e.code))


@click.group(cls=ExitCodeGroup)
def main() -> None:
    """bugle: the GPU kernel front end (OpenCL C / CUDA -> LLVM IR -> IL)."""


@main.command()
@click.argument("kernel", type=click.Path(dir_okay=False))
@click.option("-o", "--output", default="-", show_default=True, help="LLVM IR output file ('-' = stdout).")
@click.option("-D", "defines", multiple=True, metavar="NAME[=V]", help="Preprocessor definition.")
@click.option("-I", "includes", multiple=True, metavar="DIR", help="Include directory.")
@click.option("--spir64", is_flag=True, help="OpenCL: 64-bit size_t/pointers (spir64 triple).")
@click.option("--language", type=click.Choice(["opencl", "cuda"]), default=None,
              help="Override the language chosen from the suffix (.cl/.cu).")
@click.option("--clang-opt", "clang_opts", multiple=True, metavar="OPT",
              help="Option passed through to clang -cc1, e.g. --clang-opt=-cl-std=CL2.0 (repeatable).")
@click.option("--stop-after", "stop_after", type=click.Choice(STAGES), default="verify",
              show_default=True, help="Print the module after this stage of the pipeline "
              "(clang = clang's output; see bugle.cc.PIPELINE).")
@click.option("--no-inline", "no_inline", is_flag=True,
              help="Keep the functions verified on their own against their contracts (bugle.modular).")
def cc(kernel: str, output: str, defines, includes, spir64: bool, language, clang_opts,
       stop_after: str, no_inline: bool) -> None:
    """Compile KERNEL (.cl or .cu) to optimized LLVM IR text."""
    from .cc import compile_kernel
    try:
        ir = compile_kernel(kernel, language, defines, includes, spir64, clang_opts, stop_after,
                            keep_functions=no_inline)
        write_text(output, ir, kernel)
    except ToolError as e:
        _fail(e)


@main.command()
@click.argument("ir_file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("-o", "--output", default="-", show_default=True, help="IL output file ('-' = stdout).")
@click.option("--kernel", default=None, help="Kernel to translate (source name); needed if several.")
@click.option("--source", "source", default=None, help="Source file name for {:sourceloc} attributes.")
@click.option("--function", "function", default=None,
              help="Translate this non-kernel function as the entry of its modular check (needs `bugle cc --no-inline`).")
def translate(ir_file: str, output: str, kernel, source, function) -> None:
    """Translate LLVM IR (from `bugle cc`) into the one-thread IL (.gbpl)."""
    from vcgen.printer import program_str

    from .translate import translate_ir
    try:
        prog = translate_ir(read_text(ir_file), kernel, source, function=function)
        write_text(output, program_str(prog), ir_file)
    except ToolError as e:
        _fail(e)
    except RecursionError:
        _fail(ToolError("error: expression nesting too deep", ExitCode.BUGLE_ERROR))
    except (ValueError, KeyError, IndexError, AttributeError, TypeError) as e:
        # an IR shape the translator does not expect: report, never a traceback
        _fail(ToolError(f"error: unsupported LLVM IR ({type(e).__name__}: {e})", ExitCode.BUGLE_ERROR))


if __name__ == "__main__":
    main()
