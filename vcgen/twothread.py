"""Names and conventions of the two-thread program shared by the lock-step transformer
(``vcgen.lockstep``) and its parts (``vcgen.warps``, ``vcgen.async_copies``,
``vcgen.annotation_queries``): docs/IL.md "Two-thread programs"."""
from __future__ import annotations

from dataclasses import dataclass

from . import il
from .il.errors import ExitCode, ToolError

DIMS = "xyz"
INT = il.INT


def error(msg: str) -> ToolError:
    return ToolError(msg, ExitCode.GPUVERIFYVCGEN_ERROR)


@dataclass
class ArrayInfo:
    name: str
    decl: il.VarDecl
    space: str  # "global" | "group_shared" | "constant"
    equality: bool
    logged: bool

    @property
    def dom(self) -> il.Type:
        return self.decl.type.domain

    @property
    def rng(self) -> il.Type:
        return self.decl.type.range


def _space(d: il.VarDecl) -> str:
    for s in ("global", "group_shared", "constant"):
        if il.has_attr(d.attrs, s):
            return s
    raise error(f"array {d.name} has no memory space attribute ({{:global}}, {{:group_shared}} or {{:constant}})")


def _atomic_array(c: il.Call) -> str | None:
    """The array of an atomic call ``call {:atomic "$$A", "add"} r := $bugle_atomic...(i, v);``."""
    a = il.attr(c.attrs, "atomic")
    return a.args[0] if a is not None and a.args else None


def _where(attrs) -> str:
    k = _loc_key(attrs)
    return f"{k[0]}:{k[1]}:{k[2]}: " if k else ""


def _loc_key(attrs) -> tuple | None:
    a = il.attr(attrs, "sourceloc")
    if a is None:
        return None
    f, l, c = a.args
    return (f, l.value, c.value)
