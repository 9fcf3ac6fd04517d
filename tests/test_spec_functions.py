"""Specification functions (bugle.spec_functions): ``__spec_`` functions are contracts
without a body -- ``__requires`` checked at the call, ``__writes_to``/``__reads_from`` logged
and race-checked accesses of arbitrary cells ("from external source location"), written
arrays havocked, ``__ensures`` assumed after that, ``__old_*`` read at the call -- and
``__return_val_funptr``."""
from __future__ import annotations

import json

import pytest

from bugle import BugleError
from bugle.cc import run_clang
from bugle.modular import checked_functions
from bugle.spec_functions import is_spec_function
from vcgen import il

from test_calls import commands, translated  # kernel text -> checked IL program, its commands
from test_modular import verify  # the driver on a kernel text: --local_size=64 --num_groups=2

VERIFIED, NOT_VERIFIED, BUGLE_ERROR = 0, 6, 4


# a routine of an external library, known by its contract: it writes out[i] for its own
# global id i (when WHERE is the constraint), after reading nothing
STORE_LIB = """
void __spec_store_result(__global int *out) {
  __requires(__no_write(out));
  __ensures(WHERE);
  __writes_to(out);
}
__kernel void k(__global int *out) {
  __spec_store_result(out);
  out[get_global_id(0)] += 1;
}
"""
OWN_CELL = "__write_implies(out, __write_offset_bytes(out) / sizeof(int) == get_global_id(0))"


def test_unconstrained_spec_write_races_and_is_reported_as_external(tmp_path):
    code, out = verify(tmp_path, STORE_LIB.replace("WHERE", "true"), "--json")
    assert code == NOT_VERIFIED, out
    errors = json.loads(out)["errors"]
    spec_races = [e for e in errors if e["kind"] == "race" and e["other_location"]["external"]]
    assert spec_races and spec_races[0]["other_location"]["line"] == 8  # the call's line
    code, out = verify(tmp_path, STORE_LIB.replace("WHERE", "true"))
    assert "from external source location (the call at " in out and "k.cl:8:" in out, out


def test_ensures_restricting_the_write_offset_verifies_a_correct_kernel(tmp_path):
    # both threads' writes are constrained (not only the logged one): no write-write race
    # between the two calls, none with the kernel's own accesses of out[gid]
    code, out = verify(tmp_path, STORE_LIB.replace("WHERE", OWN_CELL))
    assert code == VERIFIED, out
    # the neighbour's cell: a race with the kernel's out[gid] of the other work item
    code, out = verify(tmp_path, STORE_LIB.replace("WHERE", OWN_CELL).replace(
        "out[get_global_id(0)] += 1", "out[get_global_id(0) + 1] += 1"))
    assert code == NOT_VERIFIED and "from external source location" in out, out


def test_constraint_of_the_ensures_is_assumed_of_each_access(tmp_path):
    p = translated(tmp_path, STORE_LIB.replace("WHERE", OWN_CELL))
    cmds = commands(p)
    write = next(i for i, c in enumerate(cmds) if isinstance(c, il.Assign) and isinstance(c.lhss[0], il.MapLhs)
                 and c.lhss[0].name == "$$out" and isinstance(c.rhss[0], il.Var))
    at = cmds[write].lhss[0].index
    before = [c for c in cmds[:write] if isinstance(c, il.Assume) and il.has_attr(c.attrs, "spec_ensures")]
    assert before and at in il.subexprs(before[-1].expr)  # the access's own cell, not the log
    assert not any(isinstance(x, il.FunApp) and x.name.startswith("__write") for x in il.subexprs(before[-1].expr))
    havoc = next(i for i, c in enumerate(cmds) if isinstance(c, il.Havoc) and "$$out" in c.vars)
    after = [c for c in cmds[havoc:] if isinstance(c, il.Assume) and il.has_attr(c.attrs, "spec_ensures")]
    assert after and any(isinstance(x, il.FunApp) and x.name == "__write_offset_$$out"
                         for x in il.subexprs(after[0].expr))  # then the ensures itself, on the log
    marker = cmds[write - 1]
    assert isinstance(marker, il.Assume) and il.attr(marker.attrs, "sourceloc").args[3] == "external"


