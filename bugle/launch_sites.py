"""Launch sizes read from the host code of a whole CUDA program (issue 13, README "Launch
sizes from the host code").

A ``.cu`` file usually launches its kernels itself: ``scale<<<n / 256, 256>>>(d, n)``.
This module compiles the file a second time, for the host (``bugle.cc.clang_command`` with ``host``:
x86-64, ``-O1`` so that constant-foldable sizes are constants), and reads every launch of
the file's kernels from that LLVM IR with llvmlite (the debug locations and nothing else
from the module text, ``bugle.irtext``):

* ``k<<<grid, block, shmem, stream>>>(args)`` is, in clang's host code, a call
  ``cudaConfigureCall(grid, block, shmem, stream)`` (``__cudaPushCallConfiguration`` with
  newer CUDA headers), a branch on its result, and the call of ``k``'s host stub
  ``__device_stub__k`` -- inlined at ``-O1``, leaving ``cudaLaunch(ptr @__device_stub__k)``.
  The launch a configuration call belongs to is the one stub launch reachable from it
  in the control-flow graph without passing another configuration call (clang puts the
  stub call in the block the call's success branch leads to, and every path to it passes
  its configuration call).
* ``cudaLaunchKernel(k, grid, block, ...)`` and ``cudaLaunchCooperativeKernel`` name the
  kernel and the sizes in one call.

In the x86-64 System V ABI a ``dim3`` (three ``unsigned int``) is passed as two
arguments: an ``i64`` holding ``x`` (bits 0..31) and ``y`` (bits 32..63), and an ``i32``
holding ``z``.  Each dimension is read on its own (``_halves`` follows ``zext``, ``shl``,
``or``, ``add`` and ``and`` with constants, the shapes SROA and instcombine leave), so
``<<<n / 256, 256>>>`` gives ``gridDim = (*, 1, 1)``.  A size that is not a compile-time
constant -- an argument, a loop variable, a ``select``, a value loaded from memory, a
constant outside ``1 .. 2^31 - 1`` (a launch that fails, or undefined behaviour folded to
an arbitrary number) -- is *symbolic* (None, ``*``): never a guessed number.

Soundness (what "the kernel's sizes" may be taken to be):

* A kernel whose host stub is used in any other way (its address stored, passed to a
  function other than a launch or one of ``NON_LAUNCHING``) may be launched where its
  sizes cannot be read: it is in ``HostLaunches.unknown`` and keeps symbolic sizes.
* A configuration call that does not lead to exactly one kernel makes every kernel's
  sizes unknown (``HostLaunches.unclear``).
* The file is taken to be the whole program: a kernel launched only from another file
  is not seen.  ``gpuverify --no-launch-inference`` turns the inference off.

Units: sizes are counts of threads per block (``block``) and of blocks per grid
(``grid``), per dimension (x, y, z).  Errors: ``host_launches`` raises ToolError
(CLANG_ERROR) when the host compile fails and ``LaunchReadError`` (a ValueError) when
the host IR does not have the shape this reader expects; ``gpuverify`` then falls back
to symbolic sizes with a warning (symbolic sizes cover every launch, so that is sound).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator

import llvmlite.binding as llvm

from vcgen.il.attributes import SourceLoc
from vcgen.il.errors import ToolError

from . import irtext
from .cc import run_clang

CONFIGURE = ("cudaConfigureCall", "__cudaPushCallConfiguration")
"""What clang calls for ``<<<grid, block, shmem, stream>>>``: (i64 grid.xy, i32 grid.z,
i64 block.xy, i32 block.z, i64 shmem, ptr stream)."""
STUB_LAUNCH = "cudaLaunch"
"""What a host stub calls with its own address to start the kernel."""
LAUNCH_BY_POINTER = ("cudaLaunchKernel", "cudaLaunchCooperativeKernel")
"""Launches naming the kernel: (ptr kernel, i64 grid.xy, i32 grid.z, i64 block.xy, i32 block.z, ...)."""
NON_LAUNCHING = ("cudaFuncGetAttributes", "cudaFuncSetAttribute", "cudaFuncSetCacheConfig",
                 "cudaFuncSetSharedMemConfig", "cudaOccupancyMaxActiveBlocksPerMultiprocessor",
                 "cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags",
                 "cudaOccupancyMaxPotentialBlockSize", "__cudaRegisterFunction")
"""Runtime functions that take a kernel's address and never launch it."""
STUB_MARK = "__device_stub__"
Dims = tuple[int | None, int | None, int | None]
"""Sizes per dimension (x, y, z); None: not a compile-time constant (symbolic, ``*``)."""
INDIRECT = ""  # the stub of a call through a pointer
MAX_SIZE = 2 ** 31 - 1  # larger sizes fail to launch (and --blockDim rejects them)
_M32 = 0xFFFFFFFF


