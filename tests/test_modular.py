"""``--no-inline``: functions verified on their own against their contracts (bugle/modular.py,
the driver's ``_check_functions``), and the GPUVerify report shapes of contracts: a
postcondition "might not hold on all return paths"; a precondition is reported at the
call, with a note pointing at the ``__requires``."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from bugle.cc import compile_kernel, run_clang
from bugle.modular import checked_functions
from bugle.translate import translate_ir
from vcgen import il
from vcgen.il.parser import parse_program
from vcgen.il.printer import program_str
from vcgen.il.typecheck import typecheck

ROOT = Path(__file__).resolve().parent.parent
VERIFIED, NOT_VERIFIED = 0, 6


def verify(tmp_path: Path, src: str, *flags: str, suffix: str = ".cl") -> tuple:
    k = tmp_path / f"k{suffix}"
    k.write_text(src)
    launch = ("--local_size=64", "--num_groups=2") if suffix == ".cl" else ("--blockDim=64", "--gridDim=2")
    p = subprocess.run([sys.executable, "-m", "vcgen.driver", *launch, *flags, str(k)], capture_output=True,
                       text=True, cwd=ROOT, timeout=600)
    return p.returncode, p.stdout + p.stderr


def checked(tmp_path: Path, src: str, suffix: str = ".cl") -> list:
    k = tmp_path / f"k{suffix}"
    k.write_text(src)
    return checked_functions(run_clang(str(k), "opencl" if suffix == ".cl" else "cuda"))


def test_which_functions_are_checked_on_their_own(tmp_path):
    src = """
int with_contract(int a) { __requires(a > 0); return a; }
int called_plain(int a) { return a + 1; }
int uncalled(int a) { return a - 1; }
int only_from_uncalled(int a) { return a * 2; }
int uncalled_caller(int a) { return only_from_uncalled(a); }
__attribute__((always_inline)) int forced_inline(int a) { __ensures(__return_val_int() == a); return a; }
__kernel void k(__global int *p) {
  __requires(p != 0);
  p[get_global_id(0)] = with_contract(1) + called_plain(2) + forced_inline(3);
}"""
    assert checked(tmp_path, src) == ["with_contract", "uncalled", "only_from_uncalled", "uncalled_caller"]
    cuda = """
__device__ int address_taken(int a) { return a; }
__device__ int table_entry(int a) { return -a; }
__device__ int (*table[1])(int) = {table_entry};
__device__ int unused(int a) { return a; }
__global__ void k(int *p, int i) {
  int (*f)(int) = i ? address_taken : table[0];
  p[threadIdx.x] = f(i);
}"""
    assert checked(tmp_path, cuda, ".cu") == ["_Z6unusedi"]


ENSURES = """
int halve(int a) {
  __requires(a > 0);
  __ensures(__return_val_int() > 0);
  return a / 2;
}
__kernel void k(__global int *p) {
  p[get_global_id(0)] = halve(5) + halve(6);
}"""


def test_ensures_must_hold_for_every_input_the_requires_allows(tmp_path):
    code, out = verify(tmp_path, ENSURES)
    assert code == VERIFIED, out  # inlined: the two calls are fine
    code, out = verify(tmp_path, ENSURES, "--no-inline")
    assert code == NOT_VERIFIED, out  # halve(1) == 0
    assert "k.cl:4:3: error: postcondition might not hold on all return paths\n" \
           "  __ensures(__return_val_int() > 0);" in out, out
    code, out = verify(tmp_path, ENSURES.replace("a > 0", "a > 1"), "--no-inline")
    assert code == VERIFIED, out
    assert "functions meeting their contracts for every input their __requires allow (--no-inline): halve" in out


def test_precondition_is_reported_at_the_call(tmp_path):
    code, out = verify(tmp_path, ENSURES.replace("halve(6)", "halve(0)"))
    assert code == NOT_VERIFIED, out
    assert re.search(r"k\.cl:8:36: error: a precondition for this call might not hold\n"
                     r"  p\[get_global_id\(0\)\] = halve\(5\) \+ halve\(0\);\n"
                     r"\S*k\.cl:3:3: note: this is the precondition that might not hold\n"
                     r"  __requires\(a > 0\);\n", out), out


UNCALLED = """
void clear(__local float *dst) {
  REQUIRES
  for (unsigned i = get_local_id(0); i < 1024; i += get_local_size(0))
    dst[i] = i;
}
__kernel void k(__global int *p) {
  p[get_global_id(0)] = 0;
}"""


def test_uncalled_function_is_checked_for_every_argument(tmp_path):
    """No kernel calls ``clear``: with --no-inline it is verified for any pointer its
    (empty) contract allows -- two threads may get pointers into one array at different
    offsets, and then they race."""
    code, out = verify(tmp_path, UNCALLED.replace("REQUIRES", ""))
    assert code == VERIFIED, out
    code, out = verify(tmp_path, UNCALLED.replace("REQUIRES", ""), "--no-inline")
    assert code == NOT_VERIFIED and "write-write race on dst[" in out, out
    code, out = verify(tmp_path, UNCALLED.replace("REQUIRES", "__requires(__uniform_int(__ptr_offset_bytes(dst)));"),
                       "--no-inline")
    assert code == VERIFIED, out


@pytest.mark.parametrize("body, code, expect", [
    # a thread may not call the function at all: "enabled => e" is not contradictory
    ("__requires(__implies(__enabled(), get_local_id(0) == 3)); s[0] = 1;", VERIFIED, "Verified"),
    # a barrier in a function some threads may skip
    ("barrier(CLK_LOCAL_MEM_FENCE);", NOT_VERIFIED, "barrier may be reached by non-uniform control flow"),
    ("__requires(__uniform_bool(__enabled())); barrier(CLK_LOCAL_MEM_FENCE);", VERIFIED, "Verified"),
])
def test_callers_enabledness_is_an_input(tmp_path, body, code, expect):
    src = f"""
