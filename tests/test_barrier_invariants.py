"""Barrier invariants (bugle/barrier_invariants.py, vcgen/twothread/barrier_invariants.py;
Chong et al., OOPSLA 2013), ``__array_snapshot``, ``__read_permission`` and barriers with
computed fence flags: the IL shapes, and kernels where each holds and where it fails."""
from __future__ import annotations

import re

import pytest

from bugle.cc import compile_kernel
from bugle.translate import translate_ir
from vcgen import driver, il
from vcgen.il.errors import ExitCode

FLAGS = ("--local_size=64", "--num_groups=2")


def verify(tmp_path, capsys, src: str, *extra: str) -> tuple:
    """(exit code, stdout + stderr) of ``gpuverify`` on the OpenCL kernel text ``src``."""
    path = tmp_path / "k.cl"
    path.write_text(src)
    with pytest.raises(SystemExit) as e:
        driver.main([str(path), *FLAGS, *extra])
    out = capsys.readouterr()
    return e.value.code, out.out + out.err


def gbpl(tmp_path, src: str) -> il.Program:
    path = tmp_path / "k.cl"
    path.write_text(src)
    return translate_ir(compile_kernel(str(path)), None, str(path))


def kernel(body: str, params: str = "") -> str:
    return (f"__kernel void k({params}) {{\n  __local int A[64];\n  unsigned lid = get_local_id(0);\n"
            f"{body}\n}}\n")


WRITE_OWN = "  A[lid] = lid;\n"
UNARY = WRITE_OWN + "  __barrier_invariant_1(A[lid] == lid, lid);\n  barrier(CLK_LOCAL_MEM_FENCE);\n"
BINARY = WRITE_OWN + ("  __barrier_invariant_binary_1(A[lid] != A[__other_int(lid)], lid, __other_int(lid));\n"
                      "  barrier(CLK_LOCAL_MEM_FENCE);\n")


# ------------------------------------------------------------------ IL shapes

def test_invariant_is_one_assert_before_its_barrier_with_map_reads(tmp_path):
    k = gbpl(tmp_path, kernel(WRITE_OWN + "  __barrier_invariant_2(A[lid] == lid, lid, lid + 1);\n"
                              "  barrier(CLK_LOCAL_MEM_FENCE);\n")).kernel()
    cmds = [c for b in k.blocks for c in b.cmds]
    inv = [c for c in cmds if isinstance(c, il.Assert) and il.has_attr(c.attrs, "barrier_invariant")]
    assert len(inv) == 1
    instances = il.attr(inv[0].attrs, "instances")
    assert instances is not None and len(instances.args) == 2
    assert any(isinstance(x, il.MapSelect) and x.map == il.Var("$$A") for x in il.subexprs(inv[0].expr))
    # the invariant's read is not an access: the only access of A is the write
    reads = [c for c in cmds if isinstance(c, il.Assign) and any(isinstance(r, il.MapSelect) for r in c.rhss)]
    assert reads == []
    at = cmds.index(inv[0])
    assert any(isinstance(c, il.Call) and c.proc == "$bugle_barrier" for c in cmds[at:])


def test_binary_invariant_keeps_other_queries(tmp_path):
    k = gbpl(tmp_path, kernel(BINARY)).kernel()
    inv = next(c for b in k.blocks for c in b.cmds
               if isinstance(c, il.Assert) and il.has_attr(c.attrs, "barrier_invariant_binary"))
    assert any(isinstance(x, il.FunApp) and x.name.startswith("__other") for x in il.subexprs(inv.expr))


def test_computed_fence_flags_pass_the_thread_bits(tmp_path):
    k = gbpl(tmp_path, kernel("  int f = lid < 32 ? CLK_LOCAL_MEM_FENCE : CLK_GLOBAL_MEM_FENCE;\n"
                              "  A[lid] = 1;\n  barrier(f);\n")).kernel()
    call = next(c for b in k.blocks for c in b.cmds if isinstance(c, il.Call) and c.proc == "$bugle_barrier")
    assert [type(a) for a in call.args] == [il.BvExtract, il.BvExtract]
    assert [(a.hi, a.lo) for a in call.args] == [(1, 0), (2, 1)]


# ------------------------------------------------------------------ meaning

def test_unary_invariant_proves_what_the_equality_abstraction_cannot(tmp_path, capsys):
    assert_after = "  __assert(A[lid] == lid);\n"
    code, out = verify(tmp_path, capsys, kernel(UNARY + assert_after))
    assert code == 0, out
    code, out = verify(tmp_path, capsys, kernel(WRITE_OWN + "  barrier(CLK_LOCAL_MEM_FENCE);\n" + assert_after))
    assert code == ExitCode.NOT_ALL_VERIFIED, out


