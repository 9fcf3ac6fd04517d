"""The shared Boogie prelude (``prelude/*.bpl``): bit-vector operation declarations.

``prelude/bitvector.bpl`` declares every ``BV32_<OP>`` with its SMT-LIB ``{:bvbuiltin}``
name; it is parsed once and instantiated at other widths on demand, so the generated
programs, the lock-step transformer and the candidate rules share one vocabulary
(docs/IL.md).  The folder ``prelude/`` is installed as the resource package
``vcgen.boogie_prelude`` (pyproject.toml), so the file is read the same way from a wheel
and from an editable install.

The parsed declarations are kept in the user's cache directory (``files.user_cache_dir``)
under a name that hashes the prelude's text, the AST module's source and the Python
version: a run that finds them never imports lark (0.05-0.1 s of every run, as much as
the rest of the IL front end's imports).
"""
from __future__ import annotations

import hashlib
import pickle
import sys
from functools import lru_cache
from importlib import resources
from pathlib import Path

from . import ast as il
from .files import replace_atomically, user_cache_dir

PRELUDE_PACKAGE = "vcgen.boogie_prelude"


@lru_cache(maxsize=None)
def _base() -> dict:
    """op -> FunctionDecl at width 32, from ``prelude/bitvector.bpl`` (or its cached parse)."""
    text = resources.files(PRELUDE_PACKAGE).joinpath("bitvector.bpl").read_text(encoding="utf-8")
    path = _cache_path(text)
    decls = _load(path)
    if decls is None:
        from .parser import parse_program  # lazy: lark only when the cache misses
        prog = parse_program(text, "prelude/bitvector.bpl")
        decls = {fd.name.split("_", 1)[1]: fd for fd in prog.decls if isinstance(fd, il.FunctionDecl)}
        _store(path, decls)
    return decls


def _cache_path(text: str) -> Path | None:
    cache = user_cache_dir()
    if cache is None:
        return None
    key = hashlib.sha256(text.encode())
    key.update(Path(il.__file__).read_bytes())
    key.update(sys.version.encode())
    return cache / f"prelude-{key.hexdigest()[:24]}.pickle"


def _load(path: Path | None) -> dict | None:
    """The cached declarations at ``path``; None if missing, unreadable or not what is
    stored there (another version's file is never read: the name hashes the sources)."""
    if path is None:
        return None
    try:
        with open(path, "rb") as f:
            decls = pickle.load(f)
    except Exception:  # missing, truncated, or unpicklable with these classes
        return None
    ok = isinstance(decls, dict) and all(isinstance(d, il.FunctionDecl) for d in decls.values())
    return decls if ok else None


def _store(path: Path | None, decls: dict) -> None:
    """Write ``decls`` to ``path`` (``files.replace_atomically``); a failure only means no
    cache."""
    if path is None:
        return
    try:
        replace_atomically(str(path), pickle.dumps(decls))
    except OSError:
        return


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
