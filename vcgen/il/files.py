"""Reading and writing stage files: ``-`` means stdin/stdout, writes are atomic.

A stage never overwrites its input and writes its output by temp file + rename, so a
failed run loses nothing (docs/design.md section 8).
"""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from .errors import ExitCode, ToolError


def user_cache_dir() -> Path | None:
    """``gpuverify-py`` under the user's cache directory (``$XDG_CACHE_HOME`` or
    ``~/.cache``), created if missing; None when there is no home directory or it cannot
    be written.  Never a shared temporary directory: what is cached there is unpickled
    (the parser's LALR tables, the parsed prelude)."""
    try:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
        cache = base / "gpuverify-py"
        cache.mkdir(parents=True, exist_ok=True)
    except (OSError, RuntimeError):  # no home directory, or not writable: no cache
        return None
    return cache


def read_text(path: str) -> str:
    """Text of ``path`` (``-`` = stdin).  ToolError(COMMAND_LINE_ERROR) if unreadable."""
    if path == "-":
        return sys.stdin.read()
    try:
        return Path(path).read_text()
    except FileNotFoundError:
        raise ToolError(f"{path}: file not found", ExitCode.COMMAND_LINE_ERROR) from None
    except (OSError, UnicodeDecodeError) as e:
        raise ToolError(f"{path}: cannot read: {e}", ExitCode.COMMAND_LINE_ERROR) from None


def write_text(path: str, text: str, input_path: str | None = None) -> None:
    """Write ``text`` to ``path`` atomically (``-`` = stdout).

    Raises ToolError(COMMAND_LINE_ERROR) if ``path`` is the input file or cannot be written.
    """
    if path == "-":
        sys.stdout.write(text)
        return
    if input_path not in (None, "-") and os.path.exists(path) and os.path.samefile(path, input_path):
        raise ToolError(f"{path}: refusing to overwrite the input file", ExitCode.COMMAND_LINE_ERROR)
    try:
        replace_atomically(path, text)
    except OSError as e:
        raise ToolError(f"{path}: cannot write: {e}", ExitCode.COMMAND_LINE_ERROR) from None


def replace_atomically(path: str, data: str | bytes) -> None:
    """Write ``data`` (text or bytes) to ``path`` by a temporary file in the same directory
    renamed into place, so a reader never sees a part; the file gets the usual mode of a
    new file.  Raises OSError; a failed or interrupted write leaves no temporary file."""
    d = os.path.dirname(os.path.abspath(path))
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=d, prefix=".tmp-", suffix=os.path.basename(path))
        with os.fdopen(fd, "wb" if isinstance(data, bytes) else "w") as f:
            f.write(data)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp creates 0600; outputs get the usual mode
        os.replace(tmp, path)
        tmp = None
    finally:
        if tmp is not None and os.path.exists(tmp):  # failed or interrupted: leave nothing behind
            os.unlink(tmp)
