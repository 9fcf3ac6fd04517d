"""Calls: work-item functions, barriers, annotations, intrinsics and pure math builtins.

DESIGN.md section 4 "Builtins" and docs/IL.md "One-thread programs":
  * OpenCL work-item functions and CUDA ``__nvvm_read_ptx_sreg_*`` reads become the id
    constants (``local_id_x``, ``group_id_y``, ``group_size_z``, ``num_groups_x``,
    ``global_offset_x``); ``get_global_id(d) = group_id*group_size + local_id +
    global_offset`` in bit-vector arithmetic (paper 000 section 2, the SDV model);
  * ``barrier(flags)`` / ``__syncthreads()`` -> ``call $bugle_barrier(LF, GF)``;
  * annotations (``__assert``, ``__assume``, ``__invariant``, ``__requires``) -> IL
    constructs; ``__ensures``, ``__global_assert``, ``__global_invariant`` are errors for now;
  * exact LLVM integer intrinsics (min/max/abs/ctpop/ctlz/cttz, overflow arithmetic);
  * pure floating-point intrinsics and ``memory(none)`` external functions (OpenCL math)
    -> uninterpreted functions.

Everything else is a BugleError naming the callee and the source line.
"""
from __future__ import annotations

import re

from vcgen import il

from . import BugleError

DIMS = "xyz"
ID_KINDS = ("local_id", "group_id", "group_size", "num_groups", "global_offset")

# OpenCL work-item function (demangled base name) -> id kind; "global_id"/"global_size"
# are computed from the others.
OPENCL_IDS = {
    "get_local_id": "local_id", "get_group_id": "group_id", "get_local_size": "group_size",
    "get_num_groups": "num_groups", "get_global_offset": "global_offset",
    "get_global_id": "global_id", "get_global_size": "global_size",
    "get_enqueued_local_size": "group_size",
}
# Out-of-range dimension: ids and offsets are 0, sizes are 1 (OpenCL 1.2 section 6.12.1).
OUT_OF_RANGE = {"local_id": 0, "group_id": 0, "global_offset": 0, "global_id": 0,
                "group_size": 1, "num_groups": 1, "global_size": 1}

CUDA_SREGS = {"tid": "local_id", "ctaid": "group_id", "ntid": "group_size", "nctaid": "num_groups"}

ANNOTATIONS = ("__requires", "__ensures", "__assert", "__assume", "__invariant",
               "__global_assert", "__global_invariant", "__global_requires",
               "__global_ensures", "__read", "__write", "__read_offset", "__write_offset")

NO_OP_CALLS = re.compile(
    r"llvm\.lifetime\.|llvm\.dbg\.|llvm\.experimental\.noalias|llvm\.invariant\.|"
    r"llvm\.var\.annotation|llvm\.donothing|llvm\.sideeffect|llvm\.nvvm\.membar|"
    r"llvm\.nvvm\.fence|llvm\.pseudoprobe")
# OpenCL fences without a barrier do not synchronise threads: ignoring them is sound
# for race checking.
NO_OP_OPENCL = ("mem_fence", "read_mem_fence", "write_mem_fence")

FLOAT_INTRINSICS = re.compile(
    r"llvm\.(fabs|sqrt|fma|fmuladd|floor|ceil|trunc|rint|nearbyint|round|roundeven|"
    r"exp|exp2|exp10|log|log2|log10|sin|cos|tan|pow|powi|minnum|maxnum|minimum|maximum|"
    r"copysign|canonicalize|ldexp|asin|acos|atan|atan2|sinh|cosh|tanh)\.")


def id_const(kind: str, dim: int) -> il.Var:
    """The IL constant of an id kind and dimension (``group_size`` 1 -> ``group_size_y``)."""
    return il.Var(f"{kind}_{DIMS[dim]}")


def demangle_opencl(name: str) -> str:
    """Base name of an Itanium-mangled OpenCL builtin: ``_Z12get_local_idj`` -> ``get_local_id``."""
    m = re.match(r"_Z(\d+)", name)
    if not m:
        return name
    n = int(m.group(1))
    return name[m.end():m.end() + n]