FILL = """
void __spec_fill(__global int *p) {
  __writes_to(p);
  __ensures(p[get_global_id(0)] == 7);
}
__kernel void k(__global int *A) {
  A[get_global_id(0)] = 0;
  __spec_fill(A);
  __assert(CHECK);
}
"""


@pytest.mark.parametrize("check, code", [("A[get_global_id(0)] == 7", VERIFIED),
                                         ("A[get_global_id(0)] == 0", NOT_VERIFIED)])
def test_ensures_reads_memory_after_the_havoc(tmp_path, check, code):
    # read before the call, the ensures would contradict A[gid] = 0: vacuous, not verified
    got, out = verify(tmp_path, FILL.replace("__writes_to(p);", "__writes_to(p);\n  __ensures(__write_implies("
                                             "p, __write_offset_bytes(p) / 4 == get_global_id(0)));")
                      .replace("CHECK", check))
    assert got == code, out
    if code == NOT_VERIFIED:
        assert "this assertion might not hold" in out and "vacuous" not in out, out


DOUBLE = """
void __spec_double(__global int *p) {
  __writes_to(p);
  __ensures(__write_implies(p, __write_offset_bytes(p) / 4 == get_global_id(0)));
  __ensures(p[get_global_id(0)] == __old_int(p[get_global_id(0)]) * 2);
}
__kernel void k(__global int *A) {
  A[get_global_id(0)] = 3;
  __spec_double(A);
  __assert(A[get_global_id(0)] == CHECK);
}
"""


@pytest.mark.parametrize("check, code", [("6", VERIFIED), ("3", NOT_VERIFIED)])
def test_old_is_the_value_at_the_call(tmp_path, check, code):
    got, out = verify(tmp_path, DOUBLE.replace("CHECK", check))
    assert got == code, out


def test_old_is_a_snapshot_taken_before_the_effects(tmp_path):
    cmds = commands(translated(tmp_path, DOUBLE.replace("CHECK", "6")))
    snap = next(i for i, c in enumerate(cmds) if isinstance(c, il.Havoc) and c.vars[0].startswith("$spec$old$"))
    havoc = next(i for i, c in enumerate(cmds) if isinstance(c, il.Havoc) and "$$A" in c.vars)
    assert snap < havoc
    name = cmds[snap].vars[0]
    assert any(isinstance(x, il.MapSelect) for x in il.subexprs(cmds[snap + 1].expr))  # A[gid] at the call
    ens = [c for c in cmds[havoc:] if isinstance(c, il.Assume) and il.Var(name) in il.subexprs(c.expr)]
    assert ens and il.has_attr(ens[0].attrs, "spec_ensures")


def test_spec_requires_violated_at_the_call_is_a_precondition_failure(tmp_path):
    src = """
void __spec_scale(__global float *p, int n) {
  __requires(n > 0);
  __writes_to(p);
  __ensures(__write_implies(p, __write_offset_bytes(p) / 4 == get_global_id(0)));
}
__kernel void k(__global float *A, int n) {
  __spec_scale(A, N);
}
"""
    code, out = verify(tmp_path, src.replace("N", "0"))
    assert code == NOT_VERIFIED and "k.cl:8:3: error: a precondition for this call might not hold" in out, out
    assert "k.cl:3:3: note: this is the precondition that might not hold" in out, out
    code, out = verify(tmp_path, src.replace("N", "4"))
    assert code == VERIFIED, out


def test_reads_from_races_with_a_write_of_the_other_thread(tmp_path):
    src = """
void __spec_checksum(__global const int *p) { __reads_from(p); }
__kernel void k(__global int *A) {
  __spec_checksum(A);
  A[get_global_id(0)] = 0;
}
"""
    code, out = verify(tmp_path, src)
    assert code == NOT_VERIFIED and "read-write race" in out and "from external source location" in out, out
    cmds = commands(translated(tmp_path, src))
    assert not any(isinstance(c, il.Havoc) and "$$A" in c.vars for c in cmds)  # reading changes nothing


