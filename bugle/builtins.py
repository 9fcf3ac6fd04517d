"""Calls: work-item functions, barriers, annotations, intrinsics and pure math builtins.

docs/design.md section 4 "Builtins" and docs/IL.md "One-thread programs":
  * OpenCL work-item functions and CUDA ``__nvvm_read_ptx_sreg_*`` reads become the id
    constants (``local_id_x``, ``group_id_y``, ``group_size_z``, ``num_groups_x``,
    ``global_offset_x``); ``get_global_id(d) = group_id*group_size + local_id +
    global_offset`` in bit-vector arithmetic (paper 000 section 2, the SDV model);
  * ``barrier(flags)`` / ``__syncthreads()`` -> ``call $bugle_barrier(LF, GF)``;
  * (annotations are ``bugle.annotations``, dispatched before this module);
  * exact LLVM integer intrinsics (min/max/abs/ctpop/ctlz/cttz, overflow arithmetic,
    scalar or element-wise on vectors), CUDA ``__mul24``/``__umul24``
    (``llvm.nvvm.mul24.*``), OpenCL ``min``/``max``/``clamp``/``abs``/``mul_hi``/
    ``popcount``/``clz``/``mul24``/``mad24`` on scalar integers;
  * CUDA ``__syncthreads_count/_and/_or`` (``llvm.nvvm.barrier.cta.red.*``,
    ``llvm.nvvm.barrier0.popc/and/or``): the barrier, then an arbitrary result (the
    reduction over the block is not modelled; the barrier is divergence-checked);
  * ``__threadfence*`` / ``mem_fence`` family: no synchronisation, ignored (sound for race
    checking: a fence orders one thread's accesses but never separates two threads');
  * ``laneid`` = linear local id mod 32, ``warpsize`` = 32;
  * warp operations (``__syncwarp``, ``__shfl*_sync``, ``__ballot/any/all_sync``): calls of
    ``$bugle_syncwarp`` / ``$bugle_shuffle`` / ``$bugle_vote`` (see ``Calls._warp_op``);
  * pure floating-point intrinsics (also the CUDA approximations ``llvm.nvvm.rsqrt.approx``,
    ``div.approx`` ...) and ``memory(none)`` external functions (OpenCL/CUDA math) ->
    uninterpreted functions; vector arguments are flattened, a vector result is one
    function per lane (LLVM intrinsics: the scalar function per lane).

The OpenCL atomic builtins (``atomic_add`` ...) are handled before this dispatch, by
``bugle.atomics``.  Everything else is a BugleError naming the callee and the source line.
"""
from __future__ import annotations

import re

from vcgen import il

from . import BugleError
from .aggregates import flatten, leaf_types, unflatten
from .irtext import VectorT

DIMS = "xyz"
UF_PREFIX = "__uninterpreted_function_"  # GPUVerify's convention for uninterpreted functions
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
    r"copysign|canonicalize|ldexp|asin|acos|atan|atan2|sinh|cosh|tanh)\.|"
    # CUDA fast-math approximations and rounding-mode variants: pure, thread-independent
    r"llvm\.nvvm\.(rsqrt|sqrt|div|rcp|ex2|lg2|sin|cos|fma|fabs|fmin|fmax|saturate|floor|ceil|"
    r"trunc|round|add|mul|f2i|i2f|d2i|i2d|f2ui|ui2f|d2ui|ui2d|f2ll|ll2f|f2ull|ull2f|d2f|f2h|h2f)\.")
# OpenCL integer builtins with an exact meaning here (scalar arguments only)
OPENCL_INT = ("min", "max", "clamp", "abs", "mul_hi", "popcount", "clz", "mul24", "mad24")
_ITANIUM_INTS = {"c": (8, True), "a": (8, True), "h": (8, False), "s": (16, True), "t": (16, False),
                 "i": (32, True), "j": (32, False), "l": (64, True), "m": (64, False)}
# Warp-level primitives (cuda.h): __syncwarp, the shuffles, the votes, their legacy forms.
_WARP_OP = re.compile(r"llvm\.nvvm\.(bar\.warp\.sync|activemask|shfl\.(?:sync\.)?(?:idx|up|down|bfly)\.(?:i32|f32)|"
                      r"vote\.(?:all|any|uni|ballot)(?:\.sync)?)$")
# IL procedures of the warp operations (docs/IL.md "Warp operations"): name -> (kind, has result)
WARP_PROCS = {"$bugle_syncwarp": ("sync", False), "$bugle_shuffle": ("shuffle", True),
              "$bugle_vote": ("vote", True)}
