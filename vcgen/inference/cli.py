"""``vcgen houdini``: invariant inference as a command (docs/design.md section 2)."""
from __future__ import annotations

import click

from .. import stages
from ..il.command import guarded
from ..il.files import write_text
from ..il.parser import load_program
from ..il.printer import program_str


@click.command("houdini")
@click.argument("input_file", metavar="IN")
@click.option("-o", "--output", required=True, help="Output .inv.bpl file (- = stdout).")
@stages.HOUDINI.with_flags
def houdini_command(input_file: str, output: str, **flags: object) -> None:
    """Keep the largest inductive subset of IN's candidate invariants; write the program
    with the survivors as {:invariant} {:inferred "rN"} asserts (--infer-info: statistics
    on stderr)."""
    def body() -> None:
        program = load_program(input_file)
        out = stages.HOUDINI.run(program, stages.HOUDINI.options(flags))
        write_text(output, program_str(out.program), input_file)
        if flags["infer_info"]:
            click.echo("\n".join(out.stats.lines()), err=True)
    guarded(body)
