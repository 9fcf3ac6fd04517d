"""The source text of an annotation call, for the rules that are about what the user
wrote rather than about what clang emitted.

GPUVerify rejects a loop invariant written with a short-circuit operator (``&&``, ``||``,
``?:``): C evaluates such an operand conditionally (C11 6.5.13-6.5.15), so the invariant is
not evaluated at the loop head ("user-specified invariant does not appear at loop head").
clang folds some of them away (``u >= 0 && e`` for an unsigned ``u`` becomes ``e`` with no
branch), so the IR alone cannot tell; the call's argument text can.
"""
from __future__ import annotations

import re

import os
from functools import lru_cache

SHORT_CIRCUIT = ("&&", "||", "?")


@lru_cache(maxsize=16)
def _lines(path: str, _mtime: int) -> tuple:
    with open(path, errors="replace") as f:
        return tuple(f.read().splitlines())


def read_lines(path: str | None) -> tuple[str, ...] | None:
    """Lines of ``path`` (cached by path and modification time), None if unreadable."""
    if not path:
        return None
    try:
        return _lines(os.path.abspath(path), os.stat(path).st_mtime_ns)
    except OSError:
        return None


def call_argument(lines: tuple, line: int, col: int, names: tuple) -> str | None:
    """The text between the parentheses of the call of one of ``names`` that starts at
    ``line``:``col`` (1-based, as in debug locations), comments and string/character
    literals blanked out; None if no such call starts there (e.g. it comes from a macro
    expansion) or its parentheses do not close."""
    if not (1 <= line <= len(lines)):
        return None
    text = "\n".join(lines[line - 1:])[max(col - 1, 0):]
    name = next((n for n in names if text.startswith(n) and not (text[len(n):len(n) + 1].isalnum()
                                                                 or text[len(n):len(n) + 1] == "_")), None)
    if name is None:
        return None
    rest = text[len(name):].lstrip()
    if not rest.startswith("("):
        return None
    depth, out, i = 0, [], 0
    while i < len(rest):
        c, two = rest[i], rest[i:i + 2]
        if two == "//":
            i = rest.find("\n", i)
            i = len(rest) if i < 0 else i
            continue
        if two == "/*":
            end = rest.find("*/", i + 2)
            i = len(rest) if end < 0 else end + 2
            out.append(" ")
            continue
        if c in "\"'":
            end = i + 1
            while end < len(rest) and rest[end] != c:
                end += 2 if rest[end] == "\\" else 1
            out.append(" ")
            i = end + 1
            continue
        if c == "(":
            depth += 1
            if depth == 1:
                i += 1
                continue
        elif c == ")":
            depth -= 1
            if depth == 0:
                return "".join(out)
        out.append(c)
        i += 1
    return None


def uses_short_circuit(argument: str) -> bool:
    """Does the (comment- and literal-free) argument text use ``&&``, ``||`` or ``?:``?"""
    return any(op in argument for op in SHORT_CIRCUIT)


_CALLED = re.compile(r"\b([A-Za-z_]\w*)\s*\(")


def calls_defined_function(argument: str, lines: tuple) -> str | None:
    """The first name called in ``argument`` (an annotation's source text) that the file
    ``lines`` defines as a function (``NAME(...) {``), else None.  Names starting with
    ``__`` (annotation functions, uninterpreted functions) do not count."""
    text = "\n".join(lines)
    for m in _CALLED.finditer(argument):
        name = m.group(1)
        if name.startswith("__"):
            continue
        if re.search(rf"\b{re.escape(name)}\s*\([^;{{}}]*\)\s*\{{", text):
            return name
    return None
