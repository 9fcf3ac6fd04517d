"""GPUVerify's switches over the user's annotations and checked arrays, applied to the
one-thread program before the two-thread reduction (docs/IL.md "Annotations").

* ``--no-annotations``: every source annotation is ignored (assertions, assumptions,
  invariants, contracts, axioms); ``--only-requires``: all but the ``__requires`` (kernel
  preconditions and the preconditions checked at calls).  Dropping an assumption or a
  precondition only weakens what is assumed, so neither can turn a racy kernel into a
  verified one; dropping assertions is what the user asked for.
* ``/checkArrays:A,B`` (``--vcgen-opt=/checkArrays:A,B``): only the listed arrays (source
  names) are logged and race-checked; naming an array the kernel does not have is exit 5
  with GPUVerify's message.
"""
from __future__ import annotations

from dataclasses import replace

from .. import il
from ..il.errors import ExitCode, ToolError

# attributes of the commands the annotations become (bugle.annotations)
ASSERTS = ("user_assert", "user_invariant", "postcondition", "function_wide_invariant", "barrier_invariant",
           "barrier_invariant_binary")
ANNOTATION_MODES = ("all", "requires", "none")


def filter_annotations(prog: il.Program, mode: str) -> il.Program:
    """``prog`` with the annotations ``mode`` drops (``all``: none dropped, ``requires``:
    all but preconditions, ``none``: all)."""
    if mode == "all":
        return prog
    kernel = prog.kernel()
    drop = ASSERTS + (("precondition",) if mode == "none" else ())

    def kept(c: object) -> bool:
        if isinstance(c, il.Assert):
            return not any(il.has_attr(c.attrs, a) for a in drop)
        if isinstance(c, il.Assume):
            return not (il.has_attr(c.attrs, "user_assume") or
                        (mode == "none" and il.has_attr(c.attrs, "precondition")))
        return True
    blocks = tuple(il.Block(b.label, tuple(c for c in b.cmds if kept(c)), b.transfer) for b in kernel.body())
    # the user's requires carry a {:sourceloc}; generated ones (image sizes, --kernel-args) stay
    specs = kernel.specs if mode == "requires" else \
        tuple(s for s in kernel.specs if not il.has_attr(s.attrs, "sourceloc"))
    new = replace(kernel, blocks=blocks, specs=specs)
    return il.Program(tuple(new if d is kernel else d for d in prog.decls))


def parse_check_arrays(spec: str) -> tuple[str, ...]:
    """``/checkArrays:A,B`` -> ``("A", "B")``; ToolError(COMMAND_LINE_ERROR) otherwise."""
    head, _, names = spec.partition(":")
    out = tuple(n for n in names.split(",") if n)
    if head.lower() != "/checkarrays" or not out:
        raise ToolError(f"expected /checkArrays:NAME[,NAME...], got {spec!r}", ExitCode.COMMAND_LINE_ERROR)
    return out


def check_arrays_known(names: tuple[str, ...], source_names: set[str]) -> None:
    """GPUVerify's error (exit 5) for a ``/checkArrays`` name the kernel has no array of."""
    for n in names:
        if n not in source_names:
            raise ToolError(f"GPUVerify: error: Array name '{n}' specified for restricted checking is not found",
                            ExitCode.GPUVERIFYVCGEN_ERROR)
