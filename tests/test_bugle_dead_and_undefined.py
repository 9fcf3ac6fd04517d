"""The front end keeps every access to non-private memory (bugle.keep_accesses) and never
folds an undefined value into a constant (bugle.undefined, undef/poison in
bugle.translate): DESIGN.md sections 2.1 and 5.2, issue 9 causes 1 and 2."""
from __future__ import annotations

import subprocess
import sys
import textwrap

import llvmlite.binding as llvm
import pytest

from bugle import irtext
from bugle.cc import PASS_STAGES, compile_kernel, optimize
from bugle.keep_accesses import PointerSpaces, Space, volatile_marks
from bugle.translate import translate_ir
from bugle.undefined import MAX_LEAVES, havoc_locals
from vcgen.il.printer import program_str

SPIR = 'target datalayout = "e-p:32:32-i64:64"\ntarget triple = "spir-unknown-unknown"\n'
NVPTX = 'target datalayout = "e-i64:64-i128:128"\ntarget triple = "nvptx64-nvidia-cuda"\n'

# ------------------------------------------------------------------ pointer spaces

SPACES_IR = NVPTX + """
@s = internal addrspace(3) global [64 x i32] undef

define void @k(ptr %g, i1 %c) {
entry:
  %a = alloca i32
  %b = alloca [4 x i32]
  %shared = getelementptr i32, ptr addrspacecast (ptr addrspace(3) @s to ptr), i32 1
  %priv = getelementptr [4 x i32], ptr %b, i32 0, i32 2
  %either = select i1 %c, ptr %a, ptr %g
  %loaded = load ptr, ptr %a
  br label %loop
loop:
  %p = phi ptr [ %a, %entry ], [ %q, %loop ]
  %q = getelementptr i32, ptr %p, i32 1
  %m = phi ptr [ %priv, %entry ], [ %n, %loop ]
  %n = getelementptr i32, ptr %m, i32 1
  %x = phi ptr [ %a, %entry ], [ %y, %loop ]
  %y = select i1 %c, ptr %x, ptr null
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

define void @helper(ptr %r, ptr addrspace(5) %l, ptr addrspace(1) %gl) {
entry:
  ret void
}
"""


def _values(fn) -> dict:
    out = {a.name: a for a in fn.arguments}
    for b in fn.blocks:
        for i in b.instructions:
            if i.name:
                out[i.name] = i
    return out


def test_pointer_spaces_follow_geps_phis_and_selects():
    mod = llvm.parse_assembly(SPACES_IR)
    fn = mod.get_function("k")
    spaces = PointerSpaces(fn, "nvptx", is_kernel=True)
    v = _values(fn)
    expected = {"a": Space.PRIVATE, "b": Space.PRIVATE, "priv": Space.PRIVATE,
                "shared": Space.SHARED, "g": Space.SHARED, "either": Space.SHARED,
                "loaded": Space.UNKNOWN,
                "p": Space.PRIVATE, "q": Space.PRIVATE,  # a phi cycle over an alloca
                "m": Space.PRIVATE, "n": Space.PRIVATE,
                "x": Space.SHARED, "y": Space.SHARED}  # null joins the cycle
    assert {name: spaces.of(v[name]) for name in expected} == expected


def test_arguments_of_non_kernels_and_typed_spaces():
    mod = llvm.parse_assembly(SPACES_IR)
    fn = mod.get_function("helper")
    spaces = PointerSpaces(fn, "nvptx", is_kernel=False)
    v = _values(fn)
    assert spaces.of(v["r"]) is Space.UNKNOWN  # generic: may be a caller's private variable
    assert spaces.of(v["l"]) is Space.PRIVATE  # NVPTX local memory
    assert spaces.of(v["gl"]) is Space.SHARED
    # in SPIR, address space 0 is private and 4 generic
    spir = llvm.parse_assembly(SPIR + "define void @f(ptr %p, ptr addrspace(4) %q) {\n"
                               "entry:\n  ret void\n}\n")
    f = spir.get_function("f")
    sp = PointerSpaces(f, "spir", is_kernel=True)
    assert sp.of(_values(f)["p"]) is Space.PRIVATE and sp.of(_values(f)["q"]) is Space.SHARED


