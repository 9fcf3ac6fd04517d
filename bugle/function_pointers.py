"""Function pointers and indirect calls.

Paper 000 (GPUVerify TOPLAS 2014) section 5.1, "Modeling Pointers": a pointer is a pair
(base, offset) whose base ranges over a finite set of objects known to the kernel, and
a use of the pointer is a case split over the possible bases, ending in an assertion
failure when none matches (null, uninitialised or an integer cast to a pointer; Table
V).  Functions are objects like arrays here: a function pointer is (base, offset) with
the base one of the functions whose address the module takes, and an indirect call
``r = (*f)(args)`` is the case split over them -- before inlining, in ``bugle cc``
(``promote_indirect_calls``), so that every candidate is inlined like a direct call::

    if (f == @F1) r = F1(args); else if (f == @F2) r = F2(args); ...
    else __bugle_function_pointer_null();   // assert {:null_pointer} false

The candidates of a call are the address-taken functions (referenced other than as the
callee of a direct call, in a function body or a global initializer) whose type is the
call's function type: a flow-insensitive over-approximation of the call's points-to
set (calling a function through a pointer of another type is undefined behaviour).
Whatever else ``f`` may hold -- null, an arbitrary kernel argument, a function pointer
moved by pointer arithmetic -- takes the last branch, reported as a possible null
pointer access.  A candidate without a body (a declared library function such as
``cos``) cannot be inlined: the call is an "Unsupported function pointer" error naming
it.

In the translator (``FunctionObjects``) a function ``@F`` used as a value is a points-to
object with its own base number (negative: never an array's, never null), so
comparisons, ``select``/``phi``, casts and pointer arithmetic on function pointers
are those of any pointer; a kernel pointer argument whose points-to class holds a
function (it is compared with one, or called) is a function pointer: its base and
offset are kernel parameters ``$f$base: int`` and ``$f$offset: bvP`` (uniform,
arbitrary, constrained by ``__requires(f == F1 | f == F2)``).
"""
from __future__ import annotations

import re

import llvmlite.binding as llvm

from vcgen import il
from vcgen.il.errors import ExitCode, ToolError

from . import BugleError, irtext
from .irtext import PtrT
from .builtins import demangle_opencl

NULL_CALL = "__bugle_function_pointer_null"
_NAME = r'(?:"(?:[^"\\]|\\.)*"|[-A-Za-z0-9_.$]+)'
_REF = re.compile(r"@(" + _NAME + r")(\()?")
_DEFINE = re.compile(r"^define\s[^@\n]*@(" + _NAME + r")\(")
_LABEL = re.compile(r"^(" + _NAME + r"):")
_INDIRECT = re.compile(r"\s(%" + _NAME + r")\(")
VK = llvm.ValueKind


def _unquote(name: str) -> str:
    return name[1:-1] if name.startswith('"') else name


def _quote(name: str) -> str:
    return name if re.fullmatch(r"[-A-Za-z0-9_.$]+", name) else f'"{name}"'


def address_taken(ir_text: str, functions: set) -> set[str]:
    """Names of the functions of ``functions`` referenced other than as the callee of a
    direct call (in bodies and global initializers; ``define``/``declare`` lines and
    metadata do not count)."""
    out: set = set()
    for line in ir_text.split("\n"):
        s = line.lstrip()
        if s.startswith(("define", "declare", "!", "attributes", ";")):
            continue
        for m in _REF.finditer(line):
            name = _unquote(m.group(1))
            if name in functions and not m.group(2):
                out.add(name)
    return out


def _indirect_calls(mod) -> dict[str, list[str]]:
    """Function name -> the function types (``float (ptr, i32)``) of its indirect calls,
    in order."""
    out: dict = {}
    for fn in mod.functions:
        if fn.is_declaration:
            continue
        sigs = []
        for b in fn.blocks:
            for inst in b.instructions:
                if inst.opcode != "call":
                    continue
                ops = list(inst.operands)
                if ops[-1].value_kind in (VK.function, VK.inline_asm):
                    continue
                sigs.append(f"{inst.type} ({', '.join(str(o.type) for o in ops[:-1])})")
        if sigs:
            out[fn.name] = sigs
    return out


