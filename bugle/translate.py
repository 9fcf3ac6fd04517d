"""LLVM IR -> one-thread IL (``.gbpl``), the contract of docs/IL.md "One-thread programs".

Paper 000 (GPUVerify TOPLAS 2014) section 6.1 describes this translation; docs/design.md
section 4 the semantics kept here:
  * integers: ``iN`` -> ``bvN`` with exact operations; **``i1`` -> ``bool``** everywhere
    (registers, phis, annotation arguments), converted with ``if b then 1bvN else 0bvN``
    when used as an integer and compared with ``1bv1`` when an integer becomes ``i1``;
  * floats: ``half``/``float``/``double`` -> ``bv16``/``bv32``/``bv64``, operations
    uninterpreted (``bugle.bvops``);
  * pointers: (base, offset); the base is an array number (1.., 0 = null) kept in a
    ``$x$base: int`` variable only when Steensgaard (``bugle.steensgaard``) gives the
    pointer several possible arrays, the offset is a ``bvP`` (P = pointer width) in cells
    of the pointer's points-to class (``bugle.memory_model``); a dereference with several
    possible arrays case-splits over them and ends in ``assert {:null_pointer} false``;
  * aggregates (vectors, structs, arrays in registers): nested tuples of scalars
    (``bugle.aggregates``); their loads/stores are one access per scalar leaf;
  * ``llvm.memcpy``/``memmove``/``memset`` and OpenCL ``vloadN``/``vstoreN``: one access
    per cell (``bugle.memops``), race-checked like any access;
  * ``atomicrmw``/``cmpxchg`` and the OpenCL atomic builtins: calls of ``{:atomic}``
    procedures naming the array (``bugle.atomics``);
  * dead code: blocks unreachable from the entry (clang's ``unreachable:`` block after an
    early ``return``) are dropped; an ``unreachable`` instruction in a reachable block
    becomes ``assert {:sourceloc ...} {:unreachable} false;`` followed by ``return``;
  * control flow: one IL block per LLVM block (``$label``); a conditional branch goes to
    two edge blocks ``$src$to$dst`` that start with ``assume {:partition} c`` / ``!c`` and
    carry the phi moves as one parallel assignment; an unconditional branch carries the
    moves at the end of its block.  Dereference case splits add blocks ``$label$N``.

Errors: ``BugleError`` (exit 4) for anything not translated, naming construct and line.
"""
from __future__ import annotations

import ctypes
import re
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import llvmlite.binding as llvm
import networkx as nx

from vcgen import il
from vcgen.il.errors import ExitCode, ToolError

from . import BugleError, NotPure, irtext
from .aggregates import Aggregates, flatten, is_aggregate, leaf_types, unflatten
from .annotations import ALL as ANNOTATION_CALLS
from .annotations import HELPERS, NOOVFL_ADDS, RETURN_MARKER, STATEMENTS, UNSUPPORTED_PREFIX, Annotations
from .annotations import base_name as annotation_base
from .async_copy import AsyncCopies
from .bodiless import BodilessCalls
from .function_pointers import NULL_CALL, FunctionObjects
from .modular import FunctionEntry, find_function
from .cuda_library import CudaLibrary, inline_asm_error
from .images import Images
from .atomics import Atomics
from .builtins import CUDA_SREGS, DIMS, ID_KINDS, OPENCL_IDS, Calls, demangle_opencl, id_const
from .bvops import Functions
from .cc import INCLUDE_DIR
from .irtext import FloatT, IntT, PtrT, StructT, VectorT
from .memops import MemOps
from .memory_model import (C_SCALAR_NAMES, Array, ClassFacts, Layout, LayoutError, Ptr, c_type_name, cell_bytes,
                           constant_bytes, natural_cell, pointer_bits, scalar_leaf, source_layout,
                           space_of)
from .steensgaard import NULL, PointsTo
from .spec_functions import ACCESS_CALLS as SPEC_ACCESS_CALLS
from .spec_functions import RESULT as SPEC_RESULT
from .stored_pointers import FRESH_ARRAY, StoredPointers
from .vector_components import ComponentAccesses, component_accesses, value_users

VK = llvm.ValueKind
INT_OPS = {"add": "ADD", "sub": "SUB", "mul": "MUL", "udiv": "UDIV", "sdiv": "SDIV",
           "urem": "UREM", "srem": "SREM", "shl": "SHL", "lshr": "LSHR", "ashr": "ASHR",
           "and": "AND", "or": "OR", "xor": "XOR"}
FLOAT_OPS = {"fadd": "ADD", "fsub": "SUB", "fmul": "MUL", "fdiv": "DIV", "frem": "REM"}
CASTS_UNINTERPRETED = ("fptrunc", "fpext", "fptoui", "fptosi", "uitofp", "sitofp")
PTR_COPY = ("bitcast", "addrspacecast")
UNSUPPORTED = {"va_arg": "variadic argument access", "indirectbr": "indirect branch",
               "invoke": "invoke", "landingpad": "exception handling", "resume": "exception handling",
               "callbr": "callbr", "switch": "switch (not lowered)"}


def _sanitize(name: str) -> str:
    s = re.sub(r"[^A-Za-z0-9_.]", "_", name)
    return s if s and not s[0].isdigit() and s[0] != "." else "_" + s


def _source_name(global_name: str) -> str:
    """Source-level name of an array global: ``_ZZ9transposePfPKfiE4tile`` -> ``tile``,
    ``foo.tile`` (OpenCL kernel-scope ``__local``) -> ``tile``."""
    m = re.match(r"_ZZ.*E(\d+)([A-Za-z_]\w*)$", global_name)
    if m and len(m.group(2)) == int(m.group(1)):
        return m.group(2)
    if "." in global_name:
        return global_name.rsplit(".", 1)[1] or global_name
    return global_name


def parse_module(ir_text: str):
    """Parse IR text with llvmlite and name every value (instruction namer) and lower
    switches, so the printed text can be aligned with the walk.  ToolError(4) on bad IR."""
    try:
        mod = llvm.parse_assembly(ir_text)
        mod.verify()
    except RuntimeError as e:
        raise ToolError(f"error: invalid LLVM IR: {str(e).strip()}", ExitCode.BUGLE_ERROR) from None
    pb = llvm.create_pass_builder(None, llvm.create_pipeline_tuning_options())
    mpm = llvm.create_new_module_pass_manager()
    mpm.add_lower_switch_pass()
    mpm.add_instruction_namer_pass()
    mpm.run(mod, pb)
    return mod


def translate_ir(ir_text: str, kernel: str | None = None, source_path: str | None = None,
                 function: str | None = None, bodiless: str = "havoc") -> il.Program:
    """Translate LLVM IR text (from ``bugle cc``) into the one-thread IL program.

    ``kernel``: the kernel's source (debug-info) or LLVM name; required only when the
    module has several kernels.  ``source_path``: the file name to use in
    ``{:sourceloc}`` attributes for locations in the main source file.  ``function``:
    instead of a kernel, the entry of the modular check of this non-kernel function
    (``bugle.modular``, ``--no-inline``).  ``bodiless``: what a call to a function
    declared but not defined does, ``havoc`` or ``error`` (``bugle.bodiless``).
    Raises ToolError: BUGLE_ERROR (4) for unsupported constructs or bad IR.
    """
    mod = parse_module(ir_text)
    try:
        mt = irtext.parse_module_text(str(mod))
    except irtext.IRTextError as e:
        raise BugleError(f"cannot read the module text: {e}") from None
    if function is not None:
        fn, ft = find_function(mod, mt, function)
        return Translator(mod, mt, fn, ft, source_path, function_entry=True, bodiless=bodiless).run()
    fn, ft = _find_kernel(mod, mt, kernel)
    return Translator(mod, mt, fn, ft, source_path, bodiless=bodiless).run()


def kernel_names(ir_text: str) -> list[str]:
    """Source (debug-info) names of the kernels of a module, in module order; the LLVM
    name for a kernel without debug info.  ToolError(4) on bad IR."""
    return [name for name, _ in kernel_table(ir_text)]


def kernel_table(ir_text: str) -> list[tuple[str, str]]:
    """``[(name, LLVM name)]`` of the kernels of a module, in module order: ``name`` as
    ``kernel_names`` gives it (the source name, or the LLVM name when two kernels share
    a source name).  ToolError(4) on bad IR."""
    mod = parse_module(ir_text)
    try:
        mt = irtext.parse_module_text(str(mod))
    except irtext.IRTextError as e:
        raise BugleError(f"cannot read the module text: {e}") from None
    kernels = _kernels(mt)
    source = [k[0] for k in kernels]
    # two instantiations of one template kernel may share a source name
    return [(s if source.count(s) == 1 else llvm_name, llvm_name) for s, llvm_name, _ in kernels]


def _kernels(mt: irtext.ModuleText) -> list:
    """``[(source name, LLVM name, FunctionText)]`` of the kernel definitions."""
    kernels = []
    for name, ft in mt.functions.items():
        if ft.cconv in ("spir_kernel", "ptx_kernel", "amdgpu_kernel"):
            kernels.append((mt.subprogram_name(ft.attachment("dbg")) or name, name, ft))
    return kernels


def _find_kernel(mod, mt: irtext.ModuleText, wanted: str | None):
    kernels = _kernels(mt)
    if not kernels:
        raise BugleError("no kernel function (spir_kernel/ptx_kernel) in the module")
    if wanted is not None:
        kernels = [k for k in kernels if wanted in (k[0], k[1])]
        if not kernels:
            raise BugleError(f"no kernel named {wanted}")
    if len(kernels) > 1:
        raise BugleError("several kernels in the module; choose one with --kernel: "
                         + ", ".join(k[0] for k in kernels))
    _, lname, ft = kernels[0]
    return mod.get_function(lname), ft