class LaunchReadError(ValueError):
    """The host IR does not have the shape this reader expects."""


@dataclass(frozen=True)
class LaunchSite:
    """One launch of a kernel in the host code.  ``kernel``: the kernel's device-side LLVM
    (mangled) name; ``grid``/``block``: blocks per grid and threads per block per dimension
    (x, y, z), None where not a compile-time constant; ``location``: the ``<<<...>>>`` (or
    ``cudaLaunchKernel`` call), None without debug info; ``called_from``: where the host
    function holding it was inlined (the outermost call), None if it was not; ``name``:
    the kernel's source name (``scale``, ``tile<float>``) for messages."""
    kernel: str
    grid: Dims
    block: Dims
    location: SourceLoc | None = None
    called_from: SourceLoc | None = None
    name: str = ""

    def where(self) -> str:
        """``k.cu:42:3`` (``k.cu:12:5, called from k.cu:40:3`` for an inlined host function)."""
        at = str(self.location) if self.location else "an unknown line"
        return at + (f", called from {self.called_from}" if self.called_from else "")

    def flags(self) -> str:
        """The launch as ``gpuverify``/``vcgen lockstep`` flags: ``--gridDim=[*,1,1]
        --blockDim=[256,1,1]``."""
        def dims(d: Dims) -> str:
            return "[" + ",".join("*" if x is None else str(x) for x in d) + "]"
        return f"--gridDim={dims(self.grid)} --blockDim={dims(self.block)}"


@dataclass(frozen=True)
class HostLaunches:
    """Every launch of the file's host code.  ``sites`` in module order; ``unknown``:
    kernels (device LLVM names) that may be launched where their sizes cannot be read;
    ``unclear``: why no site at all can be trusted (None when they can)."""
    sites: tuple[LaunchSite, ...] = ()
    unknown: frozenset[str] = frozenset()
    unclear: str | None = None

    def configurations(self, kernel: str) -> list[tuple[Dims, Dims, tuple[LaunchSite, ...]]]:
        """The distinct configurations ``(grid, block, sites)`` ``kernel`` (device LLVM
        name) is launched with, in the order of their first site; ``[]`` when the sizes are
        not known (never launched in the file, ``unknown`` or ``unclear``): symbolic sizes."""
        if self.unclear is not None or kernel in self.unknown:
            return []
        groups: dict[tuple[Dims, Dims], list[LaunchSite]] = {}
        for s in self.sites:
            if s.kernel == kernel:
                groups.setdefault((s.grid, s.block), []).append(s)
        return [(grid, block, tuple(sites)) for (grid, block), sites in groups.items()]

    def lines(self) -> list[str]:
        """The text ``bugle launches`` prints: per site ``k.cu:42:3: scale (_Z5scalePfi):
        --gridDim=[*,1,1] --blockDim=[256,1,1]``, then a note per kernel in ``unknown``
        and a warning when ``unclear``."""
        out = [f"{s.where()}: {s.name or s.kernel} ({s.kernel}): {s.flags()}" for s in self.sites]
        out += [f"note: {k} may be launched where its sizes cannot be read (its address is taken): "
                "symbolic sizes" for k in sorted(self.unknown)]
        if self.unclear is not None:
            out.append(f"warning: {self.unclear}: no launch size can be trusted, every kernel has symbolic sizes")
        return out


def device_name(stub: str) -> str | None:
    """The device-side LLVM name of the kernel whose host stub is ``stub``; None if ``stub``
    is not a stub.  Clang names the stub of ``k`` ``__device_stub__k``, inside the mangled
    name: ``_Z26__device_stub__setupStatesPi`` is ``_Z11setupStatesPi`` (the identifier's
    length prefix shrinks by the 15 characters of the mark), ``__device_stub__k`` is
    ``k`` for an ``extern "C"`` kernel."""
    if stub.startswith(STUB_MARK):
        return stub[len(STUB_MARK):] or None
    m = re.search(r"(\d+)" + STUB_MARK, stub)
    if m is None or int(m.group(1)) <= len(STUB_MARK):
        return None
    return stub[:m.start()] + str(int(m.group(1)) - len(STUB_MARK)) + stub[m.end():]


