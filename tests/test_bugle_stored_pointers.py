"""Pointers held in memory (bugle.stored_pointers, bugle.steensgaard content classes)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bugle.cc import compile_kernel
from bugle.steensgaard import NULL, PointsTo
from bugle.translate import translate_ir
from vcgen.il.printer import program_str

GPUVERIFY = [sys.executable, "-m", "vcgen.driver"]


def run(tmp_path: Path, name: str, text: str, *flags: str) -> subprocess.CompletedProcess:
    f = tmp_path / name
    f.write_text(text)
    sizes = ("--local_size=64", "--num_groups=4") if name.endswith(".cl") else ("--blockDim=64", "--gridDim=4")
    return subprocess.run([*GPUVERIFY, str(f), *sizes, *flags], capture_output=True, text=True, timeout=300)


def il_text(tmp_path: Path, name: str, text: str) -> str:
    f = tmp_path / name
    f.write_text(text)
    return program_str(translate_ir(compile_kernel(str(f))))


# ------------------------------------------------------------------ points-to
def test_content_classes_merge_with_their_classes():
    pts = PointsTo()
    for o in ("A", "B", "T1", "T2"):
        pts.add_object(o)
    pts.unify(pts.content("T1"), "A")  # *T1 = &A
    pts.unify(pts.content("T2"), "B")  # *T2 = &B
    assert pts.targets(pts.content("T1")) == {"A"}
    pts.unify("T1", "T2")  # one pointer may point to T1 or T2: their contents merge
    assert pts.targets(pts.content("T1")) == {"A", "B"}
    assert pts.content("T1") == pts.content("T2") or pts.class_of(pts.content("T1")) == pts.class_of(
        pts.content("T2"))


def test_self_referential_content_terminates():
    pts = PointsTo()
    pts.add_object("P")
    pts.unify(pts.content("P"), "P")  # p = &p
    pts.add_object(NULL)
    pts.unify("P", NULL)
    assert pts.targets(pts.content("P")) == {"P", NULL}


# ------------------------------------------------------------ private tables
TABLE = """
__kernel void k(__global float *a, __global float *b, __global float *out, int w) {
  __global float *t[2];
  t[0] = a;
  t[1] = b;
  size_t i = get_global_id(0);
  out[INDEX] = t[w & 1][i];
}
"""


def test_private_pointer_table_keeps_bases_in_a_shadow_map(tmp_path):
    text = il_text(tmp_path, "k.cl", TABLE.replace("INDEX", "i"))
    assert "$$t$base: [bv32]int" in text  # the base of each stored pointer
    r = run(tmp_path, "k.cl", TABLE.replace("INDEX", "i"))
    assert r.returncode == 0, r.stdout + r.stderr  # never null: both cells were stored


def test_pointer_table_without_stores_may_be_null(tmp_path):
    src = TABLE.replace("  t[1] = b;\n", "")  # t[1] is never stored: any pointer
    r = run(tmp_path, "k.cl", src.replace("INDEX", "i"))
    assert r.returncode == 6 and "possible null pointer access" in r.stdout + r.stderr


def test_race_through_a_loaded_pointer_is_reported(tmp_path):
    r = run(tmp_path, "k.cl", TABLE.replace("out[INDEX] = t[w & 1][i]", "t[w & 1][i / 2] = out[i]"))
    assert r.returncode == 6 and "write-write race on" in r.stdout + r.stderr


# ----------------------------------------------------------- shared pointers
SHARED = """
__global__ void k(int *a, int *b) {
  __shared__ int *p;
  if (threadIdx.x == 0) p = WHICH;
  __syncthreads();
  p[threadIdx.x] = 1;
}
"""


def test_pointer_written_to_shared_memory_then_used(tmp_path):
    # the adversarial abstraction: what a shared cell holds is any pointer, null included
    r = run(tmp_path, "k.cu", SHARED.replace("WHICH", "a"))
    assert r.returncode == 6 and "possible null pointer access" in r.stdout + r.stderr


def test_different_pointers_written_to_shared_memory_race(tmp_path):
    # PTR_BITS(base, offset) is uninterpreted: a and b are not a benign equal write
    src = SHARED.replace("if (threadIdx.x == 0) p = WHICH;", "p = threadIdx.x & 1 ? a : b;")
    r = run(tmp_path, "k.cu", src)
    assert r.returncode == 6 and "write-write race on p[0]" in r.stdout + r.stderr


def test_same_pointer_written_by_all_threads_is_benign(tmp_path):
    src = SHARED.replace("if (threadIdx.x == 0) p = WHICH;", "p = a;").replace(
        "p[threadIdx.x] = 1;", "")
    r = run(tmp_path, "k.cu", src)
    assert r.returncode == 0, r.stdout + r.stderr


# --------------------------------------------------------- by-value structs
NESTED = """
struct In { float *p; };
struct S { int n; In v; float *q[3]; };
__global__ void k(S s) {
  s.v.p[threadIdx.x] = 1.0f;
  s.q[2][INDEX] = threadIdx.x;
}
"""


def test_struct_parameter_pointer_fields_are_fresh_arrays_named_by_field(tmp_path):
    text = il_text(tmp_path, "k.cu", NESTED.replace("INDEX", "threadIdx.x"))
    assert '{:source_name "s.v.p"}' in text and '{:source_name "s.q[2]"}' in text
    r = run(tmp_path, "k.cu", NESTED.replace("INDEX", "threadIdx.x"))
    assert r.returncode == 0, r.stdout + r.stderr
    r = run(tmp_path, "k.cu", NESTED.replace("INDEX", "0"))
    assert r.returncode == 6 and "write-write race on s.q[2][0]" in r.stdout + r.stderr


def test_written_struct_copy_goes_through_memory(tmp_path):
    src = """
