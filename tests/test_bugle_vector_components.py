"""Accesses to vector components (bugle/vector_components.py): ``G[i].y = e`` writes
only ``.y`` although clang emits a whole-vector read-modify-write, so work items assigning
different components of one vector do not race, and a race on a component is reported on
its bytes; ``x = G[i].y`` reads only ``.y``; whole-vector accesses in the source (through
a private copy, also from a macro) keep every component."""
from __future__ import annotations

import re

import pytest

from bugle.cc import compile_kernel
from bugle.translate import translate_ir
from vcgen import driver, il
from vcgen.il.errors import ExitCode
from vcgen.il.printer import expr_str

FLAGS = ("--local_size=64", "--num_groups=2")


def verify(tmp_path, capsys, src: str) -> tuple[int, str]:
    """(exit code, stdout + stderr) of ``gpuverify`` on the OpenCL kernel text ``src``."""
    path = tmp_path / "k.cl"
    path.write_text(src)
    with pytest.raises(SystemExit) as e:
        driver.main([str(path), *FLAGS])
    out = capsys.readouterr()
    return e.value.code, out.out + out.err


def accesses(tmp_path, src: str) -> tuple[list, list]:
    """(cells read, cells written) of array ``$$G``: the index expressions (text), in order."""
    path = tmp_path / "k.cl"
    path.write_text(src)
    k = translate_ir(compile_kernel(str(path)), None, str(path)).kernel()
    reads, writes = [], []
    for c in (c for b in k.blocks for c in b.cmds):
        if not isinstance(c, il.Assign):
            continue
        writes += [expr_str(lhs.index) for lhs in c.lhss if isinstance(lhs, il.MapLhs) and lhs.name == "$$G"]
        reads += [expr_str(x.index) for r in c.rhss for x in il.subexprs(r)
                  if isinstance(x, il.MapSelect) and x.map == il.Var("$$G")]
    return reads, writes


def kernel(body: str) -> str:
    return ("#define COPY_SET(p, c, v) { float4 t = G[p]; t.c = v; G[p] = t; }\n"
            "__kernel void k(__global float4 *G) {\n  unsigned gid = get_global_id(0);\n"
            f"{body}\n}}\n")


# two work items per vector: even ones assign .x, odd ones .y
DISTINCT = "  if (gid % 2 == 0) G[gid / 2].x = gid; else G[gid / 2].y = gid;"
DISTINCT_COMPOUND = "  if (gid % 2 == 0) G[gid / 2].s0 += 1.0f; else G[gid / 2].s1++;"
DISTINCT_SWIZZLE = "  if (gid % 2 == 0) G[gid / 2].xy = (float2)(gid, gid); else G[gid / 2].zw = (float2)(gid, gid);"


def test_component_assignment_writes_only_its_cell(tmp_path):
    reads, writes = accesses(tmp_path, kernel("  G[gid].y = gid;"))
    assert reads == []
    assert len(writes) == 1 and writes[0].endswith(", 1bv32)")


def test_compound_assignment_reads_and_writes_only_its_cell(tmp_path):
    reads, writes = accesses(tmp_path, kernel("  G[gid].s3 *= 2.0f;"))
    assert len(reads) == 1 and reads == writes and reads[0].endswith(", 3bv32)")


@pytest.mark.parametrize("body", [
    "  float4 t = G[gid]; t.y = gid; G[gid] = t;",
    "  COPY_SET(gid, y, gid)",
])
def test_whole_vector_copy_in_the_source_accesses_every_cell(tmp_path, body):
    reads, writes = accesses(tmp_path, kernel(body))
    assert len(reads) == 4 and len(writes) == 4


@pytest.mark.parametrize("body", [DISTINCT, DISTINCT_COMPOUND, DISTINCT_SWIZZLE])
def test_distinct_components_of_one_vector_do_not_race(tmp_path, capsys, body):
    code, out = verify(tmp_path, capsys, kernel(body))
    assert code == ExitCode.SUCCESS, out


def test_same_component_races_on_its_bytes(tmp_path, capsys):
    code, out = verify(tmp_path, capsys, kernel("  G[gid / 2].y = gid;"))
    assert code == ExitCode.NOT_ALL_VERIFIED
    assert re.search(r"possible write-write race on G\[\d+\] \(bytes 4\.\.7\)", out), out
    assert "bytes 0..3" not in out and "bytes 8..11" not in out and "bytes 12..15" not in out


