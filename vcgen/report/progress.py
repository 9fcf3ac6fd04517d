"""Progress lines of ``--verbose`` on stderr, written as the run goes (docs/design.md
section 7): each stage as it starts and ends, and each solver query with its answer, its
time and the solver that gave it.  A run stopped by a timeout or Ctrl-C thus shows which
stage and which query it was in; ``--time`` prints only the totals at the end.

The lines go through the standard ``logging`` logger ``gpuverify`` at level INFO, so a
program that imports the verifier can route them (``writing`` is what ``--verbose`` uses).
Each line reads ``verbose: [  12.34 s] <message>``, the seconds counted from the start of
``writing``.
"""
from __future__ import annotations

import contextlib
import logging
import sys
import time
from typing import Any, Iterator, TextIO

LOG = logging.getLogger("gpuverify")


class _Elapsed(logging.Formatter):
    def __init__(self) -> None:
        super().__init__()
        self.start = time.perf_counter()

    def format(self, record: logging.LogRecord) -> str:
        return f"verbose: [{time.perf_counter() - self.start:8.2f} s] {record.getMessage()}"


@contextlib.contextmanager
def writing(on: bool = True, stream: TextIO | None = None) -> Iterator[None]:
    """Within the block, write progress lines to ``stream`` (default: the current stderr),
    flushed line by line, when ``on``; the handler is removed on exit, so a program that
    runs several commands (tests, a batch) gets lines only from those that asked."""
    if not on:
        yield
        return
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(_Elapsed())
    level, propagate = LOG.level, LOG.propagate
    LOG.addHandler(handler)
    LOG.setLevel(logging.INFO)
    LOG.propagate = False
    try:
        yield
    finally:
        LOG.removeHandler(handler)
        LOG.setLevel(level)
        LOG.propagate = propagate


def enabled() -> bool:
    """Whether progress lines are written (checked before building costly messages)."""
    return LOG.isEnabledFor(logging.INFO)


def note(message: str, *args: Any) -> None:
    """One progress line (``%``-style ``args``, formatted only when written)."""
    LOG.info(message, *args)