struct S { __global int *p[2]; };
__kernel void k(__global int *r, struct S s) {
  s.p[1] = r;
  s.p[1][get_global_id(0) / 2] = get_global_id(0);
}
"""
    r = run(tmp_path, "k.cl", src)  # compiled as OpenCL 2.0: pointers in a struct parameter
    assert r.returncode == 6 and "write-write race on r[" in r.stdout + r.stderr


def test_requires_equating_a_field_with_a_parameter(tmp_path):
    src = """
struct S { __global int *p; };
__kernel void k(__global int *r, struct S s) {
  __requires(s.p == r);
  r[get_global_id(0)] = s.p[get_global_id(0) + 1];
}
"""
    # s.p is r: the read of the neighbour's cell races with its write
    r = run(tmp_path, "k.cl", src)
    assert r.returncode == 6 and "race on r[" in r.stdout + r.stderr


def test_requires_fresh_array(tmp_path):
    ok = "__kernel void k(__global float *q) { __requires_fresh_array(q); q[get_global_id(0)] = 1.0f; }"
    assert run(tmp_path, "k.cl", ok).returncode == 0
    bad = ("__kernel void k(__global float *q) { __global float *r = q + 1; __requires_fresh_array(r);"
           " r[get_global_id(0)] = 1.0f; }")
    r = run(tmp_path, "k.cl", bad)
    assert r.returncode == 4 and "__requires_fresh_array" in r.stdout + r.stderr


# ------------------------------------------------------------ ptrtoint/inttoptr
def test_integer_to_pointer_is_a_null_pointer_access(tmp_path):
    src = """
__global__ void k(int *h) {
  unsigned long t = (unsigned long)h + sizeof(int);
  int *g = (int *)t;
  g[threadIdx.x] = 1;
}
"""
    r = run(tmp_path, "k.cu", src)
    assert r.returncode == 6 and "possible null pointer access" in r.stdout + r.stderr


def test_pointer_to_integer_is_the_same_for_equal_pointers(tmp_path):
    src = """
__global__ void k(int *h) {
  unsigned long t = (unsigned long)h;
  __assert(t == (unsigned long)h);
  h[threadIdx.x] = (int)(t & 15);
}
"""
    r = run(tmp_path, "k.cu", src)
    assert r.returncode == 0, r.stdout + r.stderr


# ------------------------------------------------- async copies through pointers
ASYNC = """
__kernel void k(__global float *p, __global float *q) {
  __local float t1[64];
  __local float t2[64];
  __local float *t;
  __global float *r;
  if (get_group_id(0) == 1) { t = t1; r = p; } else { t = t2; r = SRC; }
  event_t e = async_work_group_copy(t, r + 64 * get_group_id(0), 64, 0);
  wait_group_events(1, &e);
  BARRIER
  r[get_global_id(0)] = 2 * t[READ];
}
"""


def async_kernel(src="q", barrier="barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);", read="get_local_id(0)"):
    return ASYNC.replace("SRC", src).replace("BARRIER", barrier).replace("READ", read)


def test_async_copy_between_arrays_chosen_per_group(tmp_path):
    text = il_text(tmp_path, "k.cl", async_kernel())
    assert text.count("{:async_copy \"$$t") == 4  # (t1|t2) x (p|q): one site per pair
    r = run(tmp_path, "k.cl", async_kernel())
    assert r.returncode == 0, r.stdout + r.stderr


def test_async_copy_through_a_pointer_is_race_checked(tmp_path):
    # no barrier after the wait: the neighbour's element may still be in flight
    r = run(tmp_path, "k.cl", async_kernel(barrier="", read="(get_local_id(0) + 1) % 64"))
    assert r.returncode == 6 and "race on t" in r.stdout + r.stderr


def test_async_copy_from_a_possibly_null_pointer(tmp_path):
    r = run(tmp_path, "k.cl", async_kernel(src="0"))
    assert r.returncode == 6 and "possible null pointer access" in r.stdout + r.stderr


def test_async_copy_sides_get_one_cell_size(tmp_path):
    src = """
__kernel void k(__global float *p) {
  __local float a[64];
  __local float b[64];
  event_t e = async_work_group_copy(a, p + 64 * get_group_id(0), 64, 0);
  e = async_work_group_copy((__local char *)b, (__global char *)(p + 64 * get_group_id(0)), 256, e);
  wait_group_events(1, &e);
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  p[get_global_id(0)] = a[get_local_id(0)] + b[get_local_id(0)];
}
"""
    text = il_text(tmp_path, "k.cl", src)
    # p is copied as chars and as floats: it is byte-level, so a (copied from p) is too
    assert "$$a: [bv32]bv8;" in text and "$$p: [bv32]bv8;" in text
    r = run(tmp_path, "k.cl", src)
    assert r.returncode == 0, r.stdout + r.stderr
