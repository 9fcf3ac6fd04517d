"""The shared Boogie prelude (``prelude/*.bpl``): bit-vector operation declarations.

``prelude/bitvector.bpl`` declares every ``BV32_<OP>`` with its SMT-LIB ``{:bvbuiltin}``
name; it is parsed once and instantiated at other widths on demand, so the generated
programs, the lock-step transformer and the candidate rules share one vocabulary
(docs/IL.md).  The file is found next to the package (source checkout or editable
install) or, for a wheel, inside it.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from . import ast as il
from .parser import parse_program

# the checkout (or editable install) keeps prelude/ beside the packages; a wheel inside vcgen/
_CANDIDATES = (Path(__file__).resolve().parents[2] / "prelude", Path(__file__).resolve().parents[1] / "prelude")


@lru_cache(maxsize=None)
def _base() -> dict:
    """op -> FunctionDecl at width 32, from ``prelude/bitvector.bpl``."""
    for d in _CANDIDATES:
        f = d / "bitvector.bpl"
        if f.exists():
            prog = parse_program(f.read_text(), str(f))
            return {fd.name.split("_", 1)[1]: fd for fd in prog.decls if isinstance(fd, il.FunctionDecl)}
    raise FileNotFoundError("prelude/bitvector.bpl not found")


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