def promote_indirect_calls(ir_text: str) -> str:
    """``ir_text`` (clang's module) with every indirect call replaced by the case split
    over its candidates (module docstring).  BugleError naming a candidate without a
    body; ToolError(OPT_ERROR) if the module does not parse."""
    if not _INDIRECT.search(ir_text):
        return ir_text
    try:
        mod = llvm.parse_assembly(ir_text)
    except RuntimeError as e:
        raise ToolError(f"optimizer: cannot parse IR: {e}", ExitCode.OPT_ERROR) from None
    calls = _indirect_calls(mod)
    if not calls:
        return ir_text
    types = {f.name: (str(f.global_value_type), f.is_declaration) for f in mod.functions
             if not f.name.startswith("llvm.")}
    split = _Splitter(types, address_taken(ir_text, set(types)))
    out: list = []
    body: list | None = None  # the lines of the function being read, None outside one
    for line in ir_text.split("\n"):
        if body is None:
            out.append(line)
            m = _DEFINE.match(line)
            if m and line.rstrip().endswith("{"):
                body = []
                split.start(calls.get(_unquote(m.group(1)), []))
        elif line == "}":
            out.extend(_rename_phis(body, split.renames))
            out.append(line)
            body = None
        else:
            body.extend(split.line(line))
    if body is not None:
        out.extend(body)
    text = "\n".join(out)
    if f"@{NULL_CALL}(" in text and f"declare void @{NULL_CALL}()" not in text:
        text += f"\ndeclare void @{NULL_CALL}()\n"
    return text


class _Splitter:
    """Rewrites the lines of one function after another: ``types`` maps each function
    to (its type text, is a declaration), ``taken`` the address-taken functions."""

    def __init__(self, types: dict, taken: set):
        self.types, self.taken = types, taken
        self.n = 0  # case splits made (their label stems)
        self.sigs: list = []  # function types of the function's indirect calls still ahead
        self.label = "entry"
        self.renames: dict = {}  # split block -> block holding its rest

    def start(self, sigs: list) -> None:
        self.sigs, self.label, self.renames = list(sigs), "entry", {}

    def line(self, line: str) -> list[str]:
        """The line, or the lines replacing it if it is an indirect call."""
        lm = _LABEL.match(line)
        if lm:
            self.label = lm.group(1)
        if not self.sigs or not line.startswith("  ") or " asm " in line:
            return [line]
        it = irtext.InstText(line)
        if it.opcode not in ("call", "tail", "musttail", "notail") or it.callee() is not None:
            return [line]
        sig = self.sigs.pop(0)
        cands = sorted(n for n in self.taken if self.types[n][0] == sig)
        return self._case_split(line, sig, cands)

    def _case_split(self, line: str, sig: str, cands: list) -> list:
        """The lines replacing the indirect call ``line`` (of function type ``sig``);
        the rest of its block continues in the join block."""
        bodiless = [c for c in cands if self.types[c][1]]
        if bodiless:
            name = bodiless[0]
            src = demangle_opencl(name)
            raise BugleError(f"Unsupported function pointer: an indirect call may call {src}"
                             f"{'' if src == name else f' ({name})'}, a function without a body here "
                             "(only functions defined in the kernel's source can be called through pointers)")
        self.n += 1
        stem = f"__fp{self.n}"
        m = _INDIRECT.search(line)
        if m is None:
            raise BugleError(f"cannot read the indirect call {line.strip()!r}")
        ind = line[:len(line) - len(line.lstrip())]
        res = re.match(r"\s*(%" + _NAME + r")\s*=\s*", line)
        call = line[res.end():] if res else line.strip()
        ret = sig[:sig.rfind(" (")]
        dbg = re.search(r"!dbg !\d+", line)
        join = f"{stem}.join"
        out: list = []
        incoming: list = []
        for k, c in enumerate(cands):
            is_c, then, nxt = f"%{stem}.is{k}", f"{stem}.call{k}", f"{stem}.next{k}"
            out += [f"{ind}{is_c} = icmp eq ptr {m.group(1)}, @{_quote(c)}",
                    f"{ind}br i1 {is_c}, label %{then}, label %{nxt}", f"{then}:"]
            direct = _INDIRECT.sub(lambda _m: f" @{_quote(c)}(", call, count=1)
            out.append(f"{ind}%{stem}.r{k} = {direct}" if res else f"{ind}{direct}")
            out += [f"{ind}br label %{join}", f"{nxt}:"]
            incoming.append((f"%{stem}.r{k}", then))
        none = f"{stem}.none"
        out += [f"{ind}br label %{none}", f"{none}:",
                f"{ind}call void @{NULL_CALL}(){', ' + dbg.group(0) if dbg else ''}"]
        if res:
            out.append(f"{ind}%{stem}.rnone = freeze {ret} poison")
            incoming.append((f"%{stem}.rnone", none))
        out += [f"{ind}br label %{join}", f"{join}:"]
        if res:
            pairs = ", ".join(f"[ {v}, %{b} ]" for v, b in incoming)
            out.append(f"{ind}{res.group(1)} = phi {ret} {pairs}")
        self.renames[self.label] = join  # the block's terminator now ends ``join``
        self.label = join
        return out


