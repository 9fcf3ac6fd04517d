"""``--boogie-file=F``: extra IL declarations spliced into the program before verification.

F holds declarations in the IL subset of docs/IL.md (axioms, constants, functions,
procedure declarations, ...), parsed with vcgen's parser and added to the two-thread
program (GPUVerify adds such files to the Boogie program it verifies).  Names of
the two-thread program (``local_id_x$1``, ``group_size_x``, ``BV32_ADD`` ...) may be used.
"""
from __future__ import annotations

import os

from . import ast as il
from .errors import ExitCode, ToolError
from .typecheck import ILTypeError, typecheck


def _name(d) -> str | None:
    return None if isinstance(d, il.AxiomDecl) else d.name


def load_decls(path: str) -> tuple[il.Decl, ...]:
    """Declarations of the IL file ``path``.

    Raises ToolError: COMMAND_LINE_ERROR (1) if the file is missing or unreadable,
    GPUVERIFYVCGEN_ERROR (5) with ``FILE:LINE:COL`` on a parse error.
    """
    if not os.path.isfile(path):
        raise ToolError(f"--boogie-file: {path}: file not found", ExitCode.COMMAND_LINE_ERROR)
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError as e:
        raise ToolError(f"--boogie-file: {path}: {e.strerror}", ExitCode.COMMAND_LINE_ERROR) from None
    from .parser import ILParseError, parse_program  # lazy: lark only for a --boogie-file
    try:
        return parse_program(text, path).decls
    except ILParseError as e:
        raise ToolError(str(e), ExitCode.GPUVERIFYVCGEN_ERROR) from None


def splice(prog: il.Program, paths) -> il.Program:
    """``prog`` with the declarations of every file in ``paths`` inserted before its
    procedures, then type-checked.

    Raises ToolError as ``load_decls``, and GPUVERIFYVCGEN_ERROR (5) when a declaration
    clashes with a name of the program or does not type-check.
    """
    paths = list(paths or ())
    if not paths:
        return prog
    taken = {_name(d) for d in prog.decls} - {None}
    extra: list = []
    for p in paths:
        for d in load_decls(p):
            n = _name(d)
            if n is not None and n in taken:
                raise ToolError(f"--boogie-file: {p}: {n} is already declared", ExitCode.GPUVERIFYVCGEN_ERROR)
            taken.add(n)
            extra.append(d)
    procs = [d for d in prog.decls if isinstance(d, il.ProcedureDecl)]
    out = il.Program(tuple(d for d in prog.decls if not isinstance(d, il.ProcedureDecl))
                     + tuple(extra) + tuple(procs))
    try:
        typecheck(out)
    except ILTypeError as e:
        raise ToolError(f"--boogie-file: {', '.join(paths)}: {e}", ExitCode.GPUVERIFYVCGEN_ERROR) from None
    return out
