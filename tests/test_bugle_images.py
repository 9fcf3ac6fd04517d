"""OpenCL images as global arrays (bugle/images.py, docs/IL.md "Images"): IL shape of
image arguments, reads, writes and queries, and race verdicts end to end."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bugle.cc import compile_kernel
from bugle.translate import translate_ir
from vcgen import il
from vcgen.il.errors import ExitCode, ToolError
from vcgen.il.parser import parse_program
from vcgen.il.printer import program_str
from vcgen.il.typecheck import typecheck

# the driver of the environment running the tests (editable install or wheel)
GPUVERIFY = [sys.executable, "-m", "vcgen.driver"]
CL20 = "--clang-opt=-cl-std=CL2.0"

BLUR = """
__kernel void k(__read_only image2d_t src, __write_only image2d_t dst, sampler_t s) {
  int x = get_global_id(0), y = get_global_id(1);
  int w = get_image_width(src), h = get_image_height(src);
  float4 sum = read_imagef(src, s, (float2)(x, y));
  for (int d = -1; d <= 1; d++)
    sum += read_imagef(src, (int2)(clamp(x + d, 0, w - 1), y));
  write_imagef(dst, (int2)(x, y), sum);
}
"""


def translate(tmp_path: Path, text: str, *opts: str) -> il.Program:
    f = tmp_path / "k.cl"
    f.write_text(text)
    return translate_ir(compile_kernel(str(f), clang_opts=opts), source_path="k.cl")


def run(tmp_path: Path, text: str, *flags: str) -> subprocess.CompletedProcess:
    f = tmp_path / "k.cl"
    f.write_text(text)
    return subprocess.run([*GPUVERIFY, str(f), "--local_size=8,8", "--num_groups=2,2", *flags],
                          capture_output=True, text=True, timeout=300)


def cmds(p: il.Program) -> list:
    return [c for b in p.kernel().blocks for c in b.cmds]


def test_image_arguments_are_global_arrays_of_pixels(tmp_path):
    p = translate(tmp_path, BLUR)
    assert parse_program(program_str(p)) == p
    typecheck(p)
    decls = {d.name: d for d in p.decls if isinstance(d, il.VarDecl)}
    src, dst = decls["$$src"], decls["$$dst"]
    assert src.type == il.MapType(il.BvType(64), il.BvType(128))  # y ++ x -> 4 x 32 bits
    assert il.has_attr(src.attrs, "global")
    assert il.attr(src.attrs, "image").args == ("image2d_t", "read_only")
    assert il.attr(dst.attrs, "image").args == ("image2d_t", "write_only")
    assert il.attr(src.attrs, "elem_width").args[0].value == 128
    # sizes are uniform kernel parameters; the sampler is a bv32 parameter
    params = dict(p.kernel().params)
    assert params["$src$width"] == params["$src$height"] == params["$s"] == il.BV32
    assert p.kernel().modifies == ("$$dst",)


def test_reads_and_writes_are_array_accesses(tmp_path):
    p = translate(tmp_path, BLUR)
    text = program_str(p)
    reads = [c for c in cmds(p) if isinstance(c, il.Assign) and isinstance(c.rhss[0], il.MapSelect)]
    writes = [c for c in cmds(p) if isinstance(c, il.Assign) and isinstance(c.lhss[0], il.MapLhs)]
    assert {c.rhss[0].map.name for c in reads} == {"$$src"}
    assert [c.lhss[0].name for c in writes] == ["$$dst"]
    # exact pixel y ++ x for the write, four 32-bit components packed w ++ z ++ y ++ x
    assert isinstance(writes[0].lhss[0].index, il.BvConcat)
    value = writes[0].rhss[0]
    assert isinstance(value, il.BvConcat) and isinstance(value.left, il.Var)
    # float coordinates: an arbitrary cell; integer ones: exact inside the image
    float_read, int_read = reads[0], reads[-1]
    assert isinstance(float_read.rhss[0].index, il.Var)
    assert isinstance(int_read.rhss[0].index, il.IfThenElse)
    assert "BV32_SLT" in text and "$src$width" in text
    # every access right after its marker
    body = cmds(p)
    for c in reads + writes:
        prev = body[body.index(c) - 1]
        assert isinstance(prev, il.Assume) and il.has_attr(prev.attrs, "sourceloc")


def test_three_d_and_one_d_indices(tmp_path):
    p = translate(tmp_path, """
__kernel void k(read_only image3d_t a, write_only image3d_t b, write_only image1d_t c) {
  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  write_imagef(b, (int4)(x, y, z, 0), read_imagef(a, (int4)(x, y, z, 0)));
  write_imagei(c, x, (int4)(get_image_depth(a)));
}""")
    typecheck(p)
    types = {d.name: d.type for d in p.decls if isinstance(d, il.VarDecl)}
    assert types["$$a"].domain == types["$$b"].domain == il.BvType(96)
    assert types["$$c"].domain == il.BvType(32)
    assert "$a$depth" in dict(p.kernel().params)


def test_image_size_usable_in_requires(tmp_path):
    p = translate(tmp_path, """
