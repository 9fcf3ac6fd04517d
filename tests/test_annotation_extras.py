"""GPUVerify annotations beyond the core set (bugle/annotations.py, vcgen/twothread/queries.py):
``__dominator_enabled``, ``__atomic_has_taken_value``, ``__return_val_int4``/``_ptr`` and
the return type rule, access-log queries whose value reaches code, ``__requires`` reading
memory, queries on volatile pointers.  Each is shown holding and failing."""
from __future__ import annotations

import pytest

from bugle.cc import compile_kernel
from bugle.translate import translate_ir
from vcgen import driver, il
from vcgen.il.errors import ExitCode


def verify(tmp_path, capsys, src: str, suffix: str = ".cl", *flags: str) -> tuple:
    """(exit code, stdout + stderr) of ``gpuverify`` on the kernel text ``src``."""
    path = tmp_path / f"k{suffix}"
    path.write_text(src)
    launch = ("--local_size=64", "--num_groups=4") if suffix == ".cl" else ("--blockDim=64", "--gridDim=4")
    with pytest.raises(SystemExit) as e:
        driver.main([str(path), *launch, *flags])
    out = capsys.readouterr()
    return e.value.code, out.out + out.err


def test_requires_on_memory_is_assumed_per_thread(tmp_path, capsys):
    src = ("__kernel void k(__local int *A) {\n  __requires(A[get_local_id(0)] == 0);\n"
           "  barrier(CLK_LOCAL_MEM_FENCE);\n  __assert(A[get_local_id(0)] == VALUE);\n}\n")
    code, out = verify(tmp_path, capsys, src.replace("VALUE", "0"))
    assert code == 0, out
    code, out = verify(tmp_path, capsys, src.replace("VALUE", "1"))
    assert code == ExitCode.NOT_ALL_VERIFIED
    assert "this assertion might not hold" in out


def test_requires_on_memory_is_a_read_in_the_spec(tmp_path):
    path = tmp_path / "k.cl"
    path.write_text("__kernel void k(__global int *A) {\n  __requires(A[get_global_id(0)] > 0);\n"
                    "  A[get_global_id(0)] = 1;\n}\n")
    k = translate_ir(compile_kernel(str(path)), None, str(path)).kernel()
    assert any(isinstance(x, il.MapSelect) and x.map == il.Var("$$A") for s in k.specs for x in il.subexprs(s.expr))
    reads = [c for b in k.blocks for c in b.cmds if isinstance(c, il.Assign)
             and any(isinstance(r, il.MapSelect) for r in c.rhss)]
    assert reads == []  # the precondition's read is not an access


def test_log_query_value_in_code_is_arbitrary(tmp_path, capsys):
    code, out = verify(tmp_path, capsys, "__kernel void k(__local int *p, __global int *out) {\n"
                       "  volatile int z = __read_offset_bytes(p);\n  out[get_global_id(0)] = 0;\n}\n")
    assert code == 0, out
    # code that depends on it sees any value: an index computed from it may race
    code, out = verify(tmp_path, capsys, "__kernel void k(__local int *p, __global int *out) {\n"
                       "  out[__read_offset_bytes(p)] = get_global_id(0);\n}\n")
    assert code == ExitCode.NOT_ALL_VERIFIED
    assert "race" in out


def test_dominator_enabled_in_a_loop_invariant(tmp_path, capsys):
    src = ("__kernel void k(__local int *A, int n) {\n  unsigned t = get_local_id(0);\n"
           "  for (int i = 0; __global_invariant(__implies(__dominator_enabled() & __write(A), "
           "__write_offset_bytes(A) / sizeof(int) == t + SHIFT)), i < n; i++)\n    A[t] = i;\n}\n")
    code, out = verify(tmp_path, capsys, src.replace("SHIFT", "0"))
    assert code == 0, out
    code, out = verify(tmp_path, capsys, src.replace("SHIFT", "1"))
    assert code == ExitCode.NOT_ALL_VERIFIED
    assert "loop invariant might not be maintained" in out


def test_dominator_enabled_query_in_il(tmp_path):
    path = tmp_path / "k.cl"
    path.write_text("__kernel void k(__global int *A) {\n  __assert(__dominator_enabled());\n}\n")
    p = translate_ir(compile_kernel(str(path)), None, str(path))
    f = next(d for d in p.decls if isinstance(d, il.FunctionDecl) and d.name == "__dominator_enabled")
    assert il.attr(f.attrs, "annotation").args[0] == "dominator_enabled"


TICKETS = ("__kernel void k(__global unsigned *counter, __global char *out) {\n"
           "  while (__global_invariant(__write_implies(out, __atomic_has_taken_value(counter, 0, "
           "__write_offset_bytes(out) + SHIFT))), true) {\n"
           "    unsigned i = atomic_inc(counter);\n    out[i] = 1;\n    if (i > get_global_id(0)) break;\n  }\n}\n")


