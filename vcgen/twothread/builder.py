"""The output side of the two-thread reduction: blocks under construction, fresh locals and
globals, bit-vector function declarations and source-location numbers of the two-thread
program (docs/IL.md "Two-thread programs")."""
from __future__ import annotations

from .. import il
from ..il.attributes import EXTERNAL, ExternalLoc, SourceLoc, sourceloc_attr
from ..il.prelude import bv_decl


class ProgramBuilder:
    """Collects the blocks and new declarations of the two-thread kernel.

    Blocks are built one at a time: ``start(label)``, ``emit(cmd)``..., ``close(transfer)``.
    ``declared_functions`` are the functions the input already declares (not declared again).
    """

    def __init__(self, declared_functions: set[str]):
        self.declared_functions = declared_functions
        self.blocks: list[il.Block] = []
        self.open_label: str | None = None
        self.open_cmds: list[il.Cmd] = []
        self.new_locals: dict[str, il.Type] = {}
        self.new_globals: dict[str, il.VarDecl] = {}
        self.new_functions: dict[str, il.FunctionDecl] = {}
        self.sourcelocs: dict[tuple, int] = {}  # SourceLoc (+ a site tag) -> number
        self.fresh = 0

    # ------------------------------------------------------------------ blocks

    def emit(self, c: il.Cmd) -> None:
        self.open_cmds.append(c)

    def close(self, transfer: il.Transfer) -> None:
        assert self.open_label is not None
        self.blocks.append(il.Block(self.open_label, tuple(self.open_cmds), transfer))
        self.open_label, self.open_cmds = None, []

    def start(self, label: str) -> None:
        assert self.open_label is None
        self.open_label, self.open_cmds = label, []

    def goto_new(self, label: str) -> None:
        """Close the open block with ``goto label`` and start ``label``."""
        self.close(il.Goto((label,)))
        self.start(label)

    def detach(self) -> tuple[str, list[il.Cmd]]:
        """Take the open block away unfinished (label, commands); it is added later with
        ``add_block``."""
        assert self.open_label is not None
        out = (self.open_label, self.open_cmds)
        self.open_label, self.open_cmds = None, []
        return out

    def add_block(self, block: il.Block) -> None:
        self.blocks.append(block)

    # ------------------------------------------------------------ declarations

    def local(self, name: str, ty: il.Type) -> il.Var:
        """The local ``name`` of type ``ty``, declared in the kernel if new."""
        self.new_locals[name] = ty
        return il.Var(name)

    def tmp(self, ty: il.Type, hint: str = "tmp") -> il.Var:
        """A fresh local ``_HINT$N``."""
        self.fresh += 1
        return self.local(f"_{hint}${self.fresh}", ty)

    def glob(self, name: str, ty: il.Type, attrs: il.Attrs = ()) -> il.Var:
        """The global variable ``name`` of type ``ty``, declared if new."""
        self.new_globals.setdefault(name, il.VarDecl(name, ty, attrs))
        return il.Var(name)

    def bvfun(self, op: str, width: int) -> str:
        """Name of ``BV<width>_<op>`` (declaration from ``prelude/bitvector.bpl``), declared
        in the output if the input program lacks it."""
        name = f"BV{width}_{op}"
        if name not in self.declared_functions and name not in self.new_functions:
            self.new_functions[name] = bv_decl(op, width)
        return name

    def zext(self, frm: int, to: int) -> str:
        """Name of ``BV<frm>_ZEXT<to>`` (zero extension, SMT-LIB ``zero_extend``; the front
        end's name and declaration for it), declared in the output if the input lacks it."""
        name = f"BV{frm}_ZEXT{to}"
        if name not in self.declared_functions and name not in self.new_functions:
            self.new_functions[name] = il.FunctionDecl(
                name, (("", il.BvType(frm)),), il.BvType(to), (il.Attr("bvbuiltin", (f"zero_extend {to - frm}",)),))
        return name

    def sourceloc_num(self, key: tuple | None) -> il.IntLit:
        """The number of a source location (a ``SourceLoc``, possibly with a tag making it a
        site of its own) in the access logs' ``SOURCE`` variables; 0 when unknown."""
        if key is None:
            return il.IntLit(0)
        if isinstance(key, SourceLoc) and key.external:
            key = tuple(key) + (EXTERNAL,)  # its own number: not the call's plain accesses
        if key not in self.sourcelocs:
            self.sourcelocs[key] = len(self.sourcelocs) + 1
        return il.IntLit(self.sourcelocs[key])

    def sourceloc_decls(self) -> list[il.ConstDecl]:
        """``const {:sourceloc_num N} {:sourceloc F, L, C} $sourceloc_N: int`` per number."""
        out = []
        for key, n in sorted(self.sourcelocs.items(), key=lambda kv: kv[1]):
            f, l, c, *tags = key
            kind = ExternalLoc if EXTERNAL in tags else SourceLoc
            out.append(il.ConstDecl(f"$sourceloc_{n}", il.INT, attrs=(
                il.Attr("sourceloc_num", (il.IntLit(n),)), sourceloc_attr(kind(f, l, c)))))
        return out
