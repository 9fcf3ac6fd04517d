"""``bugle cc|translate ...``: the front end's program (commands in ``bugle.commands``).
Exit codes per docs/design.md section 7: 1 command line, 2 clang, 3 optimizer, 4 bugle."""
from __future__ import annotations

import click

from vcgen.il.command import start_program


def _load() -> click.Command:
    from .commands import group  # lazy: Ctrl-C while the front end loads exits 8, no traceback
    return group


def main(argv: list[str] | None = None) -> None:
    """Entry point: GPUVerify exit codes for usage errors (1), tool errors, Ctrl-C (8)."""
    start_program(_load, argv)


if __name__ == "__main__":
    main()
