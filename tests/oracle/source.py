"""Print an oracle ``Kernel`` (``syntax``) as OpenCL C or CUDA source text.

``render(kernel) -> str`` in the kernel's language (``kernel.lang``: "opencl" or "cuda");
``launch_flags(kernel) -> list[str]`` gives the matching ``gpuverify`` flags.

Every value is ``unsigned int``: constants carry a ``u`` suffix, and a comparison or a
logical operator (type ``int`` in C) used as an arithmetic operand is cast to
``unsigned`` so that C's conversions give exactly the reference's 32-bit unsigned
arithmetic (a negative ``int`` would shift and compare signed).
"""
from __future__ import annotations

from .syntax import (COMPARE, LOGIC, Assert, Assign, Atomic, Barrier, Bin, Call, Cond, Const,
                     Decl, Eval, For, Id, If, Kernel, Load, Return, Store, Var)

DIMS = "xyz"
_OCL_ID = {"lid": "get_local_id", "gid": "get_group_id", "glob": "get_global_id",
           "lsize": "get_local_size", "ngroups": "get_num_groups"}
_CUDA_ID = {"lid": "threadIdx", "gid": "blockIdx", "lsize": "blockDim", "ngroups": "gridDim"}
_OCL_ATOMIC = {"add": "atomic_add", "or": "atomic_or", "max": "atomic_max", "xchg": "atomic_xchg"}
_CUDA_ATOMIC = {"add": "atomicAdd", "or": "atomicOr", "max": "atomicMax", "xchg": "atomicExch"}


def _sizes(dims: tuple) -> str:
    return str(dims[0]) if len(dims) == 1 else "[" + ",".join(map(str, dims)) + "]"


def launch_flags(kernel: Kernel) -> list:
    """``--local_size=.. --num_groups=..`` (OpenCL) or ``--blockDim=.. --gridDim=..`` (CUDA)."""
    la = kernel.launch
    if kernel.lang == "opencl":
        return [f"--local_size={_sizes(la.local)}", f"--num_groups={_sizes(la.groups)}"]
    return [f"--blockDim={_sizes(la.local)}", f"--gridDim={_sizes(la.groups)}"]