__kernel void k(read_only image2d_t a, write_only image2d_t b) {
  __requires(get_image_width(a) == 64);
  write_imagef(b, (int2)(get_global_id(0), 0), read_imagef(a, (int2)(0, 0)));
}""")
    reqs = [s for s in p.kernel().specs if s.kind == "requires"]
    user = [s.expr for s in reqs if il.has_attr(s.attrs, "sourceloc")]
    assert user == [il.BinOp("==", il.Var("$a$width"), il.BvLit(64, 32))]
    sizes = [s.expr for s in reqs if il.has_attr(s.attrs, "image_size")]
    assert sizes == [il.FunApp("BV32_SGT", (il.Var(f"$a${w}"), il.BvLit(0, 32))) for w in ("width", "height")]


def test_sampler_constant_is_its_flag_word(tmp_path):
    p = translate(tmp_path, """
__constant sampler_t smp = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
__kernel void k(read_only image2d_t a, write_only image2d_t b) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  write_imageui(b, p, read_imageui(a, smp, p));
}""")
    assert il.BvLit(0x12, 32) in [c.rhss[0] for c in cmds(p) if isinstance(c, il.Assign)]


@pytest.mark.parametrize("text,what", [
    ("__kernel void k(read_only image2d_array_t a, __global float4 *o) {\n"
     "  o[0] = read_imagef(a, (int4)(0));\n}", "read_imagef on image2d_array_t"),
    ("__kernel void k(read_only image1d_buffer_t a, __global float4 *o) {\n"
     "  o[0] = read_imagef(a, 0);\n}", "read_imagef on image1d_buffer_t"),
])
def test_unsupported_is_a_bugle_error_with_line(tmp_path, text, what):
    with pytest.raises(ToolError) as e:
        translate(tmp_path, text)
    assert e.value.code == ExitCode.BUGLE_ERROR
    assert what in str(e.value)
    assert ":2:" in str(e.value) or ":1:" in str(e.value)


COPY = """
__kernel void k(IMG a, write_only image2d_t b) {
  int x = get_global_id(0), y = get_global_id(1);
  BODY
}
"""


@pytest.mark.parametrize("img,body,code", [
    # read-only image read by everybody, own pixel written: no race
    ("read_only image2d_t", "write_imagef(b, (int2)(x, y), read_imagef(a, (int2)(y, x)));", 0),
    # two work items write one pixel
    ("read_only image2d_t", "write_imagef(b, (int2)(x / 2, y), read_imagef(a, (int2)(x, y)));", 6),
    # a neighbour's pixel read while it is written
    ("read_write image2d_t", "float4 v = read_imagef(a, (int2)(x + 1, y));\n"
                             "  write_imagef(a, (int2)(x, y), v);", 6),
    # each work item reads and rewrites its own pixel, inside the image
    ("read_write image2d_t", "if (x < get_image_width(a) && y < get_image_height(a))\n"
                             "    write_imagef(a, (int2)(x, y), 2 * read_imagef(a, (int2)(x, y)));", 0),
    # unguarded: an image smaller than the grid maps the read outside onto another pixel
    ("read_write image2d_t", "write_imagef(a, (int2)(x, y), 2 * read_imagef(a, (int2)(x, y)));", 6),
])
def test_race_verdicts(tmp_path, img, body, code):
    r = run(tmp_path, COPY.replace("IMG", img).replace("BODY", body), CL20)
    assert r.returncode == code, r.stdout + r.stderr
    if code:
        assert "race on" in r.stdout + r.stderr


FENCED = """
__kernel void k(read_write image2d_t a BUFFER_PARAM) {
  __requires(get_image_width(a) == 16);
  __requires(get_image_height(a) == 16);
  int x = get_global_id(0), y = get_global_id(1);
  write_imagef(a, (int2)(x, y), (float4)(1.0f));
  barrier(FLAGS);
  float4 v = read_imagef(a, (int2)(x ^ 1, y));
  barrier(FLAGS);
  write_imagef(a, (int2)(x, y), v);
  BUFFER
}
"""


@pytest.mark.parametrize("flags,buffer,code", [
    ("CLK_IMAGE_MEM_FENCE", "", 0),
    ("CLK_GLOBAL_MEM_FENCE | CLK_IMAGE_MEM_FENCE", "out[y * 16 + x] = v;", 0),
    ("CLK_LOCAL_MEM_FENCE", "", 6),
    ("CLK_GLOBAL_MEM_FENCE", "", 6),    # buffers only: the image is not fenced
    ("CLK_GLOBAL_MEM_FENCE", "out[y * 16 + x] = v;", 4),  # one IL fence bit cannot tell them apart
])
def test_image_fence(tmp_path, flags, buffer, code):
    text = FENCED.replace("BUFFER_PARAM", ", __global float4 *out" if buffer else "")
    r = run(tmp_path, text.replace("FLAGS", flags).replace("BUFFER", buffer), CL20)
    assert r.returncode == code, r.stdout + r.stderr
    if code == 4:
        assert "CLK_IMAGE_MEM_FENCE" in r.stderr and ":7:" in r.stderr