void f(__local int *s) {{
  {body}
}}
__kernel void k(__global int *p) {{ p[get_global_id(0)] = 1; }}"""
    got, out = verify(tmp_path, src, "--no-inline", "--local_size=64", "--num_groups=1")
    assert got == code and expect in out, out


CUDA = """
__device__ int clampi(int i, int n) {
  __requires(n > 0);
  __ensures(__return_val_int() >= 0 && __return_val_int() < n);
  return i < 0 ? 0 : (i >= n ? BUG : i);
}
__global__ void k(int *p) {
  p[threadIdx.x] = clampi(threadIdx.x, 64);
}"""


def test_cuda_function_contract(tmp_path):
    code, out = verify(tmp_path, CUDA.replace("BUG", "n"), "--no-inline", suffix=".cu")
    assert code == NOT_VERIFIED and "postcondition might not hold on all return paths" in out, out
    code, out = verify(tmp_path, CUDA.replace("BUG", "n - 1"), "--no-inline", suffix=".cu")
    assert code == VERIFIED, out


def test_function_entry_il(tmp_path):
    """``bugle cc --no-inline`` keeps the checked function; ``bugle translate --function``
    makes it the entry: arguments and pointer offsets havocked, an arbitrary call
    decision, ``__requires`` assumed; the program prints, parses back and type-checks."""
    k = tmp_path / "k.cl"
    k.write_text(ENSURES + "\nint twice(__global int *q, int i) { __requires(i >= 0); return q[i] * 2; }\n")
    ir = compile_kernel(str(k), keep_functions=True)
    p = translate_ir(ir, function="twice")
    assert parse_program(program_str(p)) == p
    typecheck(p)
    proc = p.kernel()
    assert il.has_attr(proc.attrs, "function_entry") and proc.params == ()
    text = program_str(p)
    assert "havoc $bugle_called;" in text and "havoc $i, $q$offset;" in text
    assert "assume {:precondition} BV32_SGE($i, 0bv32);" in text
    assert "@halve(" in ir and "@twice(" in ir
    assert "@halve(" not in compile_kernel(str(k))  # without --no-inline it is inlined away


def test_ptr_offset_bytes_is_pointer_wide(tmp_path):
    # __ptr_offset_bytes(v) == 0 on a 64-bit CUDA pointer compares all 64 bits: before it
    # was an int, and an offset of 2**30 floats (2**32 bytes) passed the precondition
    src = """#define tid (blockIdx.x * blockDim.x + threadIdx.x)
__device__ void twice(float *v, unsigned int index) {
  __requires(__ptr_offset_bytes(v) == 0);
  __requires(index == tid);
  __requires(__write_implies(v, __write_offset_bytes(v) / sizeof(float) == index));
  __ensures(__write_implies(v, __write_offset_bytes(v) / sizeof(float) == index));
  v[index] = 2.0f;
}
__global__ void foo(float *v) { twice(v, tid); }
"""
    code, out = verify(tmp_path, src, "--no-inline", suffix=".cu")
    assert code == VERIFIED, out
    code, out = verify(tmp_path, src.replace("v[index] = 2.0f;", "v[index + 1] = 2.0f;"), "--no-inline", suffix=".cu")
    assert code == NOT_VERIFIED and "postcondition might not hold" in out, out