def test_atomic_has_taken_value_states_the_ticket_invariant(tmp_path, capsys):
    code, out = verify(tmp_path, capsys, TICKETS.replace("SHIFT", "0"))
    assert code == 0, out
    code, out = verify(tmp_path, capsys, TICKETS.replace("SHIFT", "1"))
    assert code == ExitCode.NOT_ALL_VERIFIED


def test_atomic_has_taken_value_needs_a_ticket_counter(tmp_path, capsys):
    code, out = verify(tmp_path, capsys, TICKETS.replace("SHIFT", "0").replace("atomic_inc(counter)",
                                                                               "atomic_xchg(counter, 3)"))
    assert code == ExitCode.GPUVERIFYVCGEN_ERROR
    assert "not a ticket counter" in out


def test_return_val_type_must_match(tmp_path, capsys):
    src = ("__device__ char twice(int i) {\n  __ensures(__return_val_int() == i * 2);\n  return i * 2;\n}\n"
           "__global__ void k(char *p) { p[threadIdx.x] = twice(threadIdx.x); }\n")
    code, out = verify(tmp_path, capsys, src, ".cu")
    assert code == ExitCode.BUGLE_ERROR
    assert "Type of __return_val function does not match return type" in out


def test_return_val_int4_and_ptr(tmp_path, capsys):
    src = ("int4 inc(int4 v) {\n  __ensures(__return_val_int4().y == v.y + DELTA);\n  return v + 1;\n}\n"
           "__kernel void k(__global int *A) {\n  int4 b = inc((int4)(0, 1, 2, 3));\n"
           "  __assert(b.y == 2);\n}\n")
    code, out = verify(tmp_path, capsys, src.replace("DELTA", "1"), ".cl", "--no-inline")
    assert code == 0, out
    code, out = verify(tmp_path, capsys, src.replace("DELTA", "2"), ".cl", "--no-inline")
    assert code == ExitCode.NOT_ALL_VERIFIED
    assert "postcondition might not hold" in out
    ptr = ("__device__ int *same(int *p) {\n  __ensures(__return_val_ptr() == p + OFF);\n  return p;\n}\n"
           "__global__ void k(int *p) { same(p)[threadIdx.x] = 0; }\n")
    code, out = verify(tmp_path, capsys, ptr.replace("OFF", "0"), ".cu", "--no-inline")
    assert code == 0, out
    code, out = verify(tmp_path, capsys, ptr.replace("OFF", "1"), ".cu", "--no-inline")
    assert code == ExitCode.NOT_ALL_VERIFIED


def test_queries_take_volatile_pointers(tmp_path, capsys):
    src = ("__global__ void k(volatile int *p) {\n  __assert(__no_read(p));\n  p[threadIdx.x] = threadIdx.x;\n"
           "  __assert(__no_write(p));\n}\n")
    code, out = verify(tmp_path, capsys, src, ".cu")
    assert code == ExitCode.NOT_ALL_VERIFIED  # the write is logged (for some choice of the log)
    assert "k.cu:4:3: error: this assertion might not hold" in out
    assert "k.cu:2:" not in out


def test_global_assert_reads_work_item_functions_of_a_disabled_thread(tmp_path, capsys):
    # checked for the thread that skips the `if` too: get_group_id is its own group id
    # there, not the stale local of a call it never made
    src = ("__kernel void k(__global int *A) {\n  if (get_local_id(0) < 4) {\n"
           "    __global_assert(get_group_id(0) < BOUND);\n  }\n}\n")
    code, out = verify(tmp_path, capsys, src.replace("BOUND", "4"))
    assert code == 0, out
    code, out = verify(tmp_path, capsys, src.replace("BOUND", "3"))
    assert code == ExitCode.NOT_ALL_VERIFIED and "this assertion might not hold" in out


LOG_QUERY_TWO_ARRAYS = """__kernel void k(__global float *a, __global float *b, int sel, int n) {
  __requires(n == 256);
  int tid = get_local_id(0);
  __global float *d = sel ? &a[get_group_id(0) * n] : &b[get_group_id(0) * n];
  for (int i = tid;
       __global_invariant(__write_implies(d, (__write_offset_bytes(d) - __ptr_offset_bytes(d)) / 4 % 64 == tid)),
       __global_invariant(__write_implies(d, (__write_offset_bytes(d) - __ptr_offset_bytes(d)) / 4 < n)),
       i < n; i += STEP)
    d[i] = 0.0f;
}
"""


def test_log_queries_on_a_pointer_into_two_arrays(tmp_path, capsys):
    """``__write_implies(d, ..)`` with ``d`` into ``a`` or ``b``: the query reads the log of
    the array d's base names (bugle annotations ``_log_query``); before, an error."""
    code, out = verify(tmp_path, capsys, LOG_QUERY_TWO_ARRAYS.replace("STEP", "64"), ".cl")
    assert code == 0, out
    code, out = verify(tmp_path, capsys, LOG_QUERY_TWO_ARRAYS.replace("STEP", "32"), ".cl")
    assert code == ExitCode.NOT_ALL_VERIFIED, out
    assert "loop invariant might not be maintained" in out
