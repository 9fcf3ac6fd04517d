"""The VC of a two-thread program's kernel: loops cut by their invariants (Houdini, the
final check) or unwound (``--findbugs``), passified and encoded (docs/design.md
section 6); and the ``vcgen smt`` stage, the same query as an SMT-LIB2 script.
"""
from __future__ import annotations

from dataclasses import dataclass

from .. import il
from ..il.errors import ExitCode, ToolError
from .encode import VC, build_vc
from .loopcut import cut_loops, k_induction, unwind_loops
from .passify import PassiveProgram, passify
from .solvers.smtlib import smt_script


def kernel_of(program: il.Program) -> il.ProcedureDecl:
    """The ``{:kernel}`` procedure, which must have a body.
    Raises ToolError(GPUVERIFYVCGEN_ERROR) otherwise."""
    try:
        k = program.kernel()
    except ValueError as e:
        raise ToolError(str(e), ExitCode.GPUVERIFYVCGEN_ERROR) from None
    if k.blocks is None:
        raise ToolError(f"kernel {k.name} has no body", ExitCode.GPUVERIFYVCGEN_ERROR)
    return k


def program_vc(program: il.Program, loop_unwind: int | None = None, math_int: bool = False,
               k_induction_depth: int | None = None, independent_candidates: bool = False) -> VC:
    """The VC of the kernel of ``program``: loops cut with their invariants and candidates,
    or unrolled ``loop_unwind`` times when given, or proved by k-induction of depth
    ``k_induction_depth`` (``loopcut.k_induction``; ``math_int``: bit-vectors as unbounded
    integers, ``--math-int``).  With symbolic launch sizes (``{:symbolic_launch}``) the
    passive form propagates copies (``passify``); concrete launches keep one equation per
    assignment (propagating there too changes which counterexample the solver finds first:
    after a loop cut the logged source line of a race is not pinned by the invariants, so
    e.g. corpus/opencl/normalize_bug_afterloop.cl would name the write before the loop).
    ``independent_candidates``: see ``encode.build_vc`` (Houdini).
    Raises ToolError on malformed programs."""
    kernel = kernel_of(program)
    if loop_unwind is not None:
        acyclic = unwind_loops(kernel, loop_unwind)
    elif k_induction_depth is not None:
        acyclic = k_induction(kernel, k_induction_depth)
    else:
        acyclic = cut_loops(kernel)
    return build_vc(program, _passive(program, kernel, acyclic), math_int=math_int,
                    independent_candidates=independent_candidates)


def _passive(program: il.Program, kernel: il.ProcedureDecl, acyclic: il.ProcedureDecl) -> PassiveProgram:
    """The passive form of the loop-free ``acyclic`` (copy propagation with symbolic sizes,
    see ``program_vc``)."""
    return passify(program, acyclic, copy_propagation=il.has_attr(kernel.attrs, "symbolic_launch"))


def cut_passive(program: il.Program) -> PassiveProgram:
    """The passive form of the kernel of ``program`` with its loops cut (the final check's
    program before encoding)."""
    kernel = kernel_of(program)
    return _passive(program, kernel, cut_loops(kernel))


def smt_query(program: il.Program, loop_unwind: int | None = None, title: str = "",
              math_int: bool = False) -> str:
    """SMT-LIB2 text of the final query: every real assertion and candidate checked
    (``math_int``: bit-vectors as integers); unsat = verified."""
    vc = program_vc(program, loop_unwind, math_int)
    enabled = {c.index for c in vc.checks if not c.is_vacuity}
    return smt_script(vc, vc.assumptions(enabled, None), title)


@dataclass(frozen=True)
class SmtOptions:
    """``loop_unwind``: unwind loops that often instead of cutting them; ``math_int``:
    bit-vectors as integers; ``title``: the script's first comment line."""
    loop_unwind: int | None = None
    math_int: bool = False
    title: str = ""


def run(program: il.Program, options: SmtOptions) -> str:
    """The ``vcgen smt`` stage: ``smt_query`` with the options."""
    return smt_query(program, options.loop_unwind, options.title, options.math_int)
