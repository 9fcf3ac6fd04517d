"""``vcgen verify``: final verification and the report (docs/design.md sections 2 and 7)."""
from __future__ import annotations

import os
from dataclasses import replace

import click

from .. import stages
from ..il.command import guarded
from ..il.parser import load_program
from ..report.render import render_report
from ..vc.encode import MATH_INT_WARNING
from .checker import verify_program


@click.command("verify")
@click.argument("input_file", metavar="IN")
@stages.VERIFY.with_flags
def verify_command(input_file: str, **flags: object) -> None:
    """Verify a two-thread program (running Houdini first if it has candidates)."""
    def body() -> int:
        program = load_program(input_file)
        opts = stages.VERIFY.options(flags)
        source = opts.source
        dirs = tuple(d for d in {os.path.dirname(os.path.abspath(input_file)),
                                 os.path.dirname(os.path.abspath(source)) if source else None} if d)
        opts = replace(opts, search_dirs=dirs)
        result = verify_program(program, opts, input_file)
        if opts.math_int and not opts.json:
            click.echo(MATH_INT_WARNING)
        click.echo(render_report(result, opts.json), nl=False)
        if flags["infer_info"] and result.houdini is not None and not opts.json:
            click.echo("\n".join(result.houdini.lines()))
        return result.exit_code
    guarded(body)