MARKS_IR = NVPTX + """
define void @k(ptr %g) {
entry:
  %a = alloca i32
  store i32 1, ptr %a
  %v = load i32, ptr %a
  %w = load i32, ptr %g
  %pp = alloca ptr
  %p = load ptr, ptr %pp
  %u = load i32, ptr %p
  store i32 %v, ptr %g
  ret void
}
"""


def test_volatile_marks_certain_only_and_all():
    mod = llvm.parse_assembly(MARKS_IR)
    # instruction indices: 0 alloca, 1 store a, 2 load a, 3 load g, 4 alloca, 5 load pp,
    # 6 load p (pointer loaded from memory: unknown), 7 store g
    assert volatile_marks(mod, "nvptx", {"k"}, certain_only=True) == {"k": {3, 7}}
    assert volatile_marks(mod, "nvptx", {"k"}, certain_only=False) == {"k": {3, 6, 7}}
    # not a kernel: %g may be a private variable of the caller
    assert volatile_marks(mod, "nvptx", set(), certain_only=True) == {}


def test_pointer_spaces_list_the_accesses_with_their_indices():
    """``PointerSpaces.accesses``: the loads and stores with their index among all the
    function's instructions (what ``volatile_marks`` marks), found in the same walk."""
    mod = llvm.parse_assembly(MARKS_IR)
    spaces = PointerSpaces(mod.get_function("k"), "nvptx", is_kernel=True)
    assert [(i, op) for i, _, op in spaces.accesses] == [
        (1, "store"), (2, "load"), (3, "load"), (5, "load"), (6, "load"), (7, "store")]
    assert [inst.opcode for _, inst, _ in spaces.accesses] == [op for _, _, op in spaces.accesses]


IMMUTABLE_IR = SPIR + """
@table = addrspace(2) constant [4 x i32] [i32 1, i32 2, i32 3, i32 4]
@data = addrspace(2) global [4 x i32] zeroinitializer

define spir_kernel void @k(i32 %i) {
entry:
  %t = getelementptr [4 x i32], ptr addrspace(2) @table, i32 0, i32 %i
  %a = load i32, ptr addrspace(2) %t
  %b = load i32, ptr addrspace(2) getelementptr ([4 x i32], ptr addrspace(2) @table, i32 0, i32 1)
  %d = getelementptr [4 x i32], ptr addrspace(2) @data, i32 0, i32 %i
  %c = load i32, ptr addrspace(2) %d
  store i32 0, ptr addrspace(2) %t
  ret void
}
"""


def test_loads_of_immutable_globals_are_not_kept():
    """A read of an IR ``constant`` global never races and is never null: LLVM may fold
    it to the initial value (the IL does not model initialisers).  A store to it is kept."""
    mod = llvm.parse_assembly(IMMUTABLE_IR)
    spaces = PointerSpaces(mod.get_function("k"), "spir", True, frozenset({"table"}))
    v = _values(mod.get_function("k"))
    assert spaces.of(v["t"]) is Space.IMMUTABLE and spaces.of(v["d"]) is Space.SHARED
    # 0 gep, 1 load table[i], 2 load table[1], 3 gep, 4 load data[i], 5 store table[i]
    assert volatile_marks(mod, "spir", {"k"}, certain_only=False) == {"k": {4, 5}}


# ------------------------------------------------------------------ text rewriting

def test_as_volatile_and_mark_volatile():
    assert irtext.InstText("  %x = load i32, ptr %p, align 4").as_volatile() == \
        "  %x = load volatile i32, ptr %p, align 4"
    assert irtext.InstText("  store i32 1, ptr %p").as_volatile() == "  store volatile i32 1, ptr %p"
    for same in ("  %x = load volatile i32, ptr %p", "  %x = load atomic i32, ptr %p monotonic, align 4"):
        assert irtext.InstText(same).as_volatile() == same
    with pytest.raises(irtext.IRTextError):
        irtext.InstText("  %x = add i32 1, 2").as_volatile()
    text = textwrap.dedent("""\
        define void @f(ptr %p, i32 %k) {
        entry:
          switch i32 %k, label %d [
            i32 0, label %a
          ], !dbg !3
        a:
          %x = load i32, ptr %p
          br label %d
        d:
          store i32 %k, ptr %p
          ret void
        }
        """)
    out = irtext.mark_volatile(text, {"f": {1, 3}})  # switch, load, br, store, ret
    assert "load volatile i32, ptr %p" in out and "store volatile i32 %k" in out
    assert out.count("volatile") == 2
    with pytest.raises(irtext.IRTextError, match="not a load or store"):
        irtext.mark_volatile(text, {"f": {2}})
    with pytest.raises(irtext.IRTextError, match="not found"):
        irtext.mark_volatile(text, {"g": {0}})


