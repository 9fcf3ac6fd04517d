"""The function vocabulary of generated IL: bit-vector operations and uninterpreted floats.

docs/IL.md: bit-vector arithmetic is by functions declared with ``{:bvbuiltin}``, named
``BV<w>_<OP>``; ``BV<m>_ZEXT<n>``/``BV<m>_SEXT<n>`` extend an ``m``-bit value to ``n``
bits; floating point operations are uninterpreted functions over bit-vectors
(``FADD32``, ``FOLT32`` ...; docs/design.md section 4: a sound over-approximation that keeps
byte-level memory and ``as_int`` consistent).

``Functions`` collects the declarations a program actually uses, in first-use order.
"""
from __future__ import annotations

from vcgen import il

# op -> (SMT-LIB name, arity, returns bool)
BV_OPS = {
    "ADD": ("bvadd", 2, False), "SUB": ("bvsub", 2, False), "MUL": ("bvmul", 2, False),
    "UDIV": ("bvudiv", 2, False), "SDIV": ("bvsdiv", 2, False), "UREM": ("bvurem", 2, False),
    "SREM": ("bvsrem", 2, False), "SHL": ("bvshl", 2, False), "LSHR": ("bvlshr", 2, False),
    "ASHR": ("bvashr", 2, False), "AND": ("bvand", 2, False), "OR": ("bvor", 2, False),
    "XOR": ("bvxor", 2, False), "NOT": ("bvnot", 1, False), "NEG": ("bvneg", 1, False),
    "ULT": ("bvult", 2, True), "ULE": ("bvule", 2, True), "UGT": ("bvugt", 2, True),
    "UGE": ("bvuge", 2, True), "SLT": ("bvslt", 2, True), "SLE": ("bvsle", 2, True),
    "SGT": ("bvsgt", 2, True), "SGE": ("bvsge", 2, True),
}


class Functions:
    """Registry of the function declarations a program uses; methods return FunApp nodes."""

    def __init__(self) -> None:
        self._decls: dict = {}

    def decls(self) -> list[il.Decl]:
        return list(self._decls.values())

    def _declare(self, name: str, params: tuple, ret: il.Type, attrs: tuple = ()) -> None:
        if name not in self._decls:
            self._decls[name] = il.FunctionDecl(name, tuple(("", t) for t in params), ret, attrs)

    def bv(self, op: str, width: int, *args: il.Expr) -> il.Expr:
        """``BV<width>_<op>(args)``: an exact bit-vector operation (table ``BV_OPS``)."""
        smt, arity, is_pred = BV_OPS[op]
        name = f"BV{width}_{op}"
        t = il.BvType(width)
        self._declare(name, (t,) * arity, il.BOOL if is_pred else t,
                      (il.Attr("bvbuiltin", (smt,)),))
        return il.FunApp(name, tuple(args))

    def extend(self, signed: bool, frm: int, to: int, e: il.Expr) -> il.Expr:
        """Zero/sign extension of an ``frm``-bit value to ``to`` bits (identity if equal)."""
        if frm == to:
            return e
        kind = "SEXT" if signed else "ZEXT"
        name = f"BV{frm}_{kind}{to}"
        smt = f"{'sign' if signed else 'zero'}_extend {to - frm}"
        self._declare(name, (il.BvType(frm),), il.BvType(to), (il.Attr("bvbuiltin", (smt,)),))
        return il.FunApp(name, (e,))

    def uninterpreted(self, name: str, params: tuple, ret: il.Type, *args: il.Expr) -> il.Expr:
        """An uninterpreted function (floats, math builtins): ``name(args)``."""
        self._declare(name, params, ret)
        return il.FunApp(name, tuple(args))

    def annotation(self, name: str, params: tuple, ret: il.Type, kind: tuple, *args: il.Expr) -> il.Expr:
        """A two-thread annotation query ``name(args)`` declared ``{:annotation kind...}``
        (docs/IL.md "Annotations"): ``vcgen lockstep`` gives it its meaning per thread."""
        self._declare(name, params, ret, (il.Attr("annotation", tuple(kind)),))
        return il.FunApp(name, tuple(args))

    def float_op(self, op: str, width: int, *args: il.Expr) -> il.Expr:
        """``F<op><width>`` over ``bv<width>`` values, e.g. ``FADD32``; predicates (``OLT``,
        ``UNE``, ...) return bool, everything else a ``bv<width>``."""
        preds = {"OEQ", "OGT", "OGE", "OLT", "OLE", "ONE", "ORD", "UEQ", "UGT", "UGE", "ULT",
                 "ULE", "UNE", "UNO"}
        t = il.BvType(width)
        ret = il.BOOL if op in preds else t
        return self.uninterpreted(f"F{op}{width}", (t,) * len(args), ret, *args)

    def convert(self, op: str, frm: int, to: int, e: il.Expr) -> il.Expr:
        """Uninterpreted conversion ``<OP>_<frm>_<to>`` (``SITOFP_32_32``, ``FPEXT_32_64`` ...)."""
        return self.uninterpreted(f"{op.upper()}_{frm}_{to}", (il.BvType(frm),), il.BvType(to), e)
