"""bugle: the front end.  OpenCL C / CUDA -> LLVM IR (``bugle.cc``) -> one-thread IL
(``bugle.translate``).  See docs/design.md sections 2.1 and 4 and docs/IL.md."""
from __future__ import annotations

from vcgen.il.errors import ExitCode, ToolError


class BugleError(ToolError):
    """An IR construct bugle cannot translate (exit code 4, BUGLE_ERROR).

    The message names the construct and, when known, its source location
    (``k.cl:12:5: error: unsupported ...``).
    """

    def __init__(self, message: str, loc: tuple | None = None):
        if loc is not None and loc[0]:
            message = f"{loc[0]}:{loc[1]}:{loc[2]}: error: {message}"
        else:
            message = f"error: {message}"
        super().__init__(message, ExitCode.BUGLE_ERROR)


class NotPure(Exception):
    """A value is not a pure function of kernel arguments and ids (the message says what
    is in the way: a load, a call, control flow ...); see ``Translator.pure_value``."""