# ------------------------------------------------------------------ reading one dim3


def _const(v: llvm.ValueRef) -> int | None:
    """The value of an integer constant operand (unsigned), else None."""
    if v.value_kind == llvm.ValueKind.constant_int:
        width = v.type.type_width
        return v.get_constant_value() & ((1 << width) - 1)
    return None


Defs = dict[str, llvm.ValueRef]
"""A function's instructions by result name (llvmlite operands do not lead to their
definitions; after the instruction namer every value has a name)."""


def _halves(v: llvm.ValueRef, defs: Defs, depth: int = 0) -> tuple[int | None, int | None]:
    """(bits 0..31, bits 32..63) of the i64 ``v``, each None when not a constant.  Exact
    for the shapes handled, None for everything else."""
    c = _const(v)
    if c is not None:
        return c & _M32, c >> 32
    inst = defs.get(v.name) if v.value_kind == llvm.ValueKind.instruction else None
    if inst is None or depth > 8:
        return None, None
    ops = list(inst.operands)
    op = inst.opcode
    if op == "zext" and ops[0].type.type_width <= 32:
        return _const(ops[0]), 0
    if op == "shl" and _const(ops[1]) == 32:
        return 0, _halves(ops[0], defs, depth + 1)[0]
    if op in ("or", "add", "and"):
        a, b = _halves(ops[0], defs, depth + 1), _halves(ops[1], defs, depth + 1)
        return {"or": _or, "add": _add, "and": _and}[op](a, b)
    return None, None


def _or(a: tuple, b: tuple) -> tuple[int | None, int | None]:
    def half(x: int | None, y: int | None) -> int | None:
        if x is not None and y is not None:
            return x | y
        return y if x == 0 else x if y == 0 else None
    return half(a[0], b[0]), half(a[1], b[1])


def _add(a: tuple, b: tuple) -> tuple[int | None, int | None]:
    (alo, ahi), (blo, bhi) = a, b
    lo = (alo + blo) & _M32 if alo is not None and blo is not None else blo if alo == 0 else alo if blo == 0 else None
    carry = (alo + blo) >> 32 if alo is not None and blo is not None else 0 if 0 in (alo, blo) else None
    if carry is None:
        return lo, None
    hi = (ahi + bhi + carry) & _M32 if ahi is not None and bhi is not None else \
        bhi if ahi == 0 and carry == 0 else ahi if bhi == 0 and carry == 0 else None
    return lo, hi


def _and(a: tuple, b: tuple) -> tuple[int | None, int | None]:
    def half(x: int | None, y: int | None) -> int | None:
        if x is not None and y is not None:
            return x & y
        return 0 if 0 in (x, y) else y if x == _M32 else x if y == _M32 else None
    return half(a[0], b[0]), half(a[1], b[1])


def _size(v: int | None) -> int | None:
    """A launch size, or None (symbolic) when unknown or not a size a launch can have."""
    return v if v is not None and 1 <= v <= MAX_SIZE else None


def read_dim3(xy: llvm.ValueRef, z: llvm.ValueRef, defs: Defs) -> Dims:
    """The (x, y, z) of a dim3 passed as (i64 x|y<<32, i32 z) in a function whose
    instructions are ``defs``; None per unknown dimension.  LaunchReadError when the
    operands do not have these types."""
    if str(xy.type) != "i64" or str(z.type) != "i32":
        raise LaunchReadError(f"a dim3 argument is passed as ({xy.type}, {z.type}), expected (i64, i32)")
    lo, hi = _halves(xy, defs)
    return _size(lo), _size(hi), _size(_const(z))


# ------------------------------------------------------------------ the module


@dataclass
class _Call:
    """A call instruction: ``index`` in its function's instruction walk, ``block`` label,
    ``callee`` name ('' when indirect), ``args`` (operands without the callee), ``dbg``."""
    index: int
    block: str
    callee: str
    args: list
    dbg: int | None


