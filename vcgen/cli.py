"""``vcgen STAGE ...``: the program of the stage commands that read IL (registered in
``vcgen.commands``)."""
from __future__ import annotations

import click

from .il.command import start_program


def _load() -> click.Command:
    from .commands import group  # lazy: Ctrl-C while the verifier loads exits 8, no traceback
    return group


def main(argv: list[str] | None = None) -> None:
    """Entry point: GPUVerify exit codes for usage errors (1), tool errors, Ctrl-C (8)."""
    start_program(_load, argv)


if __name__ == "__main__":
    main()