def test_value_returned_by_a_spec_function_is_arbitrary(tmp_path):
    # its body returns 0, but it has no body: the result is only what __ensures says
    src = """
int __spec_pick(void) { __ensures(__return_val_int() >= 0); return 0; }
__kernel void k(__global int *A) {
  if (__spec_pick() != 0) A[0] = get_global_id(0);
}
"""
    code, out = verify(tmp_path, src)
    assert code == NOT_VERIFIED and "write-write race" in out, out
    code, out = verify(tmp_path, src.replace(">= 0", "== 0"))
    assert code == VERIFIED, out


def test_spec_function_in_cuda(tmp_path):
    src = """
__device__ void __spec_saxpy_row(float *y) {
  __writes_to(y);
  __ensures(__write_implies(y, __write_offset_bytes(y) / sizeof(float) == blockIdx.x * blockDim.x + threadIdx.x));
}
__global__ void k(float *y) {
  __spec_saxpy_row(y);
  y[blockIdx.x * blockDim.x + threadIdx.x] *= 2.0f;
}
"""
    code, out = verify(tmp_path, src, suffix=".cu")
    assert code == VERIFIED, out
    code, out = verify(tmp_path, src.replace("threadIdx.x));", "0));"), suffix=".cu")
    assert code == NOT_VERIFIED and "from external source location" in out, out


def test_spec_functions_are_never_checked_on_their_own(tmp_path):
    k = tmp_path / "k.cl"
    k.write_text(STORE_LIB.replace("WHERE", OWN_CELL))
    assert checked_functions(run_clang(str(k), "opencl")) == []
    assert is_spec_function("_Z16__spec_saxpy_rowPf") and is_spec_function("__spec_fill")
    assert not is_spec_function("spec_fill") and not is_spec_function("_Z4fillPi")


@pytest.mark.parametrize("src, message", [
    ("__kernel void k(__global int *A) { __writes_to(A); }",
     "__writes_to may only be used in a specification function"),
    ("void __spec_f(__global int *p, int n) { __writes_to(n); }\n"
     "__kernel void k(__global int *A) { __spec_f(A, 1); }",
     "__writes_to expects pointers"),
    ("void __spec_f(__global int *p) { __writes_to(p); p[0] = 1; }\n"
     "__kernel void k(__global int *A) { __spec_f(A); }",
     "a __spec_ function may only contain annotations, not a store"),
    ("void __spec_f(__global int *p, int c) { if (c) __writes_to(p); }\n"
     "__kernel void k(__global int *A, int c) { __spec_f(A, c); }",
     "__writes_to must be executed on every path"),
    ("void __spec_f(__constant int *p) { __writes_to(p); }\n"
     "__kernel void k(__constant int *A) { __spec_f(A); }",
     "__constant memory"),
    ("__global int *__spec_f(__global int *p) { return p; }\n"
     "__kernel void k(__global int *A) { *__spec_f(A) = 1; }",
     "may only return void, an integer or a floating-point value"),
])
def test_misuse_is_a_bugle_error(tmp_path, src, message):
    with pytest.raises(BugleError, match=message):
        translated(tmp_path, src)


def test_misuse_exits_with_bugle_error(tmp_path):
    code, out = verify(tmp_path, "__kernel void k(__global int *A) { __reads_from(A); }")
    assert code == BUGLE_ERROR and "k.cl:1:" in out and "__reads_from may only be used" in out, out


FUNPTR = """
typedef float (*op_t)(float);
__device__ float twice(float x) { return 2.0f * x; }
__device__ float half(float x) { return 0.5f * x; }
__device__ op_t choose(int shrink) {
  __requires(shrink != 0);
  __ensures(__return_val_funptr(op_t) == WHICH);
  return shrink ? half : twice;
}
__global__ void k(float *v, int shrink) {
  __requires(shrink != 0);
  op_t f = choose(shrink);
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  v[i] = f(v[i]);
}
"""


@pytest.mark.parametrize("which, code", [("half", VERIFIED), ("twice", NOT_VERIFIED)])
def test_return_val_funptr_compares_the_returned_function(tmp_path, which, code):
    got, out = verify(tmp_path, FUNPTR.replace("WHICH", which), "--no-inline", suffix=".cu")
    assert got == code, out
    if code == NOT_VERIFIED:
        assert "postcondition might not hold on all return paths" in out, out