class _Function:
    """One host function: its blocks (label -> calls, successors) for the CFG walk."""

    def __init__(self, fn: llvm.ValueRef, text: irtext.FunctionText):
        self.name = fn.name
        self.calls: dict[str, list[_Call]] = {}
        self.succs: dict[str, list[str]] = {}
        self.defs: Defs = {}
        lines = text.instructions()
        k = 0
        for block, (label, _) in zip(fn.blocks, text.blocks):
            self.calls[label] = []
            for inst in block.instructions:
                if k >= len(lines) or _text_opcode(lines[k]) != inst.opcode:
                    raise LaunchReadError(f"host function {fn.name}: instruction walk and module text disagree")
                ops = list(inst.operands)
                if inst.name:
                    self.defs[inst.name] = inst
                if inst.opcode in ("call", "invoke"):
                    callee = ops[-1].name if ops[-1].value_kind == llvm.ValueKind.function else ""
                    args = ops[:-1] if inst.opcode == "call" else ops[:-3]
                    self.calls[label].append(_Call(k, label, callee, args, lines[k].dbg))
                if inst.opcode in ("br", "switch", "indirectbr", "invoke", "callbr"):
                    self.succs[label] = [o.name for o in ops if o.value_kind == llvm.ValueKind.basic_block]
                k += 1
        if k != len(lines):
            raise LaunchReadError(f"host function {fn.name}: instruction walk and module text disagree")

    def launches_after(self, call: _Call, stubs: set[str]) -> set[str]:
        """Stubs launched (called, or passed to ``cudaLaunch``) on paths from ``call`` that
        pass no other configuration call; ``INDIRECT`` among them for a call through a
        pointer (a launch of a kernel whose address escaped, or a call computing an argument
        of the launch: paths go on after it)."""
        found: set[str] = set()
        seen: set[str] = set()
        work = [(call.block, call.index)]
        while work:
            label, after = work.pop()
            stopped = False
            for c in self.calls[label]:
                if c.index <= after:
                    continue
                if not c.callee:  # a call through a pointer: maybe the launch, maybe an argument's
                    found.add(INDIRECT)
                    continue
                stub = _launched_stub(c, stubs)
                if stub is not None or c.callee in CONFIGURE:
                    if stub is not None:
                        found.add(stub)
                    stopped = True
                    break
            if stopped:
                continue
            for s in self.succs.get(label, []):
                if s not in seen:
                    seen.add(s)
                    work.append((s, -1))
        return found


def _text_opcode(line: irtext.InstText) -> str:
    """The opcode of a module-text line as llvmlite names it (``tail call`` is a call)."""
    return "call" if line.opcode in ("tail", "musttail", "notail") else line.opcode


def _launched_stub(c: _Call, stubs: set[str]) -> str | None:
    if c.callee in stubs:
        return c.callee
    if c.callee == STUB_LAUNCH and c.args and c.args[0].name in stubs:
        return c.args[0].name
    return None


def _location(mt: irtext.ModuleText, dbg: int | None) -> tuple[SourceLoc | None, SourceLoc | None]:
    """(the location of ``dbg``, the outermost call it was inlined into or None)."""
    def loc(md: int | None) -> SourceLoc | None:
        at = mt.location(md)
        return SourceLoc(at[0] or "?", at[1], at[2]) if at else None
    outer, seen = mt.inlined_at(dbg), 0
    while outer is not None and mt.inlined_at(outer) is not None and seen < 100:
        outer, seen = mt.inlined_at(outer), seen + 1
    return loc(dbg), loc(outer) if outer is not None else None


def _stub_refs(text: str, stub: str) -> int:
    """How often ``@stub`` occurs in the module text outside its own ``define`` line."""
    refs = len(re.findall(r"@" + re.escape(stub) + r"(?![-A-Za-z0-9_.$])", text))
    return refs - 1  # its definition


def _accounted(c: _Call, stubs: set[str]) -> Iterator[str]:
    """The stub references of call ``c`` that are launches or harmless: the callee, the
    kernel of ``cudaLaunch``/``cudaLaunchKernel``, any argument of a NON_LAUNCHING call."""
    if c.callee in stubs:
        yield c.callee
    for i, a in enumerate(c.args):
        if a.name in stubs and ((i == 0 and c.callee in (STUB_LAUNCH, *LAUNCH_BY_POINTER))
                                or c.callee in NON_LAUNCHING):
            yield a.name