def test_false_invariant_is_reported_at_its_line(tmp_path, capsys):
    code, out = verify(tmp_path, capsys, kernel(
        WRITE_OWN + "  if (lid == 5) A[lid] = 0;\n  __barrier_invariant_1(A[lid] == lid, lid);\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"))
    assert code == ExitCode.NOT_ALL_VERIFIED
    # the invariant fails for local id 5 in every group; which group the model picks is the
    # solver's choice (group 0 prints as "work item 5")
    assert re.search(r"k\.cl:6:3: error: this barrier invariant might not hold for work item "
                     r"(5\b|\d+ with local id 5 in work group \d+)", out), out


def test_reading_another_work_items_write_needs_permission(tmp_path, capsys):
    src = kernel(WRITE_OWN + "  __barrier_invariant_1(A[(lid + 1) % 64] == (lid + 1) % 64, lid);\n"
                 "  barrier(CLK_LOCAL_MEM_FENCE);\n")
    code, out = verify(tmp_path, capsys, src)
    assert code == ExitCode.NOT_ALL_VERIFIED
    assert "insufficient permission may be held for evaluation of this barrier invariant" in out
    code, out = verify(tmp_path, capsys, src, "--no-barrier-access-checks")
    assert "insufficient permission" not in out


def test_instances_outside_the_group_are_not_assumed(tmp_path, capsys):
    code, out = verify(tmp_path, capsys, kernel(
        WRITE_OWN + "  __barrier_invariant_1(A[lid] == lid, lid + 1);\n  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  __assert(A[lid + 1] == lid + 1);\n"))
    assert code == ExitCode.NOT_ALL_VERIFIED
    assert "local id 63" in out  # lid + 1 = 64 names no work item: nothing assumed for it


def test_binary_invariant_holds_and_fails(tmp_path, capsys):
    code, out = verify(tmp_path, capsys, kernel(
        BINARY + "  __assert(__implies(__same_group, A[lid] != A[__other_int(lid)]));\n"))
    assert code == 0, out
    code, out = verify(tmp_path, capsys, kernel(
        BINARY + "  A[lid] = A[lid] % 2;\n"
        "  __barrier_invariant_binary_1(A[lid] != A[__other_int(lid)], lid, __other_int(lid));\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"))
    assert code == ExitCode.NOT_ALL_VERIFIED
    assert "this barrier invariant might not hold" in out


def test_snapshot_ghost_array(tmp_path, capsys):
    body = ("  __local int G[64];\n  A[lid] = lid;\n  __array_snapshot(G, A);\n  A[lid] = A[lid] + 3;\n"
            "  __read_permission(int, G[lid]);\n"
            "  __barrier_invariant_1(A[lid] == G[lid] + DELTA, lid);\n  barrier(CLK_LOCAL_MEM_FENCE);\n"
            "  __assert(A[lid] == G[lid] + 3);\n")
    code, out = verify(tmp_path, capsys, kernel(body.replace("DELTA", "3")))
    assert code == 0, out
    code, out = verify(tmp_path, capsys, kernel(body.replace("DELTA", "4")))
    assert code == ExitCode.NOT_ALL_VERIFIED
    assert "this barrier invariant might not hold" in out


def test_snapshot_target_must_be_a_ghost(tmp_path, capsys):
    code, out = verify(tmp_path, capsys, kernel(
        "  __local int G[64];\n  A[lid] = lid;\n  __array_snapshot(G, A);\n  G[lid] = 0;\n"))
    assert code == ExitCode.BUGLE_ERROR
    assert "ghost array G" in out


def test_invariant_without_barrier_is_an_error(tmp_path, capsys):
    code, out = verify(tmp_path, capsys, kernel(WRITE_OWN + "  __barrier_invariant_1(A[lid] == lid, lid);\n"))
    assert code == ExitCode.BUGLE_ERROR
    assert "must be followed by a barrier" in out


def test_invariant_on_a_non_uniform_local_is_an_error(tmp_path, capsys):
    code, out = verify(tmp_path, capsys, kernel(
        "  int v = A[lid];\n  A[lid] = v;\n  __barrier_invariant_1(A[lid] == v, lid);\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"))
    assert code == ExitCode.GPUVERIFYVCGEN_ERROR
    assert "uniform local values" in out


def test_annotation_read_at_other_index_reads_the_other_copy(tmp_path, capsys):
    # before any barrier each work item has written only its own element: the other
    # work item's element is read from its own copy, where its write is
    code, out = verify(tmp_path, capsys, kernel(
        WRITE_OWN + "  __assert(__implies(__same_group, A[__other_int(lid)] == __other_int(lid)));\n"))
    assert code == 0, out


def test_computed_fence_is_read_per_work_item(tmp_path, capsys):
    src = kernel("  int f = lid == 0 ? FLAG : 0;\n  if (lid == 0) A[0] = 1;\n  barrier(f);\n"
                 "  if (lid == 1) A[1] = A[0];\n")
    code, out = verify(tmp_path, capsys, src.replace("FLAG", "CLK_LOCAL_MEM_FENCE"))
    assert code == 0, out
    code, out = verify(tmp_path, capsys, src.replace("FLAG", "CLK_GLOBAL_MEM_FENCE"))
    assert code == ExitCode.NOT_ALL_VERIFIED
    assert "possible write-read race on A[0]" in out