GRID_BARRIER = "__bugle_grid_barrier"  # bugle_cuda_cg.h: grid_group::sync()
_BARRIER_RED = re.compile(r"llvm\.nvvm\.barrier(?:\.cta\.red\.(popc|and|or)\.aligned\.all|0\.(popc|and|or))$")


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
    ``tr.sourceloc(loc)``, ``tr.int_width(t)``,
    ``tr.result_type(inst)``, ``tr.use_work_dim()``.
    """

    def __init__(self, tr):
        self.tr = tr
        self.warp_procs: set = set()  # warp procedures used (declared by decls())
        self.warp_results = 0  # result variables $warp$N made so far

    # ----------------------------------------------------------------- dispatch
    def translate(self, inst, callee: str, args: list, loc, fn_attrs: str) -> None:
        tr = self.tr
        if NO_OP_CALLS.match(callee):
            return
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
        if _BARRIER_RED.match(callee):
            # __syncthreads_count/_and/_or: a barrier whose value is left arbitrary
            self._barrier(True, True, loc)
            return tr.assign_result(inst, tr.fresh(tr.il_type(tr.result_type(inst), loc)))
        if callee in ("llvm.nvvm.read.ptx.sreg.laneid",):
            return tr.assign_result(inst, self._lane_id())
        if callee == "llvm.nvvm.read.ptx.sreg.warpsize":
            return tr.assign_result(inst, il.BvLit(32, 32))
        if _WARP_OP.match(callee):
            return self._warp_op(inst, callee, args, loc)
        if callee.startswith("llvm.nvvm.barrier") and re.match(
                r"llvm\.nvvm\.barrier(0|\.cta\.sync\.aligned\.all|\.sync)$", callee):
            if callee != "llvm.nvvm.barrier0" and not _const_zero(tr, args[0]):
                raise BugleError(f"named barrier {callee} with a non-zero id is not supported", loc)
            return self._barrier(True, True, loc)
        if callee == GRID_BARRIER:
            return self._barrier(True, True, loc, grid=True)
        if callee == "llvm.assume":
            raise BugleError("llvm.assume is not supported (it would be a silent assumption)", loc)
        if callee.startswith("llvm.") and self._int_intrinsic(inst, callee, args, loc):
            return
        if tr.language == "opencl" and base in OPENCL_INT and self._opencl_int(inst, callee, base, args, loc):
            return
        if FLOAT_INTRINSICS.match(callee) or (
                not callee.startswith("llvm.") and "memory(none)" in fn_attrs):
            return self._pure_function(inst, callee, args, loc)
        if base.startswith(UF_PREFIX):  # GPUVerify's convention: an uninterpreted function
            return self._pure_function(inst, callee, args, loc)
        if "atomic" in base or "atom" in callee:
            raise BugleError(f"atomic operation {base} is not supported", loc)
        if callee.startswith("llvm."):
            raise BugleError(f"unsupported intrinsic {callee}", loc)
        # declared but not defined: an arbitrary result (bugle.bodiless)
        return tr.bodiless.translate(inst, None, callee, args, loc)

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
        if not args:
            raise BugleError("barrier without fence flags", loc)
        flags = self.tr.const_int(args[0])
        if flags is None:
            return self._computed_barrier(args[0], loc)
        self._barrier(bool(flags & 1), self.tr.images.global_fence(flags, loc), loc)  # bugle.images

    def _computed_barrier(self, flags_v, loc) -> None:
        """``barrier(x)`` with fence flags computed at run time: the IL barrier's fence bits
        are bits 0 (``CLK_LOCAL_MEM_FENCE``) and 1 (``CLK_GLOBAL_MEM_FENCE``) of the
        thread's own ``x`` (``$bugle_barrier(x[1:0], x[2:1])``); lockstep resets a
        thread's log entries for a space only when its own bit is set (docs/IL.md
        "Barrier").  Images are fenced by bit 2, which the IL cannot tell from bit 1: a
        kernel writing images needs constant flags (BugleError)."""
        tr = self.tr
        if any(i.access != "read_only" and i.dims is not None for i in tr.images.by_key().values()):
            raise BugleError("barrier with computed fence flags in a kernel writing images is not supported", loc)
        w = tr.int_width(tr.value_type(flags_v))
        if w < 2:
            raise BugleError("barrier fence flags narrower than two bits", loc)
        f = tr.operand(flags_v)
        tr.annots.barrier_invariants.flush()
        tr.marker(loc)
        tr.emit(il.Call("$bugle_barrier", (il.BvExtract(f, 1, 0), il.BvExtract(f, 2, 1)), (), (tr.sourceloc(loc),)))

    def _barrier(self, local: bool, global_: bool, loc, grid: bool = False) -> None:
        """``call $bugle_barrier(LF, GF)``; a grid barrier (cooperative groups'
        ``this_grid().sync()``) carries ``{:grid_barrier}``: it synchronises every thread
        of the grid, not only those of one group (docs/IL.md)."""
        tr = self.tr
        tr.annots.barrier_invariants.flush()  # bugle.barrier_invariants: checked at this barrier
        tr.marker(loc)
        attrs = (tr.sourceloc(loc),) + ((il.Attr("grid_barrier"),) if grid else ())
        tr.emit(il.Call("$bugle_barrier", (il.BvLit(int(local), 1), il.BvLit(int(global_), 1)), (), attrs))

    # ------------------------------------------------------ exact intrinsics
    def _int_intrinsic(self, inst, callee: str, args: list, loc) -> bool:
        """LLVM integer intrinsics with an exact bit-vector meaning (scalar, or element-wise
        on ``<N x iW>``); False if not one."""
        tr, fns = self.tr, self.tr.fns
        m = re.match(r"llvm\.(smin|smax|umin|umax|abs|ctpop|ctlz|cttz|bswap|bitreverse)\.(v\d+)?i(\d+)$", callee)
        if m:
            op, w = m.group(1), int(m.group(3))
            if w == 1:
                raise BugleError(f"{callee} on i1 is not supported", loc)
            a = tr.operand(args[0])
            b = tr.operand(args[1]) if op in ("smin", "smax", "umin", "umax") else None
            if m.group(2):
                tr.assign_result(inst, tuple(self.int_op(op, w, a[k], b[k] if b is not None else None)
                                             for k in range(len(a))))
            else:
                tr.assign_result(inst, self.int_op(op, w, a, b))
            return True
        m = re.match(r"llvm\.nvvm\.mul24\.(i|ui)$", callee)
        if m:
            signed = m.group(1) == "i"
            a, b = (fns.extend(signed, 24, 32, il.BvExtract(tr.operand(x), 24, 0)) for x in args)
            tr.assign_result(inst, fns.bv("MUL", 32, a, b))
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

    def int_op(self, op: str, w: int, a: il.Expr, b: il.Expr | None = None) -> il.Expr:
        """Exact ``w``-bit meaning of an integer intrinsic (``smin`` ... ``bitreverse``)."""
        fns = self.tr.fns
        if op in ("smin", "smax", "umin", "umax"):
            assert b is not None  # the binary intrinsics
            cmp = {"smin": "SLT", "smax": "SGT", "umin": "ULT", "umax": "UGT"}[op]
            return il.IfThenElse(fns.bv(cmp, w, a, b), a, b)
        if op == "abs":
            return il.IfThenElse(fns.bv("SLT", w, a, il.BvLit(0, w)), fns.bv("NEG", w, a), a)
        if op == "ctpop":
            e: il.Expr = il.BvLit(0, w)
            for k in range(w):
                e = fns.bv("ADD", w, e, fns.extend(False, 1, w, il.BvExtract(a, k + 1, k)))
            return e
        if op in ("ctlz", "cttz"):
            # nested ite, highest priority (the bit nearest the counted end) outermost
            e = il.BvLit(w, w)
            for k in reversed(range(w)):
                bit = w - 1 - k if op == "ctlz" else k
                e = il.IfThenElse(il.BinOp("==", il.BvExtract(a, bit + 1, bit), il.BvLit(1, 1)),
                                  il.BvLit(k, w), e)
            return e
        if op == "bswap":
            bytes_ = [il.BvExtract(a, 8 * k + 8, 8 * k) for k in range(w // 8)]
            e = bytes_[0]
            for x in bytes_[1:]:
                e = il.BvConcat(e, x)
            return e
        if op == "bitreverse":
            bits = [il.BvExtract(a, k + 1, k) for k in range(w)]
            e = bits[0]
            for x in bits[1:]:
                e = il.BvConcat(e, x)
            return e
        raise BugleError(f"internal: integer operation {op}")

    def _opencl_int(self, inst, callee: str, base: str, args: list, loc) -> bool:
        """OpenCL integer builtins (OpenCL 1.2 section 6.12.3) on scalars and, lane by lane,
        on vectors (``min(int4, int4)`` is ``_Z3minDv4_iS_``; ``min``/``max``/``clamp``
        also take a scalar for every lane, ``_Z3minDv4_ii``); False for other argument
        types, which then stay uninterpreted."""
        tr = self.tr
        codes = callee[len(f"_Z{len(base)}{base}"):]
        m = re.match(r"Dv(\d+)_(.)", codes)
        code = m.group(2) if m else codes[:1]
        if code not in _ITANIUM_INTS:
            return False
        w, signed = _ITANIUM_INTS[code]
        types = [tr.value_type(a) for a in args]
        elem = [t.elem if isinstance(t, VectorT) else t for t in types]
        if any(t != elem[0] for t in elem) or (m and not isinstance(types[0], VectorT)):
            return False
        vals = [tr.operand(a) for a in args]
        if not m:
            e = self._int_builtin(base, w, signed, vals)
            if e is None:
                return False
            tr.assign_result(inst, e)
            return True
        if any(isinstance(t, VectorT) and t.count != types[0].count for t in types):
            return False
        lanes = []
        for k in range(types[0].count):
            e = self._int_builtin(base, w, signed, [v[k] if isinstance(t, VectorT) else v
                                                   for v, t in zip(vals, types)])
            if e is None:
                return False
            lanes.append(e)
        tr.assign_result(inst, tuple(lanes))
        return True

    def _int_builtin(self, base: str, w: int, signed: bool, xs: list) -> il.Expr | None:
        """The ``w``-bit value of one OpenCL integer builtin on scalar operands ``xs``;
        None for an arity it does not have."""
        fns = self.tr.fns
        lt, gt = ("SLT", "SGT") if signed else ("ULT", "UGT")
        if base in ("min", "max") and len(xs) == 2:
            return self.int_op(("s" if signed else "u") + base, w, xs[0], xs[1])
        if base == "clamp" and len(xs) == 3:
            lo = il.IfThenElse(fns.bv(lt, w, xs[0], xs[1]), xs[1], xs[0])
            return il.IfThenElse(fns.bv(gt, w, lo, xs[2]), xs[2], lo)
        if base == "abs" and len(xs) == 1:
            return self.int_op("abs", w, xs[0]) if signed else xs[0]
        if base == "popcount" and len(xs) == 1:
            return self.int_op("ctpop", w, xs[0])
        if base == "clz" and len(xs) == 1:
            return self.int_op("ctlz", w, xs[0])
        if base == "mul_hi" and len(xs) == 2:
            wide = fns.bv("MUL", 2 * w, fns.extend(signed, w, 2 * w, xs[0]), fns.extend(signed, w, 2 * w, xs[1]))
            return il.BvExtract(wide, 2 * w, w)
        if base in ("mul24", "mad24") and len(xs) == (2 if base == "mul24" else 3) and w == 32:
            # undefined unless both factors fit in 24 bits: then any value
            def fits(x):
                return il.BinOp("==", fns.extend(signed, 24, 32, il.BvExtract(x, 24, 0)), x)
            e = il.IfThenElse(il.BinOp("&&", fits(xs[0]), fits(xs[1])), fns.bv("MUL", 32, xs[0], xs[1]),
                              self.tr.fresh(il.BV32))
            return fns.bv("ADD", 32, e, xs[2]) if base == "mad24" else e
        return None

    # ------------------------------------------------------------ warp operations
    def _warp_op(self, inst, callee: str, args: list, loc) -> None:
        """``__syncwarp(mask)`` -> ``call $bugle_syncwarp(mask)``; a ``*_sync`` shuffle ->
        ``call r := $bugle_shuffle(mask)`` (the value of another lane: arbitrary); a ``*_sync``
        vote -> ``call r := $bugle_vote(mask)`` (bv32, the same for warp-mates voting
        together; ``any``/``all``/``uni`` give ``r != 0``).  All three are divergence-checked
        by the lock-step over the lanes of ``mask``.  ``__activemask`` and the legacy
        mask-less shuffles/votes (active lanes only, no convergence required) are arbitrary
        values, not checked."""
        tr = self.tr
        rt = tr.result_type(inst)
        if ".sync" not in callee:  # activemask, legacy shfl.* / vote.*
            return tr.assign_result(inst, tr.fresh(tr.il_type(rt, loc)))
        proc = "$bugle_syncwarp" if callee == "llvm.nvvm.bar.warp.sync" else \
            "$bugle_shuffle" if ".shfl." in callee else "$bugle_vote"
        self.warp_procs.add(proc)
        tr.marker(loc)
        out = None
        if WARP_PROCS[proc][1]:
            self.warp_results += 1
            out = tr.local(f"$warp${self.warp_results}", il.BV32)
        tr.emit(il.Call(proc, (tr.operand(args[0]),), (out.name,) if out else (), (tr.sourceloc(loc),)))
        if out is not None:
            is_bool = tr.il_type(rt, loc) == il.BOOL
            tr.assign_result(inst, il.BinOp("!=", out, il.BvLit(0, 32)) if is_bool else out)

    def decls(self) -> list[il.ProcedureDecl]:
        """Declarations of the warp procedures the kernel uses:
        ``procedure {:warp_op "sync"|"shuffle"|"vote"} $bugle_...(mask: bv32) [returns (result: bv32)];``"""
        out = []
        for name in sorted(self.warp_procs):
            kind, result = WARP_PROCS[name]
            out.append(il.ProcedureDecl(name, (("mask", il.BV32),), (("result", il.BV32),) if result else (),
                                        attrs=(il.Attr("warp_op", (kind,)),)))
        return out

    def _lane_id(self) -> il.Expr:
        """CUDA ``%laneid``: the linear thread index in the block, modulo 32."""
        fns = self.tr.fns
        x, y, z = (id_const("local_id", d) for d in range(3))
        sx, sy = id_const("group_size", 0), id_const("group_size", 1)
        linear = fns.bv("ADD", 32, x, fns.bv("MUL", 32, sx, fns.bv("ADD", 32, y, fns.bv("MUL", 32, sy, z))))
        return fns.bv("UREM", 32, linear, il.BvLit(32, 32))

    # ------------------------------------------------------ pure functions
    def _pure_function(self, inst, callee: str, args: list, loc) -> None:
        """An uninterpreted function of the (flattened) arguments.  LLVM intrinsics on
        vectors are element-wise (the scalar intrinsic per lane); any other function with
        a vector result is one function per lane of all argument components."""
        tr = self.tr
        rt = tr.result_type(inst)
        if rt is None:
            return  # a pure function without a result does nothing
        arg_types = [tr.value_type(a) for a in args]
        vals = [tr.operand(a) for a in args]
        if callee.startswith("llvm.") and any(isinstance(t, VectorT) for t in arg_types + [rt]):
            n = rt.count if isinstance(rt, VectorT) else None
            if n is None:
                raise BugleError(f"vector intrinsic {callee} is not supported", loc)
            lanes = []
            for k in range(n):
                ts = [t.elem if isinstance(t, VectorT) else t for t in arg_types]
                xs = [v[k] if isinstance(t, VectorT) else v for v, t in zip(vals, arg_types)]
                scalar = re.sub(r"\.v\d+(f\d+|i\d+)", r".\1", callee)
                lanes.append(self._uf(scalar, ts, xs, rt.elem, loc))
            return tr.assign_result(inst, tuple(lanes))
        ts = [x for t in arg_types for x in leaf_types(t, tr.layout)]
        xs = [x for v in vals for x in flatten(v)]
        rts = leaf_types(rt, tr.layout)
        if len(rts) == 1 and not isinstance(rt, (VectorT,)):
            return tr.assign_result(inst, self._uf(callee, ts, xs, rt, loc))
        parts = [self._uf(f"{callee}${k}", ts, xs, r, loc) for k, r in enumerate(rts)]
        tr.assign_result(inst, unflatten(rt, parts, tr.layout))

    def _uf(self, callee: str, types: list, vals: list, rt, loc) -> il.Expr:
        tr = self.tr
        params = tuple(tr.il_type(t, loc) for t in types)
        base = demangle_opencl(callee)
        if base.startswith(UF_PREFIX) and len(base) > len(UF_PREFIX):
            # DECLARE_UF_*(NAME, ...): the IL function NAME, which --boogie-file axioms name
            name = base[len(UF_PREFIX):]
        else:
            name = "F$" + re.sub(r"[^A-Za-z0-9_.$]", "_", callee)
        return tr.fns.uninterpreted(name, params, tr.il_type(rt, loc), *vals)


def _const_zero(tr, v) -> bool:
    return tr.const_int(v) == 0