# ------------------------------------------------------------------ the pipeline

DEAD_READS_CU = """
__device__ int at(int *a, unsigned i) { return a[i]; }
__device__ void swap(int &a, int &b) { int t = a; a = b; b = t; }

__global__ void k(int *g) {
  __shared__ int tile[64];
  unsigned i = threadIdx.x;
  at(tile, i);
  int unused = g[i + 1];
  int a = 1, b = 2;
  swap(a, b);
  g[i] = a;
}
"""


def _kernel_body(ir: str) -> str:
    start = ir.index("ptx_kernel") if "ptx_kernel" in ir else ir.index("spir_kernel")
    return ir[start:ir.index("\n}\n", start)]


def test_dead_reads_survive_and_private_variables_become_registers(tmp_path):
    src = tmp_path / "k.cu"
    src.write_text(DEAD_READS_CU)
    body = _kernel_body(compile_kernel(str(src)))
    assert "alloca" not in body  # a and b (passed by reference) are registers
    assert body.count("load volatile i32") == 2  # tile[i] and g[i + 1], both unused
    assert body.count("store volatile i32 2,") == 1  # g[i] = a (a is 2 after the swap)
    assert " load i32" not in body and " store i32" not in body


def test_dead_reads_reach_the_il_as_reads(tmp_path):
    src = tmp_path / "k.cu"
    src.write_text(DEAD_READS_CU)
    text = program_str(translate_ir(compile_kernel(str(src))))
    assert text.count(":= $$tile[") == 1 and text.count(":= $$g[") == 1


def test_stop_after(tmp_path):
    src = tmp_path / "k.cu"
    src.write_text(DEAD_READS_CU)
    assert PASS_STAGES[0] == "clang" and PASS_STAGES[-1] == "verify"
    raw = compile_kernel(str(src), stop_after="clang")
    assert "__bugle.undef" not in raw and "define" in raw
    assert "freeze i32 poison" in compile_kernel(str(src), stop_after="havoc-locals")
    assert "alloca" in _kernel_body(compile_kernel(str(src), stop_after="always-inline"))
    with pytest.raises(ValueError, match="unknown pipeline stage"):
        optimize(raw, stop_after="gvn")


def test_bugle_cc_stop_after_flag(tmp_path):
    src = tmp_path / "k.cu"
    src.write_text(DEAD_READS_CU)
    r = subprocess.run([sys.executable, "-m", "bugle.cli", "cc", str(src), "--stop-after=sroa"],
                       capture_output=True, text=True)
    assert r.returncode == 0 and "load i32" in _kernel_body(r.stdout)  # not yet volatile
    r = subprocess.run([sys.executable, "-m", "bugle.cli", "cc", str(src), "--stop-after=gvn"],
                       capture_output=True, text=True)
    assert r.returncode == 1 and "gvn" in r.stderr  # a command-line error


# ------------------------------------------------------------------ undefined values

HAVOC_IR = SPIR + """
%struct.P = type { i8, i32, ptr addrspace(1) }

define void @f() {
entry:
  %x = alloca i32, align 4
  %s = alloca %struct.P, align 4
  %big = alloca [64 x float], align 4
  %n = alloca i32, i32 7, align 4
  %v = alloca <4 x float>, align 16
  call void @llvm.lifetime.start.p0(ptr %x)
  ret void
}

declare void @llvm.lifetime.start.p0(ptr)
"""


