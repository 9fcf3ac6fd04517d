"""``vcgen abstract``: the abstraction stage as a command (docs/design.md section 2)."""
from __future__ import annotations

import click

from .. import stages
from ..il.command import guarded
from ..il.files import write_text
from ..il.parser import load_program
from ..il.printer import program_str


@click.command("abstract")
@click.argument("input", default="-")
@click.option("-o", "--output", default="-", help="Output .gbpl file (default: stdout).")
@stages.ABSTRACT.with_flags
def abstract_command(input: str, output: str, **flags: object) -> None:
    """Choose the shared-state abstraction per array (taint analysis, paper 000 5.2).

    Reads a one-thread .gbpl, writes it back with {:equality} / {:adversarial} on each array.
    """
    def body() -> None:
        opts = stages.ABSTRACT.options(flags)
        write_text(output, program_str(stages.ABSTRACT.run(load_program(input), opts)), input)
    guarded(body)