@pytest.mark.parametrize("body", [
    "  float4 t = G[gid / 2]; if (gid % 2 == 0) t.x = gid; else t.y = gid; G[gid / 2] = t;",
    "  if (gid % 2 == 0) COPY_SET(gid / 2, x, gid) else COPY_SET(gid / 2, y, gid)",
])
def test_whole_vector_copies_of_distinct_components_race(tmp_path, capsys, body):
    code, out = verify(tmp_path, capsys, kernel(body))
    assert code == ExitCode.NOT_ALL_VERIFIED, out
    assert "race on G" in out


def reading_kernel(body: str) -> str:
    return ("#define COPY_GET(p, c) (tmp = G[p], tmp.c)\n#define GET_Y(p) G[p].y\n"
            "__kernel void k(__global float4 *G, __global float *out, __global int *idx) {\n"
            "  unsigned gid = get_global_id(0);\n  float4 tmp;\n"
            f"{body}\n}}\n")


def test_component_read_reads_only_its_cells(tmp_path):
    """``x = G[i].y``: clang loads the whole vector and extracts a lane; only the lane is
    read in the source (OpenCL C 6.1.7)."""
    reads, _ = accesses(tmp_path, reading_kernel("  out[gid] = G[gid].y + G[idx[gid]].w * G [gid] . s2;"))
    assert len(reads) == 3, reads
    assert [r[-8:] for r in reads] == [", 1bv32)", ", 3bv32)", ", 2bv32)"], reads


@pytest.mark.parametrize("body", [
    "  float4 t = G[gid]; out[gid] = t.y;",
    "  out[gid] = COPY_GET(gid, y);",
    "  out[gid] = GET_Y(gid);",  # at the macro's name: not narrowed (conservative)
    "  float4 t = G[gid]; out[gid] = t.x + t.y + t.z + t.w;",
])
def test_whole_vector_read_in_the_source_reads_every_cell(tmp_path, body):
    reads, _ = accesses(tmp_path, reading_kernel(body))
    assert len(reads) == 4, reads


def test_read_of_one_component_does_not_race_with_a_write_of_another(tmp_path, capsys):
    code, out = verify(tmp_path, capsys, reading_kernel(
        "  if (gid % 2 == 0) out[gid] = G[gid / 2].y; else G[gid / 2].x = gid;"))
    assert code == ExitCode.SUCCESS, out


@pytest.mark.parametrize("body, bytes_", [
    ("  if (gid % 2 == 0) out[gid] = G[gid / 2].y; else G[gid / 2].y = gid;", "4..7"),
    ("  if (gid % 2 == 0) { float4 t = G[gid / 2]; out[gid] = t.y; } else G[gid / 2].x = gid;", "0..3"),
    ("  if (gid % 2 == 0) out[gid] = COPY_GET(gid / 2, y); else G[gid / 2].x = gid;", "0..3"),
])
def test_component_reads_still_race_on_the_cells_they_read(tmp_path, capsys, body, bytes_):
    code, out = verify(tmp_path, capsys, reading_kernel(body))
    assert code == ExitCode.NOT_ALL_VERIFIED, out
    assert re.search(rf"possible (read-write|write-read) race on G\[\d+\] \(bytes {bytes_}\)", out), out


def test_a_component_assignment_in_a_header_is_found_from_a_relative_path(tmp_path, monkeypatch):
    """The kernel named relative to the working directory (``gpuverify sub/k.cl``) and its
    header named relative to the kernel (``#include "../h.h"``): clang records the header
    as ``sub/../h.h`` in the kernel's directory, which is no file, so the header's text
    must be read relative to the working directory, as the annotations' is; the
    translation is the same as from the absolute path."""
    (tmp_path / "h.h").write_text("static void set_y(__global float4 *G, unsigned i) {\n"
                                  "  G[i].y = i;\n}\n")
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "k.cl").write_text('#include "../h.h"\n__kernel void k(__global float4 *G) {\n'
                              "  set_y(G, get_global_id(0));\n}\n")
    monkeypatch.chdir(tmp_path)
    found = []
    for path in ("sub/k.cl", str(sub / "k.cl")):
        k = translate_ir(compile_kernel(path), None, path).kernel()
        found.append([x for b in k.blocks for c in b.cmds if isinstance(c, il.Assign)
                      for r in c.rhss for x in il.subexprs(r)
                      if isinstance(x, il.MapSelect) and x.map == il.Var("$$G")])
    assert found == [[], []]  # ``.y = e`` writes its cell only: no read of the vector