class Translator:
    """Translates one kernel function; ``run()`` returns the IL program.

    Its parts (``calls``, ``aggs``, ``memops``, ``atomics``, ``asyncs``, ``images``,
    ``annots``: one module each) use only its public members:

    * emitting: ``emit``, ``marker``, ``sourceloc``, ``loc``, ``local``, ``fresh``,
      ``assign_result``, ``last_loc``, ``requires``;
    * values and types: ``operand``, ``pure_value`` (NotPure unless a pure function of
      arguments and ids), ``const_int``, ``value_type``, ``result_type``, ``il_type``,
      ``agg_vars`` (the IL variables of an aggregate result), ``constexpr``;
    * the function's shape: ``defs`` (register -> defining instruction), ``phis``
      (block -> phi moves), ``terms`` (block -> terminator), ``postdominates_entry``;
    * memory: ``pointer`` (a ``Ptr``), ``node``/``facts`` (the points-to class of a value
      and its access facts), ``access`` (case split over the arrays a pointer may point
      to), ``cell_index``, ``plus``, ``read_cells``/``write_cells`` (commands of a
      typed access at a cell index).
    """

    def __init__(self, mod, mt: irtext.ModuleText, fn, ft: irtext.FunctionText, source_path,
                 function_entry: bool = False, bodiless: str = "havoc"):
        self.mod, self.mt, self.fn, self.ft = mod, mt, fn, ft
        self.triple = mod.triple
        self.language = "cuda" if self.triple.startswith("nvptx") else "opencl"
        self.nvptx = self.triple.startswith("nvptx")
        self.P = pointer_bits(mod.data_layout)
        self.layout = Layout(self.P, mt.structs)
        self.fns = Functions()
        self.calls = Calls(self)
        self.aggs = Aggregates(self)
        self.memops = MemOps(self)
        self.atomics = Atomics(self)
        self.asyncs = AsyncCopies(self)
        self.images = Images(self)  # image arguments and builtins (bugle.images)
        self.cuda_lib = CudaLibrary(self)  # texture handles, printf, unsupported CUDA library calls
        self.annots = Annotations(self)
        self.bodiless = BodilessCalls(self, bodiless)  # functions declared but not defined
        self.fptrs = FunctionObjects(self)  # functions as pointer targets (bugle.function_pointers)
        self.sptr = StoredPointers(self)  # pointers held in memory (bugle.stored_pointers)
        self.byval: dict = {}  # argument name -> list of (param name, cell index) of its copy
        # the kernel's own file as the debug info names it (clang's -main-file-name)
        self.main_file = (mt.scope_file(_subprogram_file_ref(mt, ft)) or _cu_file(mt)
                          or mt.source_filename)
        self.source_path = source_path
        self.kname = mt.subprogram_name(ft.attachment("dbg")) or fn.name
        self.locals: dict = {}
        self.names: dict = {}
        self.used_names: set = set()
        self.pts = PointsTo()
        self.arrays: dict = {}  # object key -> Array
        self.node_facts: dict = {}
        self.requires: list = []
        self.work_dim = False
        self.undef_count = 0
        self.blocks: list = []
        self.cur_label: str | None = None
        self.cur_cmds: list = []
        self.split_count = 0
        self.last_loc: tuple | None = None
        self.written: set = set()
        self._ce: dict = {}
        self.allocas: set = set()
        self._type_cache: dict = {}
        self.kernel_arg_types = mt.string_tuple(ft.attachment("kernel_arg_type")) or []
        self.entry = FunctionEntry(self) if function_entry else None  # --no-inline check (bugle.modular)
        self.components = ComponentAccesses()
        self.users: dict[str, list] = {}  # value name -> its users (value_users), set by run()

    # ================================================================ driver
    def run(self) -> il.Program:
        self._align()
        self._check_calls_inlined()
        self._analyze_pointers()
        # vector component assignments access only their components (bugle.vector_components)
        self.users = value_users(self.walk)
        self.components = component_accesses(self.walk, self.users, self.mt, self.value_type,
                                             self.const_int, self.source_path)
        params = self._params() + self.fptrs.declare_arguments()
        if self.entry is not None:
            self.entry.prepare()
        self.annots.prescan()
        for n, (label, insts) in enumerate(self.walk):
            self._start(self._label(label))
            if n == 0 and self.entry is not None:
                self.entry.emit_entry()
            self.annots.block_start(label)
            if n == 0:
                params += self._byval_params()
                self.sptr.entry()
                self._initializer_facts()
            for inst, it in insts:
                self._inst(inst, it, label)
        self.annots.barrier_invariants.finish()
        self.blocks = self.annots.hoist_function_wide(self.blocks)
        self.requires += self.annots.axioms()
        return self._program(params + self.images.params())

    def sub_translator(self, name: str) -> "Translator":
        """A translator of the function ``name`` of the same module, ready for
        ``pure_value`` (its CFG and definitions read), sharing this one's IL functions
        (``__axiom`` bodies, ``bugle.annotations``)."""
        sub = Translator(self.mod, self.mt, self.mod.get_function(name), self.mt.functions[name],
                         self.source_path)
        sub.fns = self.fns
        sub.prepare()
        return sub

    def prepare(self) -> None:
        """Read the function's blocks, CFG and definitions (what ``run`` does first)."""
        self._align()
        self._params()

    def il_label(self, llvm_label: str) -> str:
        """The IL label of the LLVM block ``llvm_label``."""
        return self._label(llvm_label)

    def _align(self) -> None:
        """Pair llvmlite's instruction walk with the text lines (same order)."""
        self.walk = []
        text_blocks = self.ft.blocks
        blocks = list(self.fn.blocks)
        if len(blocks) != len(text_blocks):
            raise BugleError("internal: block count differs between API and module text")
        live = _reachable_blocks(blocks)
        for b, (label, lines) in zip(blocks, text_blocks):
            if b.name not in live:
                continue  # no path from the entry: dropping it is sound
            insts = list(b.instructions)
            if len(insts) != len(lines):
                raise BugleError(f"internal: instruction count differs in block {label}")
            pairs = []
            for inst, it in zip(insts, lines):
                if inst.opcode != it.opcode and not (it.opcode in ("tail", "musttail", "notail")
                                                     and inst.opcode == "call"):
                    raise BugleError(f"internal: misaligned instruction {it.line.strip()!r}")
                pairs.append((inst, it))
            self.walk.append((b.name, pairs))
        self.block_names = [name for name, _ in self.walk]

    def _check_calls_inlined(self) -> None:
        for _, pairs in self.walk:
            for inst, it in pairs:
                if inst.opcode == "call":
                    callee = list(inst.operands)[-1]
                    if callee.value_kind == VK.function and callee.name in self.mt.functions:
                        raise BugleError(f"call to {callee.name} was not inlined (recursion or "
                                         "noinline is not supported)", self.loc(it))

    # ============================================================ locations
    def loc(self, it) -> tuple[str | None, int, int] | None:
        """``(file, line, column)`` of an instruction; code inlined from our own headers
        (``make_float4``, ``__syncthreads_count`` ...) gets its call site's location."""
        md = it.dbg
        while (self.mt.location_path(md) or "").startswith(_INCLUDE_PREFIX):
            up = self.mt.inlined_at(md)
            if up is None:
                break
            md = up
        l = self.mt.location(md)
        if l is None:
            return self.last_loc
        f, line, col = l
        if self.source_path and (f is None or f == self.main_file):
            f = self.source_path
        return (f or self.source_path or self.main_file or "?", line, col)

    def sourceloc(self, loc) -> il.Attr:
        """``{:sourceloc F, L, C}`` of ``loc`` = ``(file, line, column)``; a fourth element
        ``"external"`` (an access of a specification function, ``bugle.spec_functions``)
        is kept as a fourth argument."""
        if loc is None:
            loc = (self.source_path or self.main_file or "?", 0, 0)
        return il.Attr("sourceloc", (loc[0], il.IntLit(loc[1]), il.IntLit(loc[2])) + tuple(loc[3:]))

    def marker(self, loc) -> None:
        self.emit(il.Assume(il.TRUE, (self.sourceloc(loc),)))

    # =============================================================== blocks
    def _label(self, llvm_label: str) -> str:
        return "$" + _sanitize(llvm_label)

    def _start(self, label: str) -> None:
        self.cur_label, self.cur_cmds = label, []

    def emit(self, cmd) -> None:
        self.cur_cmds.append(cmd)

    def _end(self, transfer) -> None:
        assert self.cur_label is not None  # a block is open
        self.blocks.append(il.Block(self.cur_label, tuple(self.cur_cmds), transfer))
        self.cur_label, self.cur_cmds = None, []

    # ================================================================ names
    def vname(self, llvm_name: str) -> str:
        if llvm_name not in self.names:
            base = "$" + _sanitize(llvm_name)
            n, k = base, 0
            while n in self.used_names:
                k += 1
                n = f"{base}.{k}"
            self.names[llvm_name] = n
            self.used_names.add(n)
        return self.names[llvm_name]

    def local(self, name: str, t: il.Type) -> il.Var:
        if name not in self.locals:
            self.locals[name] = il.VarDecl(name, t)
        return il.Var(name)

    # ================================================================ types
    def llvm_type(self, tref):
        s = str(tref)
        t = self._type_cache.get(s)
        if t is None:
            t = irtext.parse_type(s)[0]
            self._type_cache[s] = t
        return t

    def value_type(self, v):
        return self.llvm_type(v.type)

    def result_type(self, inst):
        return self.llvm_type(inst.type)

    def int_width(self, t) -> int:
        if not isinstance(t, IntT):
            raise BugleError(f"expected an integer type, got {t}", self.last_loc)
        return t.width

    def il_type(self, t, loc=None) -> il.Type:
        """IL type of a first-class LLVM scalar type (i1 -> bool)."""
        if isinstance(t, IntT):
            return il.BOOL if t.width == 1 else il.BvType(t.width)
        if isinstance(t, FloatT):
            if t.width not in (16, 32, 64):
                raise BugleError(f"floating-point type {t.name} is not supported", loc)
            return il.BvType(t.width)
        if is_aggregate(t) or isinstance(t, irtext.NamedT):
            raise BugleError(f"aggregate value of type {t} used as a scalar", loc)
        raise BugleError(f"values of type {t} are not supported here", loc)

    def il_type_of(self, v, loc=None) -> il.Type:
        return self.il_type(self.value_type(v), loc)

    # ======================================================= pointer analysis
    def node(self, v, it=None):
        """Points-to node of a pointer operand (registering array objects on the way)."""
        k = v.value_kind
        if k == VK.argument:
            return ("v", v.name)
        if k == VK.instruction:
            return ("v", v.name)
        if k == VK.global_variable:
            return self._global_object(v.name)
        if k == VK.function:
            return self.fptrs.object(v.name)
        if k == VK.constant_pointer_null:
            self.pts.add_object(NULL)
            return NULL
        if k == VK.constant_expr:
            obj, _ = self.constexpr(v, it)
            return obj
        if k in (VK.undef_value, VK.poison_value):
            self.pts.add_object(NULL)
            return NULL
        raise BugleError(f"unsupported pointer operand kind {k.name}", self.loc(it) if it else None)

    def _global_object(self, name: str):
        key = ("a", "global:" + name)
        if key not in self.arrays:
            g = self.mt.globals.get(name)
            if g is None:
                raise BugleError(f"unknown global @{name}")
            # only an LLVM ``constant`` that is not ``externally_initialized`` never changes:
            # the host may overwrite a CUDA __constant__ array (cudaMemcpyToSymbol)
            immutable = g.is_constant and not re.search(r"\bexternally_initialized\b", g.text)
            self._new_array(key, _source_name(name), space_of(g.addrspace, self.nvptx), g.value_type,
                            g.initializer if immutable else None)
        return key

    def _new_array(self, key, source_name: str, space: str, llvm_type, init=None) -> None:
        base = "$$" + _sanitize(source_name)
        n, k = base, 0
        taken = {a.name for a in self.arrays.values()}
        while n in taken:
            k += 1
            n = f"{base}.{k}"
        self.arrays[key] = Array(n, source_name, space, len(self.arrays) + 1, llvm_type=llvm_type,
                                 initializer=init)
        self.pts.add_object(key)

    def constexpr(self, v, it):
        """(object, byte offset) of a constant-expression pointer operand of ``it``."""
        ce = self._ce.get(_addr(v))
        if ce is None:
            raise BugleError("internal: constant expression not aligned with the text")
        return self._const_ptr(ce, it)

    def _const_ptr(self, ce, it):
        loc = self.loc(it) if it else None
        if isinstance(ce, irtext.CGlobal):
            if ce.name not in self.mt.globals and self.fptrs.is_function(ce.name):
                return self.fptrs.object(ce.name), 0
            if ce.name not in self.mt.globals:
                raise BugleError(f"pointer to function or unknown global @{ce.name}", loc)
            return self._global_object(ce.name), 0
        if isinstance(ce, irtext.CNull):
            self.pts.add_object(NULL)
            return NULL, 0
        if isinstance(ce, irtext.CCast) and ce.op in PTR_COPY:
            return self._const_ptr(ce.operand, it)
        if isinstance(ce, irtext.CCast) and ce.op == "inttoptr" and isinstance(ce.operand, irtext.CInt):
            # ``(T *)5``: no object is at a fixed address; null's base, so a use of it
            # is a possible null pointer access (paper 000 section 5.1)
            self.pts.add_object(NULL)
            return NULL, _signed(ce.operand.value, ce.operand.width)
        if isinstance(ce, irtext.CGep):
            obj, off = self._const_ptr(ce.base, it)
            consts = [c.value if isinstance(c, irtext.CInt) else None for _, c in ce.indices]
            if None in consts:
                raise BugleError("unsupported constant expression index", loc)
            try:
                steps = self.layout.gep_steps(ce.source_type, len(consts), consts)
            except LayoutError as e:
                raise BugleError(f"constant getelementptr: {e}", loc) from None
            for (kind, s), (t, c) in zip(steps, ce.indices):
                cval = _signed(c.value, c.width)
                off += s if kind == "field" else cval * s
            return obj, off
        raise BugleError(f"unsupported constant expression {ce}", loc)

    def _bind_constexprs(self, inst, it) -> None:
        ops = [o for o in inst.operands if o.value_kind == VK.constant_expr]
        if not ops:
            return
        ces = it.constexprs()
        if len(ces) != len(ops):
            raise BugleError(f"unsupported constant expression in {it.line.strip()!r}", self.loc(it))
        for o, ce in zip(ops, ces):
            self._ce[_addr(o)] = ce

    def facts(self, node) -> ClassFacts:
        return self.node_facts.setdefault(node, ClassFacts())

    def _analyze_pointers(self) -> None:
        """Steensgaard unification and per-class access facts (the pre-pass)."""
        for idx, a in enumerate(self.fn.arguments):
            if isinstance(self.value_type(a), PtrT):
                key = ("a", "arg:" + a.name)
                t = self.kernel_arg_types[idx] if idx < len(self.kernel_arg_types) else None
                byval = _byval_type(a)
                if byval is not None:  # a struct passed by value: the thread's own copy
                    self._new_array(key, a.name, "private", byval)
                    self.byval[a.name] = key
                    self.pts.unify(("v", a.name), key)
                    continue
                self._new_array(key, a.name, space_of(self.value_type(a).addrspace, self.nvptx), None)
                if t:
                    self.arrays[key].elem_type = re.sub(r"\s*\*$", "", t.replace("const ", "")).strip()
                self.pts.unify(("v", a.name), key)
        for _, pairs in self.walk:
            for inst, it in pairs:
                self._bind_constexprs(inst, it)
                self._analyze_inst(inst, it)
        self.sptr.finish()
        by_class: dict = {}
        for node, f in self.node_facts.items():
            agg = by_class.setdefault(self.pts.class_of(node), ClassFacts())
            agg.access_sizes |= f.access_sizes
            agg.steps |= f.steps
            agg.force_bytes |= f.force_bytes
            agg.copy_sizes |= f.copy_sizes
            agg.gep_sizes |= f.gep_sizes
            agg.access_types += f.access_types
        self.class_cell: dict = {}
        self.asyncs.align_cells(by_class, self._class_natural)  # both sides of a copy: one cell size
        for rep, objs in self.pts.classes().items():
            facts = by_class.get(rep, ClassFacts())
            cell = cell_bytes(facts, self._class_natural(rep))
            self.class_cell[rep] = cell
            for o in objs:
                if o in self.arrays:
                    a = self.arrays[o]
                    a.cell = cell
                    a.source_elem, a.source_dims = source_layout(a, facts, self.layout)
                    if cell > 1 and facts.access_types and (
                            a.elem_type is None or a.elem_type not in C_SCALAR_NAMES):
                        # a cell is one scalar: a struct/vector element type
                        # (``KV``, ``int4``) would misname the index unit in reports
                        sized = [t for t in facts.access_types if self.layout.size(t) == cell]
                        a.elem_type = c_type_name(sized[0]) if sized else None
                    if cell == 1:
                        a.elem_type = a.elem_type if facts.access_types and self.layout.size(
                            facts.access_types[0]) == 1 else None
        for key, a in self.arrays.items():
            if a.cell > 1 and a.elem_type is None and a.llvm_type is not None:
                a.elem_type = c_type_name(scalar_leaf(a.llvm_type, self.layout))

    def _class_natural(self, rep) -> int | None:
        """The element size the declarations of a class's arrays agree on, or None."""
        objs = self.pts.classes().get(rep, frozenset())
        naturals = [natural_cell(self.arrays[o].llvm_type, self.layout) for o in objs if o in self.arrays]
        return naturals[0] if naturals and all(n == naturals[0] for n in naturals) else None

    def _analyze_inst(self, inst, it) -> None:
        op = inst.opcode
        rt = self.result_type(inst) if op not in ("store", "br", "ret") else None
        if op == "alloca":
            self.allocas.add(inst.name)
            key = ("a", "alloca:" + inst.name)
            self._new_array(key, re.sub(r"(\.i\d*)+$", "", inst.name) or inst.name, "private",
                            it.alloca_type())
            self.pts.unify(("v", inst.name), key)
        elif op == "getelementptr":
            ops = list(inst.operands)
            base = self.node(ops[0], it)
            self.pts.unify(("v", inst.name), base)
            src = it.gep_source_type()
            consts = [self.const_int(o) for o in ops[1:]]
            try:
                steps = self.layout.gep_steps(src, len(ops) - 1, consts)
            except LayoutError as e:
                raise BugleError(f"getelementptr: {e}", self.loc(it)) from None
            f = self.facts(("v", inst.name))
            try:
                f.gep_sizes.add(self.layout.alloc_size(src))
            except LayoutError:
                pass
            total = 0
            for (kind, s), o, c in zip(steps, ops[1:], consts):
                if kind == "field":
                    total += s
                elif c is None:
                    f.steps.add(s)
                else:
                    total += _signed(c, self._width_of(o)) * s
            if total:
                f.steps.add(abs(total))
        elif op in ("phi", "select", "bitcast", "addrspacecast", "freeze") and isinstance(rt, PtrT):
            ops = list(inst.operands)
            srcs = ops[1:] if op == "select" else ops
            for o in srcs:
                self.pts.unify(("v", inst.name), self.node(o, it))
        elif op in ("load", "store"):
            ops = list(inst.operands)
            vt = rt if op == "load" else self.value_type(ops[0])
            ptr = ops[0] if op == "load" else ops[1]
            node = self.node(ptr, it)
            f = self.facts(node)
            for off, lt in self.mem_leaves(vt, self.loc(it)):
                f.access_sizes.add(self.layout.size(lt))
                f.access_types.append(lt)
                if off:
                    f.steps.add(off)
            if ptr.value_kind == VK.constant_expr:
                _, off = self.constexpr(ptr, it)
                if off:
                    f.steps.add(abs(off))
            if isinstance(vt, PtrT) and not it.is_atomic_access():
                if op == "load":
                    self.sptr.load_facts(inst, it, node)
                else:
                    self.sptr.store_facts(ops[0], node, it)
        elif op == "inttoptr":
            self.sptr.int_to_ptr_facts(inst)
        elif op == "ptrtoint":
            self.node(list(inst.operands)[0], it)
        elif op in ("atomicrmw", "cmpxchg"):
            self.atomics.facts(inst, it)
        elif op == "icmp":
            nodes = [self.node(o, it) for o in inst.operands if isinstance(self.value_type(o), PtrT)]
            if any(self.fptrs.is_object(n) for n in nodes):  # f == @F: f may point to F
                for n in nodes[1:]:
                    self.pts.unify(nodes[0], n)
        elif op == "call" and list(inst.operands)[-1].value_kind == VK.function:
            ops = list(inst.operands)
            callee = ops[-1]
            if callee.name.startswith(("llvm.memcpy", "llvm.memmove")):
                self.sptr.copy_facts(self.node(ops[0], it), self.node(ops[1], it))
            if isinstance(rt, PtrT) and self.bodiless.is_bodiless(callee) \
                    and annotation_base(callee.name) not in ANNOTATION_CALLS:
                self.bodiless.facts(inst, it)
            else:
                self.memops.facts(inst, it) or self.atomics.facts(inst, it) or self.asyncs.facts(inst, it)
        if rt is not None and isinstance(rt, PtrT) and ("v", inst.name) not in self.node_facts:
            self.pts.add_value(("v", inst.name))

    def _width_of(self, v) -> int:
        t = self.value_type(v)
        return t.width if isinstance(t, IntT) else self.P

    def cell_of(self, cls) -> int:
        return self.class_cell.get(cls, 1)

    def targets(self, cls) -> list[Any]:
        objs = self.pts.classes().get(cls, frozenset())
        if self.sptr.maybe_null(cls):  # loaded from memory that may hold any pointer
            objs = objs | {NULL}
        return sorted(objs, key=self._ident_of)

    # ============================================================== operands
    def const_int(self, v) -> int | None:
        """Unsigned value of an integer constant operand, or None."""
        if v.value_kind != VK.constant_int:
            return None
        t = self.value_type(v)
        return v.get_constant_value() % (1 << t.width)

    def operand(self, v) -> il.Expr:
        """IL expression of a non-pointer operand (a struct gives a tuple)."""
        k = v.value_kind
        if k in (VK.argument, VK.instruction):
            val = self.values.get(v.name)
            if val is None:
                raise BugleError(f"internal: value %{v.name} used before its definition", self.last_loc)
            return val
        t = self.value_type(v)
        if k == VK.constant_int:
            c = v.get_constant_value() % (1 << t.width)
            return il.BoolLit(bool(c)) if t.width == 1 else il.BvLit(c, t.width)
        if k == VK.constant_fp:
            return il.BvLit(_float_bits(v.get_constant_value(), t.width), t.width)
        if is_aggregate(t) or isinstance(t, irtext.NamedT):
            return self._aggregate_constant(v, t)
        if k in (VK.undef_value, VK.poison_value):
            return self.fresh(self.il_type(t, self.last_loc))
        raise BugleError(f"unsupported operand ({k.name} of type {t})", self.last_loc)

    def _aggregate_constant(self, v, t):
        """Nested tuple of a vector/struct/array constant operand (read from its text:
        printing one constant is cheap, unlike printing instructions)."""
        k = v.value_kind
        node: object
        if k in (VK.undef_value, VK.poison_value):
            node = irtext.CUndef(k == VK.poison_value)
        elif k == VK.constant_aggregate_zero:
            node = irtext.CZero()
        else:
            try:
                node = irtext.parse_typed_constant(str(v))
            except irtext.IRTextError as e:
                raise BugleError(f"cannot read constant: {e}", self.last_loc) from None
        return self.aggs.constant(node, t)

    def fresh(self, t: il.Type) -> il.Var:
        """A fresh havocked variable (``undef``/``poison`` values: any value)."""
        self.undef_count += 1
        v = self.local(f"$undef${self.undef_count}", t)
        self.emit(il.Havoc((v.name,)))
        return v

    def as_bool(self, v) -> il.Expr:
        e = self.operand(v)
        t = self.value_type(v)
        if isinstance(t, IntT) and t.width == 1:
            return e
        if isinstance(t, IntT):
            return il.BinOp("!=", e, il.BvLit(0, t.width))
        raise BugleError(f"expected a boolean, got {t}", self.last_loc)

    def pointer(self, v, it) -> Ptr:
        """(base, offset) of a pointer operand, offset in cells of its class."""
        k = v.value_kind
        if k == VK.instruction and v.name not in self.allocas:
            val = self.values.get(v.name)
            if val is None:
                raise BugleError(f"internal: pointer %{v.name} used before its definition", self.last_loc)
            return val
        if k == VK.constant_expr:
            obj, off = self.constexpr(v, it)
            cls = self.pts.class_of(obj)
            cell = self.cell_of(cls)
            return Ptr(self._ident(obj), il.BvLit((off // cell) % (1 << self.P), self.P), cls)
        node = self.node(v, it)
        if k in (VK.undef_value, VK.poison_value):
            return self._undefined_pointer(node)
        if k in (VK.argument, VK.instruction):
            node = ("a", ("arg:" if k == VK.argument else "alloca:") + v.name)
        cls = self.pts.class_of(node)
        if k == VK.argument and v.name in self.fptrs.args:  # a function pointer argument
            base, off = self.fptrs.args[v.name]
            return Ptr(base, off, cls)
        if k == VK.argument and self.entry is not None and v.name in self.entry.offsets:
            return Ptr(self._ident(node), self.entry.offset(v.name), cls)
        return Ptr(self._ident(node), il.BvLit(0, self.P), cls)

    def _undefined_pointer(self, node) -> Ptr:
        """An ``undef``/``poison`` pointer: any base and any offset (fresh havocked
        variables, so each thread has its own, never folded to null; DESIGN.md section
        5.2).  Its points-to class holds null (``_node``), so a dereference ends in the
        null-pointer check unless the class also holds arrays it may then access."""
        return Ptr(self.fresh(il.INT), self.fresh(il.BvType(self.P)), self.pts.class_of(node))

    def _ident(self, obj) -> il.Expr:
        return il.IntLit(self._ident_of(obj))

    def _ident_of(self, obj) -> int:
        """Base number of a points-to object: 0 null, arrays 1.., functions negative."""
        if obj == NULL:
            return 0
        if self.fptrs.is_object(obj):
            return self.fptrs.ident(obj)
        return self.arrays[obj].ident

    # ============================================================ results
    def assign_result(self, inst, e) -> None:
        """Assign an instruction's value: ``$x := e`` (tuples for struct results)."""
        if isinstance(e, tuple):
            vs = self.agg_vars(inst)
            lhs = flatten(vs)
            self.emit(il.Assign(tuple(il.VarLhs(v.name) for v in lhs), tuple(flatten(e))))
            self.values[inst.name] = vs
            return
        v = self.local(self.vname(inst.name), self.il_type(self.result_type(inst), self.last_loc))
        self.emit(il.assign(v.name, e))
        self.values[inst.name] = v

    def agg_vars(self, inst) -> tuple[Any, ...]:
        """Nested tuple of the locals ``$x$0``, ``$x$1`` ... holding an aggregate result."""
        t = self.result_type(inst)
        lts = leaf_types(t, self.layout)
        if any(isinstance(lt, PtrT) for lt in lts):
            raise BugleError(f"aggregate values containing pointers ({t}) are not supported", self.last_loc)
        base = self.vname(inst.name)
        vs = [self.local(f"{base}${k}", self.il_type(lt, self.last_loc)) for k, lt in enumerate(lts)]
        return unflatten(t, vs, self.layout)

    def _ptr_vars(self, inst) -> tuple:
        """(base var or None, offset var) names for a pointer-valued instruction."""
        cls = self.pts.class_of(("v", inst.name))
        off = self.local(self.vname(inst.name), il.BvType(self.P))
        base = None
        if len(self.targets(cls)) > 1:
            base = self.local(self.vname(inst.name) + "$base", il.INT)
        return base, off, cls

    def assign_pointer(self, inst, base_e: il.Expr, off_e: il.Expr) -> None:
        """Assign a pointer-valued instruction's (base, offset) (``bugle.bodiless``)."""
        self._assign_ptr(inst, base_e, off_e)

    def _assign_ptr(self, inst, base_e: il.Expr, off_e: il.Expr) -> None:
        base, off, cls = self._ptr_vars(inst)
        if base is not None:
            self.emit(il.Assign((il.VarLhs(base.name), il.VarLhs(off.name)), (base_e, off_e)))
            self.values[inst.name] = Ptr(base, off, cls)
        else:
            self.emit(il.assign(off.name, off_e))
            tg = self.targets(cls)
            self.values[inst.name] = Ptr(self._ident(tg[0]) if tg else il.IntLit(0), off, cls)

    # ========================================================= instructions
    def _inst(self, inst, it, label: str) -> None:
        op = inst.opcode
        loc = self.loc(it)
        self.last_loc = loc
        if self.annots.is_deferred(inst):
            return  # rebuilt inside the annotation that uses it
        if op in UNSUPPORTED:
            raise BugleError(f"unsupported {UNSUPPORTED[op]} ({op})", loc)
        if op == "ptrtoint":
            return self.sptr.ptr_to_int(inst, it)
        if op == "inttoptr":
            return self.sptr.int_to_ptr(inst, it)
        if op in ("atomicrmw", "cmpxchg"):
            self.atomics.translate(inst, it, loc)
            return
        if op in ("phi", "alloca", "fence"):
            return
        if op == "unreachable":
            # reached only if the kernel has undefined behaviour: a check, then stop
            self.marker(loc)
            self.emit(il.Assert(il.FALSE, (self.sourceloc(loc), il.Attr("unreachable"))))
            self._end(il.Return())
            return
        if op == "getelementptr":
            return self._gep(inst, it, loc)
        if op == "load":
            return self._load(inst, it, loc)
        if op == "store":
            return self._store(inst, it, loc)
        if op == "call":
            return self._call(inst, it, loc)
        if op == "br":
            return self._br(inst, label)
        if op == "ret":
            self._end(il.Return())
            return
        rt = self.result_type(inst)
        if isinstance(rt, PtrT):
            return self._ptr_inst(inst, it, loc)
        if op == "icmp" and isinstance(self.value_type(list(inst.operands)[0]), PtrT):
            return self.assign_result(inst, self._ptr_cmp(inst, it))
        if op == "extractvalue":
            return self.assign_result(inst, self.aggs.extractvalue(inst, it))
        if op == "insertvalue":
            return self.assign_result(inst, self.aggs.insertvalue(inst, it))
        if op == "extractelement":
            return self.assign_result(inst, self.aggs.extractelement(inst))
        if op == "insertelement":
            return self.assign_result(inst, self.aggs.insertelement(inst))
        if op == "shufflevector":
            return self.assign_result(inst, self.aggs.shufflevector(inst, it))
        self.assign_result(inst, self.pure(inst, it, self.operand))

    def pure(self, inst, it, opnd) -> Any:
        """Expression (or nested tuple, for vectors) of a side-effect-free instruction,
        operands via ``opnd(value)``.  Vector instructions are element-wise."""
        op = inst.opcode
        ops = list(inst.operands)
        rt = self.result_type(inst)
        types = [self.value_type(o) for o in ops]
        if op == "extractelement":
            return self.aggs.extractelement(inst, opnd)
        if op == "icmp" and isinstance(types[0], PtrT):  # in an annotation: f == F, p == q
            if any(o.value_kind not in (VK.argument, VK.function, VK.constant_pointer_null, VK.constant_expr)
                   for o in ops):
                raise NotPure("pointer comparison")
            return self._ptr_cmp(inst, it)
        if op == "bitcast" and (is_aggregate(rt) or is_aggregate(types[0])):
            return self.aggs.bitcast(inst, opnd)
        if op == "select" and is_aggregate(rt) and not isinstance(types[0], VectorT):
            return self.aggs.select(opnd(ops[0]), opnd(ops[1]), opnd(ops[2]))
        if isinstance(rt, VectorT) or any(isinstance(t, VectorT) for t in types):
            return self.aggs.lift(inst, opnd, lambda ts, args, r: self._scalar(op, it, ts, args, r))
        return self._scalar(op, it, types, [opnd(o) for o in ops], rt)

    def _scalar(self, op: str, it, types: list, args: list, rt) -> il.Expr:
        """One scalar lane of a pure instruction: operand ``types``/``args``, result ``rt``."""
        loc = self.last_loc
        fns = self.fns
        if op in INT_OPS:
            a, b = args[0], args[1]
            w = rt.width
            if w == 1:
                if op == "and":
                    return il.BinOp("&&", a, b)
                if op == "or":
                    return il.BinOp("||", a, b)
                if op in ("xor", "add", "sub"):
                    return il.BinOp("!=", a, b)
                return il.BinOp("==", fns.bv(INT_OPS[op], 1, _b2bv(a, 1), _b2bv(b, 1)), il.BvLit(1, 1))
            return fns.bv(INT_OPS[op], w, a, b)
        if op in FLOAT_OPS:
            return fns.float_op(FLOAT_OPS[op], self._fwidth(rt), args[0], args[1])
        if op == "fneg":
            return fns.float_op("NEG", self._fwidth(rt), args[0])
        if op == "icmp":
            pred = it.predicate()
            a, b = args[0], args[1]
            t = types[0]
            if isinstance(t, PtrT):
                raise BugleError("comparison of pointer vectors is not supported", loc)
            if pred in ("eq", "ne"):
                return il.BinOp("==" if pred == "eq" else "!=", a, b)
            if t.width == 1:
                a, b = _b2bv(a, 1), _b2bv(b, 1)
            return fns.bv(pred.upper(), t.width, a, b)
        if op == "fcmp":
            pred = it.predicate()
            if pred in ("true", "false"):
                return il.BoolLit(pred == "true")
            return fns.float_op(pred.upper(), self._fwidth(types[0]), args[0], args[1])
        if op in ("zext", "sext"):
            t, a = types[0], args[0]
            if t.width == 1:
                ones = (1 << rt.width) - 1 if op == "sext" else 1
                return il.IfThenElse(a, il.BvLit(ones, rt.width), il.BvLit(0, rt.width))
            return fns.extend(op == "sext", t.width, rt.width, a)
        if op == "trunc":
            a = args[0]
            if rt.width == 1:
                return il.BinOp("==", _extract(a, 1, 0), il.BvLit(1, 1))
            return _extract(a, rt.width, 0)
        if op == "bitcast":
            return args[0]
        if op in CASTS_UNINTERPRETED:
            t, a = types[0], args[0]
            fw, tw = self.layout.bits(t), self.layout.bits(rt)
            if fw == 1:
                a = _b2bv(a, 1)
            e = fns.convert(op, fw, tw, a)
            return il.BinOp("==", e, il.BvLit(1, 1)) if tw == 1 else e
        if op == "select":
            return il.IfThenElse(args[0], args[1], args[2])
        if op == "freeze":
            return args[0]
        raise BugleError(f"unsupported instruction {op}", loc)

    def _fwidth(self, t) -> int:
        if isinstance(t, FloatT) and t.width in (16, 32, 64):
            return t.width
        raise BugleError(f"unsupported floating-point type {t}", self.last_loc)

    # -------------------------------------------------------------- pointers
    def _gep(self, inst, it, loc) -> None:
        p = self.pointer(list(inst.operands)[0], it)
        self._assign_ptr(inst, p.base, self.gep_offset(inst, it, p.offset, self.operand, loc))

    def gep_offset(self, inst, it, off: il.Expr, opnd, loc) -> il.Expr:
        """The offset (cells of the result's class, bvP) of the ``getelementptr`` ``inst``
        applied to a pointer of offset ``off``; its variable indices are ``opnd(value)``."""
        ops = list(inst.operands)
        cell = self.cell_of(self.pts.class_of(("v", inst.name)))
        consts = [self.const_int(o) for o in ops[1:]]
        steps = self.layout.gep_steps(it.gep_source_type(), len(ops) - 1, consts)
        P, fns = self.P, self.fns
        const_total = 0
        for (kind, s), o, c in zip(steps, ops[1:], consts):
            if kind == "field":
                const_total += s
                continue
            if isinstance(self.value_type(o), VectorT):
                raise BugleError("vector getelementptr is not supported", loc)
            w = self.value_type(o).width
            if c is not None:
                const_total += _signed(c, w) * s
                continue
            idx = opnd(o)
            if w == 1:
                idx = _b2bv(idx, 1)
            idx = fns.extend(True, w, P, idx) if w < P else (il.BvExtract(idx, P, 0) if w > P else idx)
            stride = s // cell
            term = idx if stride == 1 else fns.bv("MUL", P, idx, il.BvLit(stride % (1 << P), P))
            off = term if off == il.BvLit(0, P) else fns.bv("ADD", P, off, term)
        if const_total:
            total = il.BvLit((const_total // cell) % (1 << P), P)
            off = total if off == il.BvLit(0, P) else fns.bv("ADD", P, off, total)
        return off

    def _ptr_inst(self, inst, it, loc) -> None:
        op = inst.opcode
        ops = list(inst.operands)
        if op in PTR_COPY or op == "freeze":
            p = self.pointer(ops[0], it)
            return self._assign_ptr(inst, p.base, p.offset)
        if op == "select":
            c = self.operand(ops[0])
            a, b = self.pointer(ops[1], it), self.pointer(ops[2], it)
            return self._assign_ptr(inst, il.ite(c, a.base, b.base), il.ite(c, a.offset, b.offset))
        raise BugleError(f"unsupported pointer instruction {op}", loc)

    def _ptr_cmp(self, inst, it) -> il.Expr:
        ops = list(inst.operands)
        a, b = self.pointer(ops[0], it), self.pointer(ops[1], it)
        pred = it.predicate()
        if pred in ("eq", "ne"):
            same = il.BinOp("&&", il.BinOp("==", a.base, b.base), il.BinOp("==", a.offset, b.offset))
            if a.cls != b.cls:  # different classes share no array: equal only if both null
                same = il.BinOp("&&", il.BinOp("==", a.base, il.IntLit(0)),
                                il.BinOp("==", b.base, il.IntLit(0)))
            return same if pred == "eq" else il.not_(same)
        if a.cls != b.cls:
            raise BugleError("ordered comparison of pointers into different arrays", self.last_loc)
        return self.fns.bv(pred.upper(), self.P, a.offset, b.offset)

    # --------------------------------------------------------------- memory
    def _load(self, inst, it, loc) -> None:
        if it.is_atomic_access():
            self.atomics.translate(inst, it, loc)
            return
        ops = list(inst.operands)
        p = self.pointer(ops[0], it)
        t = self.result_type(inst)
        if is_aggregate(t) or isinstance(t, irtext.NamedT):
            leaves = self.mem_leaves(t, loc)
            vs = self.agg_vars(inst)
            self.values[inst.name] = vs
            read = [(k, leaf, d) for k, (leaf, d) in enumerate(zip(leaves, flatten(vs)))
                    if self._lane_accessed(self.components.load_lanes.get(inst.name), k, t)]
            if not read:
                return  # a vector component assignment reads none (bugle.vector_components)

            def make(arr, idx):
                return [c for _, (off, lt), d in read
                        for c in self.read_cells(arr, self.cell_index(arr, idx, off), lt, d)]
            self.access(p, t, loc, make)
            return
        if isinstance(t, PtrT):
            return self.sptr.load(inst, p, loc)
        dest = self.local(self.vname(inst.name), self.il_type(t, loc))
        self.access(p, t, loc, lambda arr, idx: self.read_cells(arr, idx, t, dest))
        self.values[inst.name] = dest

    def _store(self, inst, it, loc) -> None:
        if it.is_atomic_access():
            self.atomics.translate(inst, it, loc)
            return
        ops = list(inst.operands)
        t = self.value_type(ops[0])
        p = self.pointer(ops[1], it)
        if isinstance(t, PtrT):
            return self.sptr.store(ops[0], p, loc, it)
        val = self.operand(ops[0])
        if is_aggregate(t) or isinstance(t, irtext.NamedT):
            leaves = self.mem_leaves(t, loc)
            lanes = self.components.store_lanes.get(id(it))
            written = [((off, lt), _b2bv(v, 8) if isinstance(lt, IntT) and lt.width == 1 else v)
                       for k, (v, (off, lt)) in enumerate(zip(flatten(val), leaves))
                       if self._lane_accessed(lanes, k, t)]

            def make(arr, idx):
                return [c for (off, lt), v in written
                        for c in self.write_cells(arr, self.cell_index(arr, idx, off), lt, v)]
            self.access(p, t, loc, make)
            return
        if isinstance(t, IntT) and t.width == 1:
            val = _b2bv(val, 8)
        self.access(p, t, loc, lambda arr, idx: self.write_cells(arr, idx, t, val))

    def _lane_accessed(self, lanes: frozenset[int] | None, k: int, t) -> bool:
        """Is leaf ``k`` of a load/store of type ``t`` accessed: always, unless
        ``bugle.vector_components`` narrowed the access to ``lanes`` of a vector whose
        leaves are its lanes."""
        if lanes is None:
            return True
        r = self.layout.resolve(t)
        if not isinstance(r, VectorT) or len(self.layout.leaves(t)) != r.count:
            return True
        return k in lanes

    def mem_leaves(self, t, loc) -> list[tuple[int, Any]]:
        """``[(byte offset, scalar type)]`` of an aggregate accessed in memory.
        BugleError for pointers in memory and bit-packed ``i1`` vectors."""
        r = self.layout.resolve(t)
        if isinstance(r, VectorT) and isinstance(r.elem, IntT) and r.elem.width == 1:
            raise BugleError(f"memory access of a boolean vector {t} is not supported", loc)
        try:
            leaves = self.layout.leaves(t)
        except LayoutError as e:
            raise BugleError(f"memory access: {e}", loc) from None
        if isinstance(r, PtrT):
            return leaves  # a pointer value (bugle.stored_pointers)
        if any(isinstance(lt, PtrT) for _, lt in leaves):
            raise BugleError(f"memory access of an aggregate holding pointers ({t}) is not supported", loc)
        return leaves

    def cell_index(self, arr: Array, idx: il.Expr, byte_off: int) -> il.Expr:
        """Cell index ``byte_off`` bytes after cell ``idx`` of ``arr`` (a whole number of
        cells by the memory model's choice)."""
        if byte_off % arr.cell:
            raise BugleError(f"internal: offset {byte_off} is not a whole cell of {arr.name}", self.last_loc)
        return self.plus(idx, byte_off // arr.cell)

    def read_cells(self, arr: Array, idx: il.Expr, t, dest: il.Var) -> list[il.Assign]:
        bits = self.layout.bits(t)
        if arr.cell > 1:
            if isinstance(t, IntT) and t.width == 1:
                tmp = self.local(dest.name + "$cell", il.BvType(8 * arr.cell))
                return [il.assign(tmp.name, il.MapSelect(il.Var(arr.name), idx)),
                        il.assign(dest.name, il.BinOp("!=", tmp, il.BvLit(0, 8 * arr.cell)))]
            return [il.assign(dest.name, il.MapSelect(il.Var(arr.name), idx))]
        n = self.layout.size(t)
        cmds, parts = [], []
        for k in range(n):
            b = self.local(f"{dest.name}$b{k}", il.BV8)
            cmds.append(il.assign(b.name, il.MapSelect(il.Var(arr.name), self.plus(idx, k))))
            parts.append(b)
        e: il.Expr = parts[-1]
        for b in reversed(parts[:-1]):
            e = il.BvConcat(e, b)
        if isinstance(t, IntT) and t.width == 1:
            e = il.BinOp("!=", e, il.BvLit(0, 8))
        elif bits < 8 * n:
            e = il.BvExtract(e, bits, 0)
        cmds.append(il.assign(dest.name, e))
        return cmds

    def write_cells(self, arr: Array, idx: il.Expr, t, val: il.Expr) -> list[il.Assign]:
        self.written.add(arr.name)
        if arr.cell > 1:
            return [il.Assign((il.MapLhs(arr.name, idx),), (val,))]
        n = self.layout.size(t)
        bits = max(self.layout.bits(t), 8)
        if bits < 8 * n:  # pad odd widths (e.g. i24) to whole bytes
            val = self.fns.extend(False, bits, 8 * n, val)
        return [il.Assign((il.MapLhs(arr.name, self.plus(idx, k)),), (_extract(val, 8 * k + 8, 8 * k),))
                for k in range(n)]

    def plus(self, idx: il.Expr, k: int) -> il.Expr:
        return idx if k == 0 else self.fns.bv("ADD", self.P, idx, il.BvLit(k, self.P))

    def access(self, p: Ptr, t, loc, make, null_check: bool = True) -> None:
        """Emit an access through ``p``: direct for one possible array, else a case split
        over the points-to set ending in ``assert {:null_pointer} false`` (nothing when
        not ``null_check``: a bodiless call given null, ``bugle.bodiless``)."""
        targets = self.targets(p.cls)
        arrays = [self.arrays[o] for o in targets if o in self.arrays]  # not null, not functions
        if not arrays and not null_check:
            return
        if len(targets) == 1 and arrays:
            for c in make(arrays[0], p.offset):
                self.marker(loc)
                self.emit(c)
            return
        self.split_count += 1
        stem = f"{self.cur_label}${self.split_count}"
        join = f"{stem}$join"
        labels = [f"{stem}${a.name[2:]}" for a in arrays] + [f"{stem}$null"]
        self._end(il.Goto(tuple(labels)))
        for a, lab in zip(arrays, labels):
            self._start(lab)
            self.emit(il.Assume(il.BinOp("==", p.base, il.IntLit(a.ident)), (il.Attr("partition"),)))
            for c in make(a, p.offset):
                self.marker(loc)
                self.emit(c)
            self._end(il.Goto((join,)))
        self._start(labels[-1])
        self.emit(il.Assume(il.and_all(il.BinOp("!=", p.base, il.IntLit(a.ident)) for a in arrays),
                            (il.Attr("partition"),)))
        if null_check:
            self.marker(loc)
            self.emit(il.Assert(il.FALSE, (self.sourceloc(loc), il.Attr("null_pointer"))))
        self._end(il.Goto((join,)))
        self._start(join)

    # ------------------------------------- for the parts (bugle.stored_pointers, async_copy)
    def start_block(self, label: str) -> None:
        """Open the IL block ``label`` (after ``end_block``): case splits of the parts."""
        self._start(label)

    def end_block(self, transfer) -> None:
        """Close the current IL block with ``transfer`` (``il.Goto``/``il.Return``)."""
        self._end(transfer)

    def new_array(self, key, source_name: str, space: str, llvm_type) -> None:
        """Declare a new array object ``key`` (a points-to object) named ``$$source_name``."""
        self._new_array(key, source_name, space, llvm_type)

    def ident(self, obj) -> il.Expr:
        """The base number (``int``) of the points-to object ``obj`` (0 for null)."""
        return self._ident(obj)

    def ptr_vars(self, inst) -> tuple[il.Var | None, il.Var, Any]:
        """(base var or None, offset var, class) holding a pointer-valued instruction."""
        return self._ptr_vars(inst)

    def assign_ptr(self, inst, base_e: il.Expr, off_e: il.Expr) -> None:
        """Assign the pointer result of ``inst``: base (int) and offset (bvP, cells)."""
        self._assign_ptr(inst, base_e, off_e)

    def const_offset_from_arg(self, v) -> tuple[str, int]:
        """(argument name, byte offset) of an argument plus constant GEPs; NotPure else."""
        return self._const_offset_from_arg(v)

    def byval_written(self) -> set[str]:
        """IL names of the by-value struct copies the kernel writes."""
        return self._byval_written()

    def kernel_loc(self) -> tuple[str, int, int]:
        """``(file, line, 0)`` of the kernel's declaration."""
        return self._kernel_loc()

    # ---------------------------------------------------------------- calls
    def _call(self, inst, it, loc) -> None:
        ops = list(inst.operands)
        callee = ops[-1]
        if callee.value_kind == VK.inline_asm:
            raise inline_asm_error(it, loc)
        if callee.value_kind != VK.function:
            raise BugleError("indirect call is not supported", loc)
        args = ops[:-1]
        if callee.name == NULL_CALL:  # an indirect call no candidate matched
            return self.fptrs.null_call(loc)
        if FRESH_ARRAY in callee.name:
            return self.sptr.requires_fresh_array(args[0], it, loc)
        if callee.name.startswith(UNSUPPORTED_PREFIX):
            what = callee.name[len(UNSUPPORTED_PREFIX):]
            name = "barrier invariants (__barrier_invariant_N)" if what == "barrier_invariant" else f"__{what}"
            raise BugleError(f"{name}: part of GPUVerify's annotation language that this verifier does not "
                             "support (README, Annotations)", loc)
        if SPEC_RESULT.match(callee.name):  # what a __spec_ function returns: arbitrary
            return self.annots.specs.result(inst, loc)
        if inst.name and inst.name in self.sptr.alias_requires:
            return  # __requires(q.p == p): the field points to p's array (bugle.stored_pointers)
        if annotation_base(callee.name) in ANNOTATION_CALLS or RETURN_MARKER.match(callee.name):
            return self._annotation_call(inst, it, callee.name, args, loc)
        if self.memops.translate(inst, it, callee.name, loc) or self.atomics.translate(inst, it, loc) \
                or self.asyncs.translate(inst, it, callee.name, args, loc) \
                or self.images.translate(inst, it, callee.name, args, loc) \
                or self.cuda_lib.translate(inst, callee.name, args, loc):
            return
        if any(isinstance(self.value_type(a), PtrT) for a in args) and not callee.name.startswith("llvm.lifetime"):
            if "atomic" in callee.name or "atom" in callee.name:
                raise BugleError(f"atomic operation {demangle_opencl(callee.name)} "
                                 f"({callee.name}) is not supported", loc)
            if self.bodiless.is_bodiless(callee):
                return self.bodiless.translate(inst, it, callee.name, args, loc)
            raise BugleError(f"call to {callee.name} with a pointer argument is not supported", loc)
        if self.result_type(inst) is not None and it.line.find("...") >= 0 and "(...)" in it.line:
            raise BugleError(f"variadic call to {callee.name} is not supported", loc)
        attrs = " ".join(a.decode() if isinstance(a, bytes) else str(a)
                         for a in self.mod.get_function(callee.name).attributes)
        self.calls.translate(inst, callee.name, args, loc, attrs)

    def _annotation_call(self, inst, it, callee: str, args: list, loc) -> None:
        base = annotation_base(callee)
        if base in STATEMENTS:
            return self.annots.statement(inst, it, callee, args, loc)
        if base in SPEC_ACCESS_CALLS:
            return self.annots.specs.access(inst, base, args, it, loc)
        if base in HELPERS:
            return self.annots.helper(inst, callee, args, loc)
        if base in NOOVFL_ADDS:
            return self.annots.noovfl_add(inst, callee, args, loc)
        if RETURN_MARKER.match(callee):
            return self.annots.return_point(inst, it, args, loc)
        if self.annots.arbitrary_query(inst):
            return
        raise BugleError(f"internal: annotation query {base} was not deferred", loc)

    def use_work_dim(self) -> il.Expr:
        self.work_dim = True
        return il.Var("work_dim")

    def pure_value(self, v) -> il.Expr:
        k = v.value_kind
        if k == VK.argument:
            if isinstance(self.value_type(v), PtrT):
                raise NotPure("pointer")
            return self.values[v.name]
        if k in (VK.constant_int, VK.constant_fp):
            return self.operand(v)
        if k != VK.instruction:
            raise NotPure(k.name)
        d = self.defs[v.name]
        inst, it = d
        if inst.opcode == "call":
            callee = list(inst.operands)[-1].name
            base = demangle_opencl(callee)
            if base in OPENCL_IDS:
                return self.calls.opencl_id(OPENCL_IDS[base], list(inst.operands)[:-1], inst, None)
            m = re.match(r"llvm\.nvvm\.read\.ptx\.sreg\.(tid|ctaid|ntid|nctaid)\.([xyz])$", callee)
            if m:
                return id_const(CUDA_SREGS[m.group(1)], DIMS.index(m.group(2)))
            e = self.images.pure_query(inst)  # get_image_width(img) ...: a parameter
            if e is not None:
                return e
            raise NotPure(f"call to {callee}")
        if inst.opcode == "phi":
            return self._phi_expr(inst)
        if inst.opcode == "load":
            return self._byval_field(inst)
        if inst.opcode in ("alloca", "getelementptr") or isinstance(self.result_type(inst), PtrT):
            raise NotPure(inst.opcode)
        return self.pure(inst, it, self.pure_value)

    def _byval_field(self, inst) -> il.Expr:
        """A load of a whole cell at a constant offset of a by-value struct argument that is
        never written: the kernel parameter holding that cell (``$s$k``)."""
        t = self.result_type(inst)
        base, off = self._const_offset_from_arg(list(inst.operands)[0])
        key = self.byval.get(base)
        if key is None:
            raise NotPure("load")
        a = self.arrays[key]
        if off % a.cell or self.layout.size(t) != a.cell or not isinstance(t, IntT) or a.name in self._byval_written():
            raise NotPure("load of a by-value struct field")
        return il.Var(f"{self.vname(base)}${off // a.cell}")

    def _const_offset_from_arg(self, v) -> tuple:
        """(argument name, byte offset) of a pointer that is an argument plus constant GEPs."""
        if v.value_kind == VK.argument:
            return v.name, 0
        if v.value_kind != VK.instruction or v.name not in self.defs:
            raise NotPure("pointer")
        inst, it = self.defs[v.name]
        ops = list(inst.operands)
        if inst.opcode in PTR_COPY:
            return self._const_offset_from_arg(ops[0])
        if inst.opcode != "getelementptr":
            raise NotPure(inst.opcode)
        consts = [self.const_int(o) for o in ops[1:]]
        if None in consts:
            raise NotPure("variable index")
        base, off = self._const_offset_from_arg(ops[0])
        for (kind, st), o, c in zip(self.layout.gep_steps(it.gep_source_type(), len(consts), consts),
                                    ops[1:], consts):
            assert c is not None  # no variable index (checked above)
            off += st if kind == "field" else _signed(c, self._width_of(o)) * st
        return base, off

    def _byval_written(self) -> set:
        """Names of by-value struct copies that the kernel writes (stores, atomics, memcpy,
        memset)."""
        out = set()
        for _, pairs in self.walk:
            for inst, _ in pairs:
                ops = list(inst.operands)
                ptr = ops[1] if inst.opcode == "store" else (
                    ops[0] if inst.opcode in ("atomicrmw", "cmpxchg") or (
                        inst.opcode == "call" and ops[-1].name.startswith("llvm.mem")) else None)
                if ptr is None or ptr.value_kind not in (VK.argument, VK.instruction):
                    continue
                for o in self.targets(self.pts.class_of(("v", ptr.name))):
                    if o in self.arrays and self.arrays[o].space == "private":
                        out.add(self.arrays[o].name)
        return out

    def _phi_expr(self, inst) -> il.Expr:
        """A phi in the acyclic prefix as a nested ``if``: picks the incoming value of the
        predecessor whose path condition holds (short-circuit ``&&``/``||`` in ``__requires``)."""
        ops = list(inst.operands)
        preds = [b.name for b in inst.incoming_blocks]
        out = None
        for pb, v in reversed(list(zip(preds, ops))):
            cond = _and(self._path_cond(pb), self._edge_cond(pb, inst.block.name))
            val = self.pure_value(v)
            out = val if out is None else il.IfThenElse(cond, val, out)
        assert out is not None  # a phi has incoming values
        return out

    def _path_cond(self, label: str, depth: int = 0) -> il.Expr:
        if depth > 50:
            raise NotPure("control flow too deep")
        if label == self.block_names[0]:
            return il.TRUE
        preds = list(self.cfg.predecessors(label))
        if not preds or any(nx.has_path(self.cfg, label, p) for p in preds):
            raise NotPure("loop")
        conds = [_and(self._path_cond(p, depth + 1), self._edge_cond(p, label)) for p in preds]
        return il.TRUE if il.TRUE in conds else il.or_all(conds)

    def _edge_cond(self, src: str, dst: str) -> il.Expr:
        inst, _ = self.terms[src]
        ops = list(inst.operands)
        if len(ops) == 1:
            return il.TRUE
        c = self.pure_value(ops[0])
        t, f = ops[2].name, ops[1].name
        if t == f:
            return il.TRUE
        return c if dst == t else il.not_(c)

    def postdominates_entry(self, label: str) -> bool:
        exits = [n for n in self.cfg if self.cfg.out_degree(n) == 0]
        g = self.cfg.copy()
        g.add_node("$exit")
        for e in exits:
            g.add_edge(e, "$exit")
        g.remove_node(label)
        return not nx.has_path(g, self.block_names[0], "$exit") if label != self.block_names[0] else True

    # ------------------------------------------------------------- branches
    def _br(self, inst, label: str) -> None:
        ops = list(inst.operands)
        if len(ops) == 1:
            dst = ops[0].name
            self._moves(label, dst)
            self._end(il.Goto((self._label(dst),)))
            return
        t, f = ops[2].name, ops[1].name
        if t == f:
            self._moves(label, t)
            self._end(il.Goto((self._label(t),)))
            return
        # a branch on an annotation query (short-circuit inside an annotation) has no
        # one-thread condition: a nondeterministic choice
        cond = None if self.annots.is_deferred(ops[0]) else self.as_bool(ops[0])
        src_label = self._label(label)
        edges = [(t, cond), (f, None if cond is None else il.not_(cond))]
        names = [f"{src_label}$to{self._label(d)}" for d, _ in edges]
        self._end(il.Goto(tuple(names)))
        for (d, c), n in zip(edges, names):
            self._start(n)
            if c is not None:
                self.emit(il.Assume(c, (il.Attr("partition"),)))
            self._moves(label, d)
            self._end(il.Goto((self._label(d),)))

    def _moves(self, src: str, dst: str) -> None:
        """Parallel assignment of the phis of ``dst`` for the edge from ``src``."""
        lhss, rhss = [], []
        for inst, it in self.phis.get(dst, ()):
            if self.annots.is_deferred(inst):
                continue
            preds = [b.name for b in inst.incoming_blocks]
            v = list(inst.operands)[preds.index(src)]
            rt = self.result_type(inst)
            if isinstance(rt, PtrT):
                base, off, cls = self._ptr_vars(inst)
                p = self.pointer(v, it)
                if base is not None:
                    lhss.append(il.VarLhs(base.name))
                    rhss.append(p.base)
                lhss.append(il.VarLhs(off.name))
                rhss.append(p.offset)
            elif is_aggregate(rt) or isinstance(rt, irtext.NamedT):
                lhss += [il.VarLhs(x.name) for x in flatten(self.values[inst.name])]
                rhss += flatten(self.operand(v))
            else:
                lhss.append(il.VarLhs(self.values[inst.name].name))
                rhss.append(self.operand(v))
        if lhss:
            self.emit(il.Assign(tuple(lhss), tuple(rhss)))

    # ============================================================== program
    def _params(self) -> list:
        """Kernel scalar parameters; also prepares phi variables, defs and the CFG."""
        self.values: dict = {}
        params = []
        self.source_params = self._source_params()
        for a in self.fn.arguments:
            t = self.value_type(a)
            if isinstance(t, PtrT):
                continue
            if isinstance(t, VectorT) and all(isinstance(x, (IntT, FloatT)) for x in leaf_types(t, self.layout)):
                params += self._vector_param(a, t)
                continue
            if isinstance(t, (StructT, VectorT)) or isinstance(t, irtext.NamedT) or isinstance(t, irtext.ArrayT):
                raise BugleError(f"kernel parameter {a.name} of aggregate type {a.type} is not supported",
                                 self._kernel_loc())
            if not isinstance(t, (IntT, FloatT)):
                raise BugleError(f"kernel parameter {a.name} of type {a.type} is not supported",
                                 self._kernel_loc())
            if self.entry is not None:  # a function's argument: arbitrary per thread
                self.values[a.name] = self.entry.scalar(a, self.il_type(t))
                continue
            n = self.vname(a.name)
            params.append((n, self.il_type(t)))
            self.values[a.name] = il.Var(n)
        self.phis: dict = {}
        self.defs: dict = {}
        self.terms: dict = {}
        self.cfg = nx.DiGraph()
        for label, pairs in self.walk:
            self.cfg.add_node(label)
            for inst, it in pairs:
                if inst.name:
                    self.defs[inst.name] = (inst, it)
                if inst.opcode == "phi":
                    self.phis.setdefault(label, []).append((inst, it))
                    rt = self.result_type(inst)
                    if isinstance(rt, PtrT):
                        base, off, cls = self._ptr_vars(inst)
                        tg = self.targets(cls)
                        self.values[inst.name] = Ptr(base if base is not None else (
                            self._ident(tg[0]) if tg else il.IntLit(0)), off, cls)
                    elif is_aggregate(rt) or isinstance(rt, irtext.NamedT):
                        self.values[inst.name] = self.agg_vars(inst)
                    else:
                        self.values[inst.name] = self.local(self.vname(inst.name), self.il_type(rt, self.loc(it)))
                if inst.opcode == "br":
                    self.terms[label] = (inst, it)
                    for o in inst.operands:
                        if o.value_kind == VK.basic_block:
                            self.cfg.add_edge(label, o.name)
        return params

    def _vector_param(self, a, t: VectorT) -> list:
        """A vector parameter (``float4 x``) passed by value: one scalar parameter
        ``$x$k`` per component (uniform, like every kernel argument), or one arbitrary
        local per component for a function's argument (modular verification)."""
        types = [self.il_type(lt) for lt in leaf_types(t, self.layout)]
        if self.entry is not None:
            self.values[a.name] = unflatten(t, list(self.entry.lanes(a, types)), self.layout)
            return []
        params = [(f"{self.vname(a.name)}${k}", ty) for k, ty in enumerate(types)]
        self.values[a.name] = unflatten(t, [il.Var(n) for n, _ in params], self.layout)
        return params

    def _kernel_loc(self) -> tuple:
        """``(file, line, 0)`` of the kernel's declaration (its DISubprogram)."""
        node = self.mt.metadata.get(self.ft.attachment("dbg"))
        line = int(node[1].get("line", "0")) if node and isinstance(node[1], dict) else 0
        return (self.source_path or self.main_file or "?", line, 0)

    def _source_params(self) -> list:
        """(source name, IL name, C type or "") per kernel parameter in source order: the
        IL name is the scalar parameter ``$n`` or, for pointers and structs passed by value,
        the array ``$$p``; the C type comes from ``kernel_arg_type`` metadata (OpenCL)."""
        out = []
        for idx, a in enumerate(self.fn.arguments):
            key = ("a", "arg:" + a.name)
            il_name = self.arrays[key].name if key in self.arrays else self.vname(a.name)
            ctype = self.kernel_arg_types[idx] if idx < len(self.kernel_arg_types) else ""
            out.append((a.name or f"arg{idx}", il_name, ctype or ""))
        return out

    def elem_count(self, a: Array) -> int | None:
        """Number of cells of an array of statically known size (a ``__local`` /
        ``__shared__`` / ``__constant`` / private array or a fixed-size global), None for
        kernel pointer arguments and zero-sized (``extern __shared__ T s[]``) arrays.
        A trailing partial cell counts as a cell."""
        if a.llvm_type is None:
            return None
        try:
            size = self.layout.alloc_size(a.llvm_type)
        except LayoutError:
            return None
        return -(-size // a.cell) if size > 0 else None

    def _byval_params(self) -> list:
        """Scalar kernel parameters ``$s$0``, ``$s$1`` ... for the cells of each struct passed
        by value (``byval``), with ``assume $$s[k] == $s$k;`` at entry: the private copy
        holds the (uniform) argument values.  Copies over ``MAX_BYVAL_CELLS`` cells start
        arbitrary instead (sound, less precise)."""
        params = []
        for aname, key in self.byval.items():
            a = self.arrays[key]
            try:
                n = self.layout.size(a.llvm_type) // a.cell
            except LayoutError:
                continue
            if n > MAX_BYVAL_CELLS:
                continue
            w = il.BvType(8 * a.cell)
            for k in range(n):
                pn = f"{self.vname(aname)}${k}"
                params.append((pn, w))
                self.emit(il.Assume(il.BinOp("==", il.MapSelect(il.Var(a.name), il.BvLit(k, self.P)),
                                             il.Var(pn))))
        return params

    def _initializer_facts(self) -> None:
        """``assume {:initializer} $$A[k] == v;`` at kernel entry for every cell of an
        immutable global with a known initializer (``__constant int A[8] = {...}``), up to
        ``MAX_INITIALIZER_CELLS`` cells: constant data are facts (issue 12).  The
        abstraction chooser does not count these assumes as uses of the array's values."""
        for a in sorted(self.arrays.values(), key=lambda x: x.ident):
            if a.initializer is None or a.llvm_type is None or a.space == "private":
                continue
            try:
                image = constant_bytes(irtext.parse_constant(a.initializer, a.llvm_type), a.llvm_type, self.layout)
            except (ValueError, LayoutError):
                continue
            if image is None or len(image) // a.cell > MAX_INITIALIZER_CELLS:
                continue
            w = 8 * a.cell
            for k in range(len(image) // a.cell):
                v = int.from_bytes(image[k * a.cell:(k + 1) * a.cell], "little")
                self.emit(il.Assume(il.BinOp("==", il.MapSelect(il.Var(a.name), il.BvLit(k, self.P)),
                                             il.BvLit(v, w)), (il.Attr("initializer"),)))

    def _program(self, params: list) -> il.Program:
        decls: list = []
        for kind in ID_KINDS:
            for d in DIMS:
                n = f"{kind}_{d}"
                decls.append(il.ConstDecl(n, il.BV32, attrs=(il.Attr(n),)))
        if self.work_dim:
            decls.append(il.ConstDecl("work_dim", il.BV32, attrs=(il.Attr("work_dim"),)))
        arrays = sorted(self.arrays.values(), key=lambda a: a.ident)
        for a in arrays:
            if a.space == "private":
                continue
            decls.append(il.VarDecl(a.name, self._map_type(a), self._array_attrs(a)))
        decls.append(il.ProcedureDecl("$bugle_barrier", (("local_fence", il.BV1), ("global_fence", il.BV1)),
                                      attrs=(il.Attr("barrier"),)))
        decls += self.atomics.decls()
        decls += self.asyncs.decls()  # async copies and waits (bugle.async_copy)
        decls += self.calls.decls()  # warp operations used (bugle.builtins)
        decls += self.fns.decls()
        private = [il.VarDecl(a.name, self._map_type(a), (il.Attr("source_name", (a.source_name,)),
                                                          il.Attr("elem_width", (il.IntLit(8 * a.cell),)))
                              + self._count_attr(a))
                   for a in arrays if a.space == "private"]
        src_file = self.source_path or self.main_file or "?"
        attrs: il.Attrs = (il.Attr("kernel"), il.Attr("source_name", (self.kname,)),
                 il.Attr("language", (self.language,)), il.Attr("source_file", (src_file,)),
                 il.Attr("source_params", tuple(x for p in self.source_params for x in p)))
        blocks = self.blocks
        if self.entry is not None:
            attrs += (il.Attr("function_entry"),)
            blocks = self.entry.wrap(blocks)
        modifies = tuple(a.name for a in arrays if a.space != "private" and a.name in self.written)
        proc = il.ProcedureDecl("$" + _sanitize(self.kname), tuple(params), (), tuple(self.requires),
                                modifies, attrs, tuple(private) + tuple(self.locals.values()),
                                tuple(blocks))
        decls.append(proc)
        return il.Program(tuple(decls))

    def map_type(self, a: Array) -> il.MapType:
        """IL map type of array ``a`` (index bvP, or an image's coordinates)."""
        return self._map_type(a)

    def _map_type(self, a: Array) -> il.MapType:
        image = self.images.map_type(a)
        if image is not None:
            return image
        return il.MapType(il.BvType(self.P), il.BvType(8 * a.cell))

    def _array_attrs(self, a: Array) -> tuple:
        image_attrs = self.images.attrs(a)
        if image_attrs is not None:
            return image_attrs
        attrs = [il.Attr("source_name", (a.source_name,)), il.Attr(a.space),
                 il.Attr("elem_width", (il.IntLit(8 * a.cell),))]
        if a.elem_type and a.cell > 1:
            attrs.append(il.Attr("elem_type", (a.elem_type,)))
        if a.source_elem:
            attrs.append(il.Attr("source_elem_bytes", (il.IntLit(a.source_elem),)))
        if a.source_dims:
            attrs.append(il.Attr("source_dims", tuple(il.IntLit(d) for d in a.source_dims)))
        return tuple(attrs) + self._count_attr(a)

    def _count_attr(self, a: Array) -> tuple:
        """``{:elem_count N}`` (cells) for arrays of known size (``--check-array-bounds``)."""
        n = self.elem_count(a)
        return (il.Attr("elem_count", (il.IntLit(n),)),) if n is not None else ()


MAX_BYVAL_CELLS = 256
MAX_INITIALIZER_CELLS = 4096
# our headers as clang names them (-include/-I with bugle.cc.INCLUDE_DIR), resolved or not
_INCLUDE_PREFIX = tuple({str(INCLUDE_DIR) + "/", str(INCLUDE_DIR.resolve()) + "/"})


def _byval_type(arg):
    """The pointee type of a ``byval(T)`` argument, or None."""
    for attr in arg.attributes:
        text = attr.decode() if isinstance(attr, bytes) else str(attr)
        if text.startswith("byval("):
            return irtext.parse_type(text[len("byval("):-1])[0]
    return None


def _reachable_blocks(blocks: list) -> set:
    """Names of the blocks reachable from the entry (successors from the terminators)."""
    g = nx.DiGraph()
    for b in blocks:
        g.add_node(b.name)
        insts = list(b.instructions)
        if insts:
            for o in insts[-1].operands:
                if o.value_kind == VK.basic_block:
                    g.add_edge(b.name, o.name)
    return nx.descendants(g, blocks[0].name) | {blocks[0].name} if blocks else set()


def _subprogram_file_ref(mt: irtext.ModuleText, ft: irtext.FunctionText) -> str | None:
    node = mt.metadata.get(ft.attachment("dbg"))
    return node[1].get("file") if node and isinstance(node[1], dict) else None


def _cu_file(mt: irtext.ModuleText) -> str | None:
    """File name of the DICompileUnit (the main source file as clang names it)."""
    for kind, f in mt.metadata.values():
        if kind == "DICompileUnit" and isinstance(f, dict):
            return mt.scope_file(f.get("file"))
    return None


def _extract(e: il.Expr, hi: int, lo: int) -> il.Expr:
    if isinstance(e, il.BvLit):
        return il.BvLit((e.value >> lo) % (1 << (hi - lo)), hi - lo)
    return il.BvExtract(e, hi, lo)


def _and(a: il.Expr, b: il.Expr) -> il.Expr:
    if a == il.TRUE:
        return b
    if b == il.TRUE:
        return a
    return il.BinOp("&&", a, b)


def _addr(v) -> int:
    """Address of the underlying LLVM value (wrappers are recreated on each access;
    constant expressions are uniqued by LLVM, so equal text means equal address)."""
    # private-ok: llvmlite exposes no identity of a value other than its C pointer
    return ctypes.cast(v._ptr, ctypes.c_void_p).value or 0


def _b2bv(e: il.Expr, w: int) -> il.Expr:
    return il.IfThenElse(e, il.BvLit(1, w), il.BvLit(0, w))


def _signed(v: int, w: int) -> int:
    return v - (1 << w) if v >= 1 << (w - 1) else v


def _float_bits(x: float, w: int) -> int:
    fmt = {16: "<e", 32: "<f", 64: "<d"}[w]
    ifmt = {16: "<H", 32: "<I", 64: "<Q"}[w]
    return struct.unpack(ifmt, struct.pack(fmt, x))[0]
