"""``vcgen lockstep``: the two-thread reduction as a command (docs/design.md section 2)."""
from __future__ import annotations

import click

from .. import stages
from ..il.command import guarded
from ..il.files import write_text
from ..il.parser import load_program
from ..il.printer import program_str


@click.command("lockstep")
@click.argument("input", default="-")
@click.option("-o", "--output", default="-", help="Output two-thread .bpl file (default: stdout).")
@stages.LOCKSTEP.with_flags
def lockstep_command(input: str, output: str, **flags: object) -> None:
    """Two-thread reduction: one-thread .gbpl -> two-thread .bpl with checks and candidates.

    Uniformity analysis, lock-step predication of the unstructured CFG, access logging,
    race / divergence / assertion checks, launch constraints (paper 000, sections 4-5).
    """
    def body() -> None:
        opts = stages.LOCKSTEP.options(flags)
        write_text(output, program_str(stages.LOCKSTEP.run(load_program(input), opts)), input)
    guarded(body)