def _rename_phis(body: list, renames: dict) -> list:
    """Phi incoming blocks of split blocks renamed to the block holding the terminator."""
    if not renames:
        return body
    def final(lbl: str) -> str:
        while lbl in renames:
            lbl = renames[lbl]
        return lbl
    out = []
    for line in body:
        if " = phi " in line:
            line = re.sub(r"(\[\s*[^\[\]]*?,\s*%)(" + _NAME + r")(\s*\])",
                          lambda m: m.group(1) + (final(m.group(2)) if m.group(2) in renames else m.group(2))
                          + m.group(3), line)
        out.append(line)
    return out


class FunctionObjects:
    """Functions as points-to objects in the translator ``tr`` (module docstring)."""

    def __init__(self, tr):
        self.tr = tr
        self.idents: dict = {}  # object key -> base number (negative)
        self.args: dict = {}  # kernel argument name -> (base param, offset param)

    @staticmethod
    def is_object(key) -> bool:
        return isinstance(key, tuple) and len(key) == 2 and key[0] == "fn"

    def object(self, name: str):
        """The points-to object of function ``@name`` (registered on first use)."""
        key = ("fn", name)
        if key not in self.idents:
            self.idents[key] = -(len(self.idents) + 1)
            self.tr.pts.add_object(key)
        return key

    def ident(self, key) -> int:
        return self.idents[key]

    def is_function(self, name: str) -> bool:
        try:
            self.tr.mod.get_function(name)
        except NameError:
            return False
        return True

    def declare_arguments(self) -> list[tuple[str, il.Type]]:
        """Find the kernel pointer arguments whose points-to class holds a function (the
        function pointers) and give each a base and an offset: kernel parameters (returned,
        ``[(name, type)]``), or arbitrary per-thread locals in a function's modular check
        (``bugle.modular``)."""
        tr = self.tr
        params: list[tuple[str, il.Type]] = []
        classes = tr.pts.classes()
        for a in tr.fn.arguments:
            if not isinstance(tr.value_type(a), PtrT) or a.name in tr.byval:
                continue
            if not any(self.is_object(o) for o in classes.get(tr.pts.class_of(("v", a.name)), ())):
                continue
            base, off = tr.vname(a.name) + "$base", tr.vname(a.name) + "$offset"
            if tr.entry is not None:
                bv, ov = tr.local(base, il.INT), tr.local(off, il.BvType(tr.P))
                tr.entry.scalars += [bv, ov]
            else:
                bv, ov = il.Var(base), il.Var(off)
                params += [(base, il.INT), (off, il.BvType(tr.P))]
            self.args[a.name] = (bv, ov)
        return params

    def null_call(self, loc) -> None:
        """``__bugle_function_pointer_null()``: no candidate matched the pointer."""
        tr = self.tr
        tr.marker(loc)
        tr.emit(il.Assert(il.FALSE, (tr.sourceloc(loc), il.Attr("null_pointer"))))
