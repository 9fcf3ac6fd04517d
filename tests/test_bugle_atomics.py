"""bugle atomics (docs/design.md 5.9, docs/IL.md "Atomic read-modify-write"): atomicrmw,
cmpxchg, the OpenCL atomic_*/atom_* builtins and CUDA atomic* become calls of
``{:atomic}`` procedures naming the right array; end to end, atomics do not race with
each other but do race with plain accesses."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bugle.cc import compile_kernel
from bugle.irtext import AtomicText, InstText, IRTextError
from bugle.translate import translate_ir
from vcgen import il
from vcgen.il.errors import ExitCode, ToolError
from vcgen.il.parser import parse_program
from vcgen.il.printer import program_str
from vcgen.il.typecheck import typecheck

ROOT = Path(__file__).resolve().parent.parent


def translate_source(tmp_path: Path, name: str, text: str) -> il.Program:
    f = tmp_path / name
    f.write_text(text)
    return checked(translate_ir(compile_kernel(str(f))))


def checked(p: il.Program) -> il.Program:
    """The program prints, parses back to itself and type-checks."""
    assert parse_program(program_str(p)) == p
    typecheck(p)
    return p


def atomic_calls(p: il.Program) -> list:
    """``[(array, op, procedure, args, out)]`` of the atomic calls, in block order."""
    out = []
    for b in p.kernel().blocks:
        for c in b.cmds:
            if isinstance(c, il.Call) and il.has_attr(c.attrs, "atomic"):
                a = il.attr(c.attrs, "atomic").args
                out.append((a[0], a[1], c.proc, c.args, c.outs))
    return out


def procedures(p: il.Program) -> dict:
    return {d.name: d for d in p.procedures()}


def elem_width(p: il.Program, name: str) -> int:
    d = next(v for v in p.globals() if v.name == name)
    return il.attr(d.attrs, "elem_width").args[0].value


# ------------------------------------------------------------------ irtext

def test_irtext_reads_operation_orderings_and_flags():
    at = InstText('  %r = atomicrmw volatile umax ptr addrspace(1) %p, i32 1 syncscope("block") '
                  'acquire, align 4, !dbg !11').atomic()
    assert at == AtomicText("umax", ("acquire",), weak=False, volatile=True, syncscope="block")
    at = InstText("  %c = cmpxchg weak ptr %p, i64 %e, i64 2 seq_cst monotonic, align 8, !dbg !3").atomic()
    assert at == AtomicText("cmpxchg", ("seq_cst", "monotonic"), weak=True)
    # a value named like an ordering is not an ordering
    at = InstText("  %r = atomicrmw uinc_wrap ptr %monotonic, i32 %seq_cst release, align 4").atomic()
    assert at.op == "uinc_wrap" and at.orderings == ("release",)
    with pytest.raises(IRTextError):
        InstText("  %x = load i32, ptr %p, align 4").atomic()


# ------------------------------------------------------------------ OpenCL builtins

OPENCL_ALL = """\
__kernel void k(__global int *g, __global uint *u, __local int *l, __global long *gl,
                __global float *f) {
  int a = atomic_add(g, 1);
  a += atomic_sub(g + 1, 2);
  a += atomic_xchg(g + 2, 3);
  a += atomic_inc(g + 3);
  a += atomic_dec(g + 4);
  a += atomic_cmpxchg(g + 5, 1, 2);
  a += atomic_min(g + 6, 1);
  a += atomic_max(u + 6, 1u);
  a += atomic_and(l, 1);
  a += atomic_or(l, 1);
  a += atomic_xor(l, 1);
  a += atom_add(g, 1);
  a += atom_add(gl, 1L);
  a += atomic_xchg(f, 1.0f);
  a += atomic_min(u, 4u);
  u[100] = a;
}
"""


def test_opencl_builtins_become_atomic_calls(tmp_path):
    p = translate_source(tmp_path, "all.cl", OPENCL_ALL)
    calls = atomic_calls(p)
    assert [(c[0], c[1]) for c in calls] == [
        ("$$g", "add"), ("$$g", "sub"), ("$$g", "xchg"), ("$$g", "add"), ("$$g", "sub"),
        ("$$g", "cmpxchg"), ("$$g", "min"), ("$$u", "umax"), ("$$l", "and"), ("$$l", "or"),
        ("$$l", "xor"), ("$$g", "add"), ("$$gl", "add"), ("$$f", "xchg"), ("$$u", "umin")]
    procs = [c[2] for c in calls]
    assert procs[0] == "$bugle_atomic_bv32_bv32" and procs[5] == "$bugle_atomic_cmpxchg_bv32_bv32"
    assert procs[12] == "$bugle_atomic_bv32_bv64"
    # offsets in elements; operands; inc/dec are add/sub of 1
    assert calls[0][3] == (il.BvLit(0, 32), il.BvLit(1, 32))
    assert calls[3][3][1] == il.BvLit(1, 32) and calls[4][3][1] == il.BvLit(1, 32)
    assert calls[5][3][1:] == (il.BvLit(1, 32), il.BvLit(2, 32))
    assert calls[13][3][1] == il.BvLit(0x3F800000, 32)  # 1.0f as bits
    # one declaration per signature, marked {:atomic}, returning the old value
    decl = procedures(p)["$bugle_atomic_cmpxchg_bv32_bv32"]
    assert il.has_attr(decl.attrs, "atomic") and decl.blocks is None
    assert [t for _, t in decl.params] == [il.BV32] * 3 and decl.outs == (("old", il.BV32),)
    # arrays touched only by atomics are element-level and written
    assert elem_width(p, "$$gl") == 64 and elem_width(p, "$$l") == 32
    assert {"$$g", "$$l", "$$gl", "$$f"} <= set(p.kernel().modifies)
    # each atomic is preceded by its source-location marker
    for b in p.kernel().blocks:
        for k, c in enumerate(b.cmds):
            if isinstance(c, il.Call) and il.has_attr(c.attrs, "atomic"):
                m = b.cmds[k - 1]
                assert isinstance(m, il.Assume) and il.attr(m.attrs, "sourceloc") == il.attr(c.attrs, "sourceloc")


# ------------------------------------------------------------------ CUDA

CUDA_ALL = """\
__global__ void k(int *g, unsigned *u, float *f, unsigned long long *ul, long long *ll, double *d) {
  __shared__ int s[64];
  int a = atomicAdd(g, 1);
  a += atomicCAS(g + 1, 1, 2);
  a += atomicAdd(&s[threadIdx.x], 1);
  a += (int)atomicAdd(f, 1.0f);
  a += atomicExch(g + 2, 5);
  a += atomicMin(u, 3u);
  a += atomicInc(u + 1, 3u);
  a += atomicDec(u + 2, 3u);
  a += atomicSub(g + 3, 3);
  a += atomicCAS(ul, 1ull, 2ull);
  a += atomicAdd(ul + 1, 2ull);
  a += atomicMax(ll, 2ll);
  a += atomicAdd(d, 2.0);
  a += atomicAnd(g + 4, 2) + atomicOr(g + 4, 2) + atomicXor(g + 4, 2);
  a += atomicMax(u + 9, 1u) + atomicAdd_block(g + 5, 1) + (int)atomicExch(f + 1, 2.0f);
  g[10] = a;
}
"""


def test_cuda_atomics_become_atomic_calls(tmp_path):
    p = translate_source(tmp_path, "all.cu", CUDA_ALL)
    calls = atomic_calls(p)
    assert [(c[0], c[1]) for c in calls] == [
        ("$$g", "add"), ("$$g", "cmpxchg"), ("$$s", "add"), ("$$f", "fadd"), ("$$g", "xchg"),
        ("$$u", "umin"), ("$$u", "uinc_wrap"), ("$$u", "udec_wrap"), ("$$g", "sub"),
        ("$$ul", "cmpxchg"), ("$$ul", "add"), ("$$ll", "max"), ("$$d", "fadd"),
        ("$$g", "and"), ("$$g", "or"), ("$$g", "xor"), ("$$u", "umax"), ("$$g", "add"),
        ("$$f", "xchg")]
    procs = [c[2] for c in calls]
    assert procs[0] == "$bugle_atomic_bv64_bv32"  # 64-bit offsets, 32-bit values
    assert procs[9] == "$bugle_atomic_cmpxchg_bv64_bv64" and procs[12] == "$bugle_atomic_bv64_bv64"
    # the shared array is indexed by the thread id, in elements
    assert calls[2][3][0] != il.BvLit(0, 64)
    assert any(il.has_attr(v.attrs, "group_shared") for v in p.globals() if v.name == "$$s")


def test_cuda_cas_result_is_the_old_value_and_success_is_exact():
    ir = _kernel_ir("""
  %c = cmpxchg ptr addrspace(1) %p, i32 %e, i32 7 monotonic monotonic, align 4, !dbg !8
  %old = extractvalue { i32, i1 } %c, 0
  %ok = extractvalue { i32, i1 } %c, 1
  %w = cmpxchg weak ptr addrspace(1) %p, i32 %e, i32 7 seq_cst seq_cst, align 4, !dbg !8
  %wok = extractvalue { i32, i1 } %w, 1
  %z = zext i1 %ok to i32
  %zw = zext i1 %wok to i32
  %s = add i32 %old, %z
  %s2 = add i32 %s, %zw
  store i32 %s2, ptr addrspace(1) %out, align 4, !dbg !8""")
    p = checked(translate_ir(ir))
    calls = atomic_calls(p)
    assert [c[2] for c in calls] == ["$bugle_atomic_cmpxchg_bv32_bv32"] * 2
    assert calls[0][4] == ("$c$0",) and calls[0][3][1:] == (il.Var("$e"), il.BvLit(7, 32))
    cmds = [c for b in p.kernel().blocks for c in b.cmds]
    # strong: success iff the old value equals the compare value
    assert il.assign("$c$1", il.BinOp("==", il.Var("$c$0"), il.Var("$e"))) in cmds
    # weak: may fail spuriously, success still implies equality
    assert il.Havoc(("$w$1",)) in cmds
    assert il.Assume(il.implies(il.Var("$w$1"), il.BinOp("==", il.Var("$w$0"), il.Var("$e")))) in cmds


@pytest.mark.parametrize("op", ["xchg", "add", "sub", "and", "nand", "or", "xor", "max", "min",
                                "umax", "umin", "uinc_wrap", "udec_wrap", "usub_cond", "usub_sat"])
def test_every_integer_atomicrmw_operation(op):
    p = checked(translate_ir(_kernel_ir(f"""
  %r = atomicrmw volatile {op} ptr addrspace(1) %p, i32 %e syncscope("workgroup") seq_cst, align 4, !dbg !8
  store i32 %r, ptr addrspace(1) %out, align 4, !dbg !8""")))
    [(arr, label, proc, args, outs)] = atomic_calls(p)
    assert (arr, label, proc, args, outs) == ("$$p", op, "$bugle_atomic_bv32_bv32",
                                              (il.BvLit(0, 32), il.Var("$e")), ("$r",))


@pytest.mark.parametrize("op", ["fadd", "fsub", "fmax", "fmin"])
def test_float_atomicrmw_operations(op):
    p = checked(translate_ir(_kernel_ir(f"""
  %r = atomicrmw {op} ptr addrspace(1) %p, float 2.0 monotonic, align 4, !dbg !8
  %i = bitcast float %r to i32
  store i32 %i, ptr addrspace(1) %out, align 4, !dbg !8""")))
    [(arr, label, proc, args, _)] = atomic_calls(p)
    assert (arr, label, proc) == ("$$p", op, "$bugle_atomic_bv32_bv32")
    assert args[1] == il.BvLit(0x40000000, 32)


# ------------------------------------------------------------------ memory model cases

def test_byte_level_array_gets_one_atomic_per_byte():
    p = checked(translate_ir(_kernel_ir("""
  %b = getelementptr inbounds i8, ptr addrspace(1) %p, i32 1
  store i8 5, ptr addrspace(1) %b, align 1, !dbg !8
  %r = atomicrmw add ptr addrspace(1) %p, i32 258 monotonic, align 4, !dbg !8
  store i32 %r, ptr addrspace(1) %out, align 4, !dbg !8""")))
    assert elem_width(p, "$$p") == 8
    calls = atomic_calls(p)
    assert [c[2] for c in calls] == ["$bugle_atomic_bv32_bv8"] * 4
    assert [c[3][1] for c in calls] == [il.BvLit(2, 8), il.BvLit(1, 8), il.BvLit(0, 8), il.BvLit(0, 8)]
    offs = [c[3][0] for c in calls]
    assert offs[0] == il.BvLit(0, 32) and len(set(offs)) == 4
    cmds = [c for b in p.kernel().blocks for c in b.cmds]
    parts = [il.Var(f"$r$b{k}") for k in range(4)]
    assert il.assign("$r", il.BvConcat(il.BvConcat(il.BvConcat(parts[3], parts[2]), parts[1]),
                                       parts[0])) in cmds


def test_several_possible_arrays_case_split_with_null_check():
    p = checked(translate_ir(_kernel_ir("""
  %c = icmp eq i32 %e, 0
  %q = select i1 %c, ptr addrspace(1) %p, ptr addrspace(1) %out
  %r = atomicrmw xchg ptr addrspace(1) %q, i32 1 monotonic, align 4, !dbg !8""")))
    assert sorted(c[0] for c in atomic_calls(p)) == ["$$out", "$$p"]
    asserts = [c for b in p.kernel().blocks for c in b.cmds if isinstance(c, il.Assert)]
    assert any(il.has_attr(a.attrs, "null_pointer") for a in asserts)


def test_private_atomic_is_a_plain_read_and_arbitrary_write():
    p = checked(translate_ir(_kernel_ir("""
  %a = alloca [4 x i32], align 4
  %x = getelementptr inbounds [4 x i32], ptr %a, i32 0, i32 %e
  %r = atomicrmw add ptr %x, i32 1 monotonic, align 4, !dbg !8
  store i32 %r, ptr addrspace(1) %out, align 4, !dbg !8""")))
    assert atomic_calls(p) == []
    cmds = [c for b in p.kernel().blocks for c in b.cmds]
    assert il.Havoc(("$r$new",)) in cmds
    assert any(isinstance(c, il.Assign) and isinstance(c.lhss[0], il.MapLhs) and c.lhss[0].name == "$$a"
               and c.rhss[0] == il.Var("$r$new") for c in cmds)


def test_atomic_on_pointer_values_is_an_error():
    with pytest.raises(ToolError) as e:
        translate_ir(_kernel_ir("""
  %r = atomicrmw xchg ptr addrspace(1) %p, ptr addrspace(1) null monotonic, align 4, !dbg !8"""))
    assert e.value.code == ExitCode.BUGLE_ERROR and "pointer" in str(e.value) and "k.cl:2:3" in str(e.value)


def _kernel_ir(body: str) -> str:
    """A spir kernel ``k(ptr addrspace(1) %p, ptr addrspace(1) %out, i32 %e)`` with ``body``;
    ``!8`` is k.cl line 2, column 3."""
    return f"""\
