"""The shared Boogie prelude (``prelude/*.bpl``): bit-vector operation declarations.

``prelude/bitvector.bpl`` declares every ``BV32_<OP>`` with its SMT-LIB ``{:bvbuiltin}``
name; it is parsed once and instantiated at other widths on demand, so the generated
programs, the lock-step transformer and the candidate rules share one vocabulary
(docs/IL.md).  The folder ``prelude/`` is installed as the resource package
``vcgen.boogie_prelude`` (pyproject.toml), so the file is read the same way from a wheel
and from an editable install.
"""
from __future__ import annotations

from functools import lru_cache
from importlib import resources

from . import ast as il
from .parser import parse_program

PRELUDE_PACKAGE = "vcgen.boogie_prelude"


@lru_cache(maxsize=None)
def _base() -> dict:
    """op -> FunctionDecl at width 32, from ``prelude/bitvector.bpl``."""
    text = resources.files(PRELUDE_PACKAGE).joinpath("bitvector.bpl").read_text(encoding="utf-8")
    prog = parse_program(text, "prelude/bitvector.bpl")
    return {fd.name.split("_", 1)[1]: fd for fd in prog.decls if isinstance(fd, il.FunctionDecl)}


def bv_ops() -> tuple[str, ...]:
    """Names of the operations the prelude declares (``ADD``, ``SLT``, ...)."""
    return tuple(_base())


@lru_cache(maxsize=None)
def bv_decl(op: str, width: int) -> il.FunctionDecl:
    """The declaration of ``BV<width>_<op>``; KeyError for an operation the prelude lacks."""
    d = _base()[op]

    def widen(t: il.Type) -> il.Type:
        return il.BvType(width) if t == il.BV32 else t
    return il.FunctionDecl(f"BV{width}_{op}", tuple((n, widen(t)) for n, t in d.params), widen(d.ret), d.attrs)
