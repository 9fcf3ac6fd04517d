"""Reading the attributes the pipeline attaches to IL declarations and commands (docs/IL.md).

The one reader of ``{:sourceloc "k.cl", LINE, COL}`` (bugle's source locations, which every
later stage carries along and the reports print; ``{:sourceloc "k.cl", LINE, COL,
"external"}`` is an access made by an external routine described by a specification
function, at its call) and of attribute arguments as Python values.
"""
from __future__ import annotations

from typing import Any, NamedTuple

from . import ast as il


class SourceLoc(NamedTuple):
    """A source location: file name as bugle recorded it, 1-based line, column (0 when
    unknown).  Prints as ``k.cl:12:5``; it is a tuple, so it orders and hashes as one."""
    file: str
    line: int
    col: int

    @property
    def external(self) -> bool:
        """Is this the location of an access an external routine makes (``ExternalLoc``)?"""
        return False

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


class ExternalLoc(SourceLoc):
    """The location of an access of an external routine described by a specification
    function (``bugle.spec_functions``): the call that makes it.  Equal to the call's plain
    ``SourceLoc`` as a tuple: code that keys on locations and must keep the two apart adds
    a tag (``vcgen.twothread.builder``)."""
    __slots__ = ()

    @property
    def external(self) -> bool:
        return True


def arg_value(x: object) -> object:
    """An attribute argument as Python: a ``str`` stays, a literal gives its value, any other
    expression itself."""
    return getattr(x, "value", x) if isinstance(x, (il.IntLit, il.BvLit, il.BoolLit)) else x


def sourceloc(attrs: il.Attrs) -> SourceLoc | None:
    """The ``{:sourceloc FILE, LINE[, COL[, "external"]]}`` of ``attrs``; None when absent
    or malformed."""
    a = il.attr(attrs, "sourceloc")
    if a is None or len(a.args) < 2:
        return None
    vals: list[Any] = [x if isinstance(x, str) else getattr(x, "value", None) for x in a.args]
    try:
        kind = ExternalLoc if len(vals) > 3 and vals[3] == EXTERNAL else SourceLoc
        return kind(str(vals[0]), int(vals[1]), int(vals[2]) if len(vals) > 2 else 0)
    except (TypeError, ValueError):
        return None


EXTERNAL = "external"  # fourth argument of {:sourceloc} for an external routine's access


def sourceloc_attr(loc: SourceLoc) -> il.Attr:
    """``{:sourceloc FILE, LINE, COL}`` (with ``"external"`` for an external access)."""
    return il.Attr("sourceloc", (loc.file, il.IntLit(loc.line), il.IntLit(loc.col))
                   + ((EXTERNAL,) if loc.external else ()))


def where(attrs: il.Attrs) -> str:
    """``"k.cl:12:5: "`` for attributes with a source location, else ``""`` (message prefix)."""
    loc = sourceloc(attrs)
    return f"{loc}: " if loc else ""


def sourceloc_attrs(attrs: il.Attrs) -> il.Attrs:
    """Only the ``{:sourceloc}`` attributes of ``attrs`` (copied onto generated checks)."""
    return tuple(a for a in attrs if a.name == "sourceloc")