target datalayout = "e-p:32:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-G1"
target triple = "spir-unknown-unknown"

define spir_kernel void @k(ptr addrspace(1) %p, ptr addrspace(1) %out, i32 %e) !dbg !5 {{
entry:{body}
  ret void
}}

!llvm.dbg.cu = !{{!0}}
!llvm.module.flags = !{{!3}}
!0 = distinct !DICompileUnit(language: DW_LANG_OpenCL, file: !1, producer: "hand", isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "k.cl", directory: "src")
!3 = !{{i32 2, !"Debug Info Version", i32 3}}
!5 = distinct !DISubprogram(name: "k", scope: !1, file: !1, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{{}}
!8 = !DILocation(line: 2, column: 3, scope: !5)
"""


# ------------------------------------------------------------------ end to end

def driver(tmp_path: Path, name: str, text: str, *flags: str) -> subprocess.CompletedProcess:
    (tmp_path / name).write_text(text)
    return subprocess.run([sys.executable, "-m", "vcgen.driver", *flags, name], cwd=tmp_path,
                          env={"PYTHONPATH": str(ROOT), "PATH": os.defpath},
                          capture_output=True, text=True, timeout=300)


HISTOGRAM_CL = """\
__kernel void hist(__global const uint *in, __global uint *bins) {
  __local uint lb[16];
  uint lid = get_local_id(0);
  if (lid < 16)
    lb[lid] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_inc(&lb[in[get_global_id(0)] % 16]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < 16)
    atomic_add(&bins[lid], lb[lid]);
}
"""


def test_histogram_with_atomics_verifies(tmp_path):
    r = driver(tmp_path, "hist.cl", HISTOGRAM_CL, "--local_size=64", "--num_groups=4")
    assert r.returncode == 0 and "Verified" in r.stdout, r.stdout + r.stderr


def test_histogram_without_second_barrier_races(tmp_path):
    racy = HISTOGRAM_CL.replace("  barrier(CLK_LOCAL_MEM_FENCE);\n  if (lid < 16)\n    atomic_add",
                                "  if (lid < 16)\n    atomic_add")
    assert racy != HISTOGRAM_CL
    r = driver(tmp_path, "hist.cl", racy, "--local_size=64", "--num_groups=4")
    out = r.stdout + r.stderr
    assert r.returncode == ExitCode.NOT_ALL_VERIFIED, out
    assert "race on lb[" in out and "Atomic by work item" in out and "hist.cl:7:" in out


def test_atomic_and_plain_read_in_one_interval_race_cuda(tmp_path):
    src = """\
__global__ void k(int *a, int *out) {
  atomicAdd(&a[0], 1);
  out[blockIdx.x * blockDim.x + threadIdx.x] = a[0];
}
"""
    r = driver(tmp_path, "k.cu", src, "--blockDim=64", "--gridDim=2")
    out = r.stdout + r.stderr
    assert r.returncode == ExitCode.NOT_ALL_VERIFIED, out
    assert "race on a[0]" in out and "Atomic by thread" in out and "k.cu:2:3" in out


def test_cas_lock_free_update_verifies_racewise(tmp_path):
    src = """\
__global__ void maxk(const int *in, int *result) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  int old = atomicOr(result, 0), assumed;
  do {
    assumed = old;
    old = atomicCAS(result, assumed, max(v, assumed));
  } while (assumed != old);
}
"""
    r = driver(tmp_path, "cas.cu", src, "--blockDim=64", "--gridDim=2")
    assert r.returncode == 0 and "Verified" in r.stdout, r.stdout + r.stderr


def test_atomic_load_and_store():
    p = checked(translate_ir(_kernel_ir("""
  %v = load atomic i32, ptr addrspace(1) %p monotonic, align 4, !dbg !8
  store atomic i32 %v, ptr addrspace(1) %out seq_cst, align 4, !dbg !8""")))
    calls = atomic_calls(p)
    assert [(c[0], c[1], c[2]) for c in calls] == [
        ("$$p", "load", "$bugle_atomic_load_bv32_bv32"), ("$$out", "store", "$bugle_atomic_bv32_bv32")]
    assert calls[0][3] == (il.BvLit(0, 32),) and calls[1][3] == (il.BvLit(0, 32), il.Var("$v"))
    assert procedures(p)["$bugle_atomic_load_bv32_bv32"].params == (("offset", il.BV32),)


def test_atomic_on_constant_memory_is_an_error(tmp_path):
    f = tmp_path / "const.cu"
    f.write_text("__constant__ int c[4];\n__global__ void k(int *out) {\n"
                 "  out[threadIdx.x] = atomicAdd(&c[1], 1);\n}\n")
    with pytest.raises(ToolError) as e:
        translate_ir(compile_kernel(str(f)))
    assert e.value.code == ExitCode.BUGLE_ERROR
    assert "constant memory" in str(e.value) and "const.cu:3:22" in str(e.value)


def test_forced_equality_abstraction_rejects_atomics(tmp_path):
    """GPUVerify rejects ``--equality-abstraction`` on a kernel with atomics (exit 5, its
    message); without the flag the same kernel verifies."""
    f = tmp_path / "k.cl"
    f.write_text("__kernel void k(__local int *A) { atomic_inc(A); }")
    run = [sys.executable, "-m", "vcgen.driver", "--local_size=64", "--num_groups=1", str(f)]
    p = subprocess.run(run + ["--equality-abstraction"], capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == ExitCode.GPUVERIFYVCGEN_ERROR
    assert "GPUVerify: error: --equality-abstraction cannot be used with atomics." in p.stdout + p.stderr
    p = subprocess.run(run, capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 0, p.stdout + p.stderr
