"""``vcgen smt``: the verification condition as an SMT-LIB2 script (docs/design.md section 2)."""
from __future__ import annotations

from dataclasses import replace

import click

from .. import stages
from ..il.command import guarded
from ..il.files import write_text
from ..il.parser import load_program


@click.command("smt")
@click.argument("input_file", metavar="IN")
@click.option("-o", "--output", required=True, help="Output .smt2 file (- = stdout).")
@stages.SMT.with_flags
def smt_command(input_file: str, output: str, **flags: object) -> None:
    """Write the verification query of IN as a standalone SMT-LIB2 script (unsat = verified).

    Candidates still present are checked as invariants (their guards asserted true)."""
    def body() -> None:
        program = load_program(input_file)
        opts = replace(stages.SMT.options(flags), title=f"verification condition of {input_file}")
        write_text(output, stages.SMT.run(program, opts), input_file)
    guarded(body)