def read_launches(host_ir: str) -> HostLaunches:
    """Every launch in the host IR text ``host_ir`` (from ``bugle.cc.run_clang`` with ``host``), the
    kernels whose launches cannot all be read, and whether any configuration call could
    not be matched (module docstring).  LaunchReadError when the IR does not parse or has
    an unexpected shape."""
    try:
        mod = llvm.parse_assembly(host_ir)
        pb = llvm.create_pass_builder(None, llvm.create_pipeline_tuning_options())
        mpm = llvm.create_new_module_pass_manager()
        mpm.add_instruction_namer_pass()  # every block a label: the CFG walk goes by labels
        mpm.run(mod, pb)
        text = str(mod)
        mt = irtext.parse_module_text(text)
    except (RuntimeError, irtext.IRTextError) as e:
        raise LaunchReadError(f"cannot read the host IR: {e}") from None
    defined = [f for f in mod.functions if not f.is_declaration]
    stubs = {f.name for f in defined if device_name(f.name) is not None}
    functions = [_Function(f, mt.functions[f.name]) for f in defined]
    sites: list[LaunchSite] = []
    unknown: set[str] = set()
    unclear: str | None = None
    accounted = {s: 0 for s in stubs}
    for fn in functions:
        for c in (c for calls in fn.calls.values() for c in calls):
            for s in _accounted(c, stubs):
                accounted[s] += 1
            loc, outer = _location(mt, c.dbg)
            if c.callee in CONFIGURE:
                if len(c.args) < 4:
                    raise LaunchReadError(f"{c.callee} with {len(c.args)} arguments, expected grid and block")
                launched = fn.launches_after(c, stubs)
                if launched == {INDIRECT}:
                    continue  # only a kernel whose address escapes can be called so: in `unknown`
                launched.discard(INDIRECT)  # beside a stub: an argument's computation
                if len(launched) != 1:
                    unclear = f"the launch configured at {loc or fn.name} starts {len(launched)} kernels"
                    continue
                stub = launched.pop()
                sites.append(LaunchSite(device_name(stub) or stub, read_dim3(c.args[0], c.args[1], fn.defs),
                                        read_dim3(c.args[2], c.args[3], fn.defs), loc, outer,
                                        _source_name(mt, stub)))
            elif c.callee in LAUNCH_BY_POINTER and len(c.args) >= 5 and c.args[0].name in stubs:
                stub = c.args[0].name
                sites.append(LaunchSite(device_name(stub) or stub, read_dim3(c.args[1], c.args[2], fn.defs),
                                        read_dim3(c.args[3], c.args[4], fn.defs), loc, outer,
                                        _source_name(mt, stub)))
    for stub in stubs:
        if _stub_refs(text, stub) > accounted[stub]:
            unknown.add(device_name(stub) or stub)  # its address escapes: launched who knows how
    sites.sort(key=lambda s: (s.location is None, s.location or SourceLoc("", 0, 0)))  # source order
    return HostLaunches(tuple(sites), frozenset(unknown), unclear)


def _source_name(mt: irtext.ModuleText, stub: str) -> str:
    """The kernel's source name: its stub's debug-info name (``tile<float>``), else ''."""
    fn = mt.functions.get(stub)
    return (mt.subprogram_name(fn.attachment("dbg")) if fn is not None else None) or ""


def host_launches(path: str, defines: tuple[str, ...] = (), includes: tuple[str, ...] = (),
                  clang_opts: tuple[str, ...] = ()) -> HostLaunches:
    """Compile the host side of the CUDA file ``path`` (same ``-D``/``-I``/clang options as
    the device side) and read its launches.  ToolError(CLANG_ERROR) with clang's first
    diagnostic line when the host compile fails; LaunchReadError (``read_launches``)."""
    try:
        ir = run_clang(path, "cuda", defines, includes, clang_opts=clang_opts, host=True)
    except ToolError as e:  # one line: the pipeline shows it in its fallback warning
        text = str(e)
        raise ToolError(next((ln for ln in text.splitlines() if "error" in ln), text[:200]), e.code) from None
    try:
        return read_launches(ir)
    except LaunchReadError:
        raise
    except (ValueError, KeyError, IndexError, AttributeError, TypeError) as e:
        # an IR shape this reader does not expect: no size can be trusted
        raise LaunchReadError(f"unexpected host IR ({type(e).__name__}: {e})") from None
