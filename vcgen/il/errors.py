"""Exit codes, GPUVerify-compatible (docs/design.md section 7), and the error type carrying one."""
from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    SUCCESS = 0
    COMMAND_LINE_ERROR = 1
    CLANG_ERROR = 2
    OPT_ERROR = 3
    BUGLE_ERROR = 4
    GPUVERIFYVCGEN_ERROR = 5
    NOT_ALL_VERIFIED = 6
    TIMEOUT = 7
    CTRL_C = 8
    CONFIGURATION_ERROR = 9


# Names GPUVerify-style test headers use (``//xfail:NAME``), mapped to codes.
ALIASES = {
    "VCGEN_ERROR": ExitCode.GPUVERIFYVCGEN_ERROR,
    "BOOGIE_ERROR": ExitCode.NOT_ALL_VERIFIED,
    "INTERRUPTED": ExitCode.CTRL_C,
}


def code_by_name(name: str) -> ExitCode:
    """Exit code for a name such as ``NOT_ALL_VERIFIED`` or ``BOOGIE_ERROR``; KeyError if unknown."""
    if name in ALIASES:
        return ALIASES[name]
    return ExitCode[name]


class ToolError(Exception):
    """An error that ends a command with a one-line message and a specific exit code."""

    def __init__(self, message: str, code: ExitCode):
        super().__init__(message)
        self.code = code