class _Printer:
    def __init__(self, kernel: Kernel, lang: str):
        self.k = kernel
        self.lang = lang
        self.lines: list = []

    # ------------------------------------------------------------------ expressions

    def value(self, e) -> str:
        """``e`` as an ``unsigned`` operand."""
        if isinstance(e, Bin) and (e.op in COMPARE or e.op in LOGIC):
            return f"((unsigned)({self.cond(e)}))"
        return self.expr(e)

    def cond(self, e) -> str:
        """``e`` in a boolean context (if, assert, ``&&``, ``?:``)."""
        if isinstance(e, Bin) and e.op in COMPARE:
            return f"{self.value(e.left)} {e.op} {self.value(e.right)}"
        if isinstance(e, Bin) and e.op in LOGIC:
            return f"({self.cond(e.left)}) {e.op} ({self.cond(e.right)})"
        return self.expr(e)

    def expr(self, e) -> str:
        if isinstance(e, Const):
            return f"{e.value}u"
        if isinstance(e, Var):
            return e.name
        if isinstance(e, Id):
            return self.ident(e)
        if isinstance(e, Bin):
            if e.op in COMPARE or e.op in LOGIC:
                return self.value(e)
            return f"({self.value(e.left)} {e.op} {self.value(e.right)})"
        if isinstance(e, Cond):
            return f"(({self.cond(e.cond)}) ? {self.value(e.then)} : {self.value(e.other)})"
        if isinstance(e, Load):
            return f"{e.array}[{self.value(e.index)}]"
        if isinstance(e, Call):
            return f"{e.func}({', '.join(self.value(a) for a in e.args)})"
        if isinstance(e, Atomic):
            names = _OCL_ATOMIC if self.lang == "opencl" else _CUDA_ATOMIC
            return f"{names[e.op]}(&{e.array}[{self.value(e.index)}], {self.value(e.value)})"
        raise TypeError(f"not an expression: {e!r}")

    def ident(self, e: Id) -> str:
        if self.lang == "opencl":
            return f"{_OCL_ID[e.kind]}({e.dim})"
        d = DIMS[e.dim]
        if e.kind == "glob":
            return f"(blockIdx.{d} * blockDim.{d} + threadIdx.{d})"
        return f"{_CUDA_ID[e.kind]}.{d}"

    # ------------------------------------------------------------------ statements

    def emit(self, depth: int, text: str) -> None:
        self.lines.append("  " * depth + text)

    def block(self, stmts, depth: int) -> None:
        for s in stmts:
            self.stmt(s, depth)

    def stmt(self, s, depth: int) -> None:
        if isinstance(s, Decl):
            self.emit(depth, f"unsigned {s.name} = {self.value(s.value)};")
        elif isinstance(s, Assign):
            self.emit(depth, f"{s.name} = {self.value(s.value)};")
        elif isinstance(s, Store):
            self.emit(depth, f"{s.array}[{self.value(s.index)}] = {self.value(s.value)};")
        elif isinstance(s, Eval):
            self.emit(depth, f"{self.expr(s.expr)};")
        elif isinstance(s, If):
            self.emit(depth, f"if ({self.cond(s.cond)}) {{")
            self.block(s.then, depth + 1)
            if s.other:
                self.emit(depth, "} else {")
                self.block(s.other, depth + 1)
            self.emit(depth, "}")
        elif isinstance(s, For):
            step = f"{s.var}++" if s.step == 1 else f"{s.var} += {s.step}u"
            self.emit(depth, f"for (unsigned {s.var} = 0u; {s.var} < {self.value(s.bound)}; {step}) {{")
            self.block(s.body, depth + 1)
            self.emit(depth, "}")
        elif isinstance(s, Barrier):
            self.emit(depth, self.barrier(s))
        elif isinstance(s, Assert):
            self.emit(depth, f"__assert({self.cond(s.cond)});")
        elif isinstance(s, Return):
            self.emit(depth, "return;")
        else:
            raise TypeError(f"not a statement: {s!r}")

    def barrier(self, s: Barrier) -> str:
        if self.lang == "cuda":
            return "__syncthreads();"
        flags = [f for space, f in (("local", "CLK_LOCAL_MEM_FENCE"), ("global", "CLK_GLOBAL_MEM_FENCE"))
                 if space in s.fences]
        return f"barrier({' | '.join(flags)});"

    # ------------------------------------------------------------------ declarations

    def pointer(self, space: str, name: str) -> str:
        if self.lang == "cuda":
            return f"unsigned *{name}"
        return f"{'__global' if space == 'global' else '__local'} unsigned *{name}"

    def function(self, f) -> None:
        params = ", ".join(self.pointer(kind.split(":")[1], n) if kind.startswith("ptr:") else f"unsigned {n}"
                           for n, kind in f.params)
        ret = "unsigned" if f.result is not None else "void"
        prefix = "__device__ " if self.lang == "cuda" else ""
        self.emit(0, f"{prefix}{ret} {f.name}({params}) {{")
        self.block(f.body, 1)
        if f.result is not None:
            self.emit(1, f"return {self.value(f.result)};")
        self.emit(0, "}")
        self.emit(0, "")

    def kernel(self) -> str:
        k = self.k
        for f in k.functions:
            self.function(f)
        params = []
        declared = []
        for a in k.arrays:
            if a.space == "global" or (self.lang == "opencl" and a.as_param):
                params.append(self.pointer(a.space, a.name))
            else:
                declared.append(a)
        params += [f"unsigned {n}" for n in k.scalars]
        head = "__kernel void" if self.lang == "opencl" else "__global__ void"
        self.emit(0, f"{head} {k.name}({', '.join(params)}) {{")
        for a in declared:
            q = "__local" if self.lang == "opencl" else "__shared__"
            self.emit(1, f"{q} unsigned {a.name}[{a.size}];")
        self.block(k.body, 1)
        self.emit(0, "}")
        return "\n".join(self.lines) + "\n"


def render(kernel: Kernel) -> str:
    """The kernel as OpenCL C (``kernel.lang == "opencl"``) or CUDA (``"cuda"``) source text."""
    lang = kernel.lang
    if lang not in ("opencl", "cuda"):
        raise ValueError(f"unknown language {lang!r}")
    return _Printer(kernel, lang).kernel()


def site_text(kernel: Kernel, node) -> str:
    """An access (``Load``, ``Atomic`` or ``Store``) as source text, for reports."""
    p = _Printer(kernel, kernel.lang)
    if isinstance(node, Store):
        p.stmt(node, 0)
        return p.lines[-1]
    return p.expr(node)