def test_havoc_locals_initialises_each_leaf():
    out = havoc_locals(HAVOC_IR)
    lines = [l.strip() for l in out.splitlines()]
    first = lines.index("%v = alloca <4 x float>, align 16") + 1  # after the last alloca
    inits = lines[first:lines.index("call void @llvm.lifetime.start.p0(ptr %x)")]
    assert inits == [
        "%__bugle.undef.1 = freeze i32 poison", "store i32 %__bugle.undef.1, ptr %x",
        "%__bugle.undef.2 = freeze i8 poison", "store i8 %__bugle.undef.2, ptr %s",
        "%__bugle.undef.3 = freeze i32 poison",
        "%__bugle.undef.3.at = getelementptr inbounds i8, ptr %s, i64 4",
        "store i32 %__bugle.undef.3, ptr %__bugle.undef.3.at",
        "%__bugle.undef.4 = freeze ptr addrspace(1) poison",
        "%__bugle.undef.4.at = getelementptr inbounds i8, ptr %s, i64 8",
        "store ptr addrspace(1) %__bugle.undef.4, ptr %__bugle.undef.4.at",
        "%__bugle.undef.5 = freeze <4 x float> poison",
        "store <4 x float> %__bugle.undef.5, ptr %v"]
    # the scope of x starts again: a fresh value; big (> MAX_LEAVES) and %n (dynamic) untouched
    after = lines[lines.index("call void @llvm.lifetime.start.p0(ptr %x)") + 1:]
    assert after[:2] == ["%__bugle.undef.6 = freeze i32 poison", "store i32 %__bugle.undef.6, ptr %x"]
    assert 64 > MAX_LEAVES and "ptr %big" not in out and "ptr %n" not in out
    llvm.parse_assembly(out).verify()


def _verdict(tmp_path, name: str, source: str, *flags: str):
    src = tmp_path / name
    src.write_text(source)
    return subprocess.run([sys.executable, "-m", "vcgen.driver", *flags, str(src)],
                          capture_output=True, text=True)


@pytest.mark.parametrize("decl,use", [
    ("int y;", "if (get_local_id(0) == 0) y = 1;\n  __assert(y == 1);"),  # phi [undef, 1]
    ("int y;", "if (get_local_id(0) == 0) y = n;\n  __assert(y == n);"),  # phi [undef, %n]
    ("__global int *p;", "if (get_local_id(0) == 0) p = out;\n  __assert(p != 0);"),
    ("int *q;", "__assert(q == 0);"),  # an undef pointer is not null
])
def test_undefined_values_are_not_constants(tmp_path, decl, use):
    r = _verdict(tmp_path, "u.cl", f"__kernel void k(__global int *out, int n) {{\n  {decl}\n  {use}\n}}\n",
                 "--local_size=4", "--num_groups=1", "--clang-opt=-Wno-uninitialized")
    assert r.returncode == 6 and "this assertion might not hold" in r.stdout, r.stdout + r.stderr


def test_undefined_values_differ_per_thread(tmp_path):
    """Each thread's undefined value is its own: writing it is not a benign race, and a
    branch on it may diverge."""
    r = _verdict(tmp_path, "w.cl", "__kernel void k(__global int *out) {\n  int x;\n  out[0] = x;\n}\n",
                 "--local_size=4", "--num_groups=1", "--clang-opt=-Wno-uninitialized")
    assert r.returncode == 6 and "write-write race on out[0]" in r.stdout, r.stdout
    r = _verdict(tmp_path, "d.cl", "__kernel void k(__global int *out) {\n  int x;\n"
                 "  if (x) barrier(CLK_LOCAL_MEM_FENCE);\n}\n",
                 "--local_size=4", "--num_groups=1", "--clang-opt=-Wno-uninitialized")
    assert r.returncode == 6 and "barrier may be reached by non-uniform control flow" in r.stdout


def test_initialised_variables_still_verify(tmp_path):
    """The arbitrary initial values are overwritten before use: no false alarm, and a
    variable set on every path stays uniform (the barrier under it is fine)."""
    r = _verdict(tmp_path, "ok.cl", textwrap.dedent("""\
        __kernel void k(__global int *out, int n) {
          int y;
          if (n > 0) y = 1; else y = 2;
          for (int i = 0; i < n; i++) {
            int t;
            t = i;
            if (y == 1) barrier(CLK_GLOBAL_MEM_FENCE);
            out[get_global_id(0)] = t;
          }
        }
        """), "--local_size=4", "--num_groups=2")
    assert r.returncode == 0, r.stdout + r.stderr
