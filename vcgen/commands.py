"""``vcgen``: the stage commands that read IL (docs/design.md section 2), registered here
(the program is started by ``vcgen.cli``).

Each command reads a file (or ``-``), writes a file (or ``-``) atomically, and never
overwrites its input.  Errors print one line on stderr and exit with the
GPUVerify-compatible code of ``vcgen.il.errors``.  The commands live beside their stages
(``vcgen.<package>.cli``); their flags come from ``vcgen.stages``.
"""
from __future__ import annotations

import click

from .analysis.cli import abstract_command
from .il.command import ExitCodeGroup
from .inference.cli import houdini_command
from .interp.cli import run_command
from .twothread.cli import lockstep_command
from .vc.cli import smt_command
from .verify.cli import verify_command

COMMANDS = (abstract_command, lockstep_command, houdini_command, smt_command, verify_command, run_command)


@click.group("vcgen", cls=ExitCodeGroup)
def group() -> None:
    """Stages of the verifier that read and write IL (Boogie subset, docs/IL.md)."""


for _command in COMMANDS:
    group.add_command(_command)