class Calls:
    """Translates one call instruction, given the translator ``tr`` (see bugle.translate).

    The translator provides: ``tr.fns`` (bvops.Functions), ``tr.operand(v)``,
    ``tr.assign_result(inst, expr)``, ``tr.emit(cmd)``, ``tr.marker(loc)``,
    ``tr.sourceloc(loc)``, ``tr.add_requires(expr, loc, inst)``, ``tr.int_width(t)``,
    ``tr.result_type(inst)``, ``tr.use_work_dim()``.
    """

    def __init__(self, tr):
        self.tr = tr

    # ----------------------------------------------------------------- dispatch
    def translate(self, inst, callee: str, args: list, loc, fn_attrs: str) -> None:
        tr = self.tr
        if NO_OP_CALLS.match(callee):
            return
        if callee in ANNOTATIONS:
            return self._annotation(inst, callee, args, loc)
        base = demangle_opencl(callee)
        if tr.language == "opencl" and base in OPENCL_IDS:
            return tr.assign_result(inst, self.opencl_id(OPENCL_IDS[base], args, inst, loc))
        if tr.language == "opencl" and base == "get_work_dim":
            return tr.assign_result(inst, tr.use_work_dim())
        if tr.language == "opencl" and base in ("barrier", "work_group_barrier"):
            return self._opencl_barrier(args, loc)
        if tr.language == "opencl" and base in NO_OP_OPENCL:
            return
        m = re.match(r"llvm\.nvvm\.read\.ptx\.sreg\.(tid|ctaid|ntid|nctaid)\.([xyz])$", callee)
        if m:
            return tr.assign_result(inst, id_const(CUDA_SREGS[m.group(1)], DIMS.index(m.group(2))))
        if callee.startswith("llvm.nvvm.barrier") and re.match(
                r"llvm\.nvvm\.barrier(0|\.cta\.sync\.aligned\.all|\.sync)$", callee):
            if callee != "llvm.nvvm.barrier0" and not _const_zero(tr, args[0]):
                raise BugleError(f"named barrier {callee} with a non-zero id is not supported", loc)
            return self._barrier(True, True, loc)
        if callee == "llvm.assume":
            raise BugleError("llvm.assume is not supported (it would be a silent assumption)", loc)
        if callee.startswith("llvm.") and self._int_intrinsic(inst, callee, args, loc):
            return
        if FLOAT_INTRINSICS.match(callee) or (
                not callee.startswith("llvm.") and "memory(none)" in fn_attrs):
            return self._pure_function(inst, callee, args, loc)
        if "atomic" in base or "atom" in callee:
            raise BugleError(f"atomic operation {base} is not supported", loc)
        if callee.startswith("llvm."):
            raise BugleError(f"unsupported intrinsic {callee}", loc)
        raise BugleError(f"call to unknown function {callee}", loc)

    # ------------------------------------------------------------------- ids
    def opencl_id(self, kind: str, args: list, inst, loc) -> il.Expr:
        """Value of an OpenCL work-item function as an expression of the result width."""
        tr = self.tr
        w = tr.int_width(tr.result_type(inst))
        dim = tr.const_int(args[0]) if args else 0
        if dim is not None:
            if 0 <= dim <= 2:
                return self._id_value(kind, dim, w)
            return il.BvLit(OUT_OF_RANGE[kind], w)
        d = tr.operand(args[0])
        dw = tr.int_width(tr.value_type(args[0]))
        out: il.Expr = il.BvLit(OUT_OF_RANGE[kind], w)
        for k in (2, 1, 0):
            out = il.IfThenElse(il.BinOp("==", d, il.BvLit(k, dw)), self._id_value(kind, k, w), out)
        return out

    def _id_value(self, kind: str, dim: int, w: int) -> il.Expr:
        fns = self.tr.fns

        def c(k: str) -> il.Expr:
            return fns.extend(False, 32, w, id_const(k, dim))
        if kind == "global_id":
            return fns.bv("ADD", w, fns.bv("ADD", w, fns.bv("MUL", w, c("group_id"), c("group_size")),
                                           c("local_id")), c("global_offset"))
        if kind == "global_size":
            return fns.bv("MUL", w, c("group_size"), c("num_groups"))
        return c(kind)

    # -------------------------------------------------------------- barriers
    def _opencl_barrier(self, args: list, loc) -> None:
        flags = self.tr.const_int(args[0]) if args else None
        if flags is None:
            raise BugleError("barrier with non-constant fence flags is not supported", loc)
        self._barrier(bool(flags & 1), bool(flags & 2), loc)

    def _barrier(self, local: bool, global_: bool, loc) -> None:
        tr = self.tr
        tr.marker(loc)
        tr.emit(il.Call("$bugle_barrier", (il.BvLit(int(local), 1), il.BvLit(int(global_), 1)),
                        (), (tr.sourceloc(loc),)))

    # ----------------------------------------------------------- annotations
    def _annotation(self, inst, callee: str, args: list, loc) -> None:
        tr = self.tr
        if len(args) != 1:
            raise BugleError(f"{callee} expects one argument", loc)
        if callee == "__requires":
            return tr.add_requires(inst, args[0], loc)
        if callee not in ("__assert", "__assume", "__invariant"):
            raise BugleError(f"annotation {callee} is not supported yet", loc)
        e = tr.as_bool(args[0])
        if callee == "__assume":
            tr.emit(il.Assume(e))
            return
        tr.marker(loc)
        kind = "user_assert" if callee == "__assert" else "user_invariant"
        tr.emit(il.Assert(e, (tr.sourceloc(loc), il.Attr(kind))))

    # ------------------------------------------------------ exact intrinsics
    def _int_intrinsic(self, inst, callee: str, args: list, loc) -> bool:
        """LLVM integer intrinsics with an exact bit-vector meaning; False if not one."""
        tr, fns = self.tr, self.tr.fns
        m = re.match(r"llvm\.(smin|smax|umin|umax|abs|ctpop|ctlz|cttz|bswap|bitreverse)\.i(\d+)$", callee)
        if m:
            op, w = m.group(1), int(m.group(2))
            if w == 1:
                raise BugleError(f"{callee} on i1 is not supported", loc)
            a = tr.operand(args[0])
            if op in ("smin", "smax", "umin", "umax"):
                b = tr.operand(args[1])
                cmp = {"smin": "SLT", "smax": "SGT", "umin": "ULT", "umax": "UGT"}[op]
                e = il.IfThenElse(fns.bv(cmp, w, a, b), a, b)
            elif op == "abs":
                e = il.IfThenElse(fns.bv("SLT", w, a, il.BvLit(0, w)), fns.bv("NEG", w, a), a)
            elif op == "ctpop":
                e = il.BvLit(0, w)
                for k in range(w):
                    e = fns.bv("ADD", w, e, fns.extend(False, 1, w, il.BvExtract(a, k + 1, k)))
            elif op in ("ctlz", "cttz"):
                # nested ite, highest priority (the bit nearest the counted end) outermost
                e = il.BvLit(w, w)
                for k in reversed(range(w)):
                    bit = w - 1 - k if op == "ctlz" else k
                    e = il.IfThenElse(il.BinOp("==", il.BvExtract(a, bit + 1, bit), il.BvLit(1, 1)),
                                      il.BvLit(k, w), e)
            elif op == "bswap":
                bytes_ = [il.BvExtract(a, 8 * k + 8, 8 * k) for k in range(w // 8)]
                e = bytes_[0]
                for b in bytes_[1:]:
                    e = il.BvConcat(e, b)
            else:  # bitreverse
                bits = [il.BvExtract(a, k + 1, k) for k in range(w)]
                e = bits[0]
                for b in bits[1:]:
                    e = il.BvConcat(e, b)
            tr.assign_result(inst, e)
            return True
        m = re.match(r"llvm\.([su])(add|sub|mul)\.with\.overflow\.i(\d+)$", callee)
        if m:
            signed, op, w = m.group(1) == "s", m.group(2).upper(), int(m.group(3))
            a, b = tr.operand(args[0]), tr.operand(args[1])
            res = fns.bv(op, w, a, b)
            wide = fns.bv(op, 2 * w, fns.extend(signed, w, 2 * w, a), fns.extend(signed, w, 2 * w, b))
            ovf = il.BinOp("!=", wide, fns.extend(signed, w, 2 * w, res))
            tr.assign_result(inst, (res, ovf))
            return True
        m = re.match(r"llvm\.([su])(add|sub)\.sat\.i(\d+)$", callee)
        if m:
            raise BugleError(f"saturating intrinsic {callee} is not supported", loc)
        return False

    # ------------------------------------------------------ pure functions
    def _pure_function(self, inst, callee: str, args: list, loc) -> None:
        tr = self.tr
        params = []
        vals = []
        for a in args:
            t = tr.il_type_of(a, loc)
            params.append(t)
            vals.append(tr.operand(a))
        rt = tr.result_type(inst)
        ret = tr.il_type(rt, loc)
        name = "F$" + re.sub(r"[^A-Za-z0-9_.]", "_", callee)
        tr.assign_result(inst, tr.fns.uninterpreted(name, tuple(params), ret, *vals))


def _const_zero(tr, v) -> bool:
    return tr.const_int(v) == 0
