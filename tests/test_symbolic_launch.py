"""Symbolic launch sizes (issue 13, ``vcgen/twothread/launch.py``, docs/design.md 5.1):
parsing ``*``, the launch space (at least one work item, device limits, ``__requires``),
one-thread launches among the symbolic ones, and the sizes a report gives."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from vcgen.il.errors import ToolError
from vcgen.twothread.launch import launch_config, parse_dims

ROOT = Path(__file__).resolve().parent.parent
VERIFIED, NOT_VERIFIED = 0, 6


def verify(tmp_path: Path, name: str, src: str, *flags: str) -> tuple:
    k = tmp_path / name
    k.write_text(src)
    p = subprocess.run([sys.executable, "-m", "vcgen.driver", *flags, str(k)], capture_output=True, text=True,
                       cwd=ROOT, timeout=600)
    return p.returncode, p.stdout + p.stderr


def test_parse_star():
    assert parse_dims("--blockDim", "*") == (None, 1, 1)
    assert parse_dims("--blockDim", "[*, 16]") == (None, 16, 1)
    assert parse_dims("--blockDim", "[8,*,*]") == (8, None, None)


def test_launch_config_symbolic():
    lc = launch_config(local_size="*", global_size="1024")
    assert lc.local_size == (None, 1, 1) and lc.num_groups == (None, 1, 1) and lc.global_size == (1024, 1, 1)
    lc = launch_config(local_size="64", global_size="*")
    assert lc.num_groups == (None, 1, 1) and lc.global_size is None
    assert launch_config().unspecified and launch_config().local_size == (None, None, None)
    with pytest.raises(ToolError):
        launch_config(block_dim="*")  # one of the two sizes alone


ONE_THREAD_ASSERT = """__global__ void k(int *out) {
  if (blockDim.x * gridDim.x == 1)
    __assert(out[0] == 7);
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}"""


def test_one_thread_launch_is_among_symbolic(tmp_path):
    """An assertion reachable only in a launch of one thread still fails with symbolic
    sizes (the distinctness axiom does not exclude that launch)."""
    code, out = verify(tmp_path, "k.cu", ONE_THREAD_ASSERT, "--blockDim=*", "--gridDim=*")
    assert code == NOT_VERIFIED and "this assertion might not hold" in out, out
    assert "Launch with blockDim = (1, 1, 1), gridDim = (1, 1, 1)" in out, out


def test_device_limit_on_block_size(tmp_path):
    """At most 1024 threads per block: an assertion that holds only up to that limit verifies,
    one past it does not."""
    src = "__global__ void k(int *out) {{ __assert(blockDim.x <= {n}); out[threadIdx.x] = 0; }}"
    assert verify(tmp_path, "a.cu", src.format(n=1024), "--blockDim=*", "--gridDim=1")[0] == VERIFIED
    code, out = verify(tmp_path, "b.cu", src.format(n=1023), "--blockDim=*", "--gridDim=1")
    assert code == NOT_VERIFIED and "Launch with blockDim = (1024, 1, 1)" in out, out


def test_global_size_fixes_the_product(tmp_path):
    """``--global_size=256 --local_size=*``: the counterexample's sizes multiply to 256."""
    src = "__kernel void k(__global int *A) { A[get_local_id(0)] = get_group_id(0); }"
    code, out = verify(tmp_path, "k.cl", src, "--global_size=256", "--local_size=*")
    m = re.search(r"Launch with local_size = \((\d+), 1, 1\), num_groups = \((\d+), 1, 1\)", out)
    assert code == NOT_VERIFIED and m and int(m.group(1)) * int(m.group(2)) == 256, out


def test_requires_restricts_sizes(tmp_path):
    """A race that needs more than one group disappears under ``__requires`` of one group,
    and no size at all means every size is symbolic, said in the report."""
    src = "__kernel void k(__global int *A) {{ {req} A[get_local_id(0)] = get_group_id(0); }}"
    assert verify(tmp_path, "a.cl", src.format(req="__requires(get_num_groups(0) == 1);"),
                  "--local_size=*", "--num_groups=*")[0] == VERIFIED
    code, out = verify(tmp_path, "b.cl", src.format(req=""))
    assert code == NOT_VERIFIED and "no launch size was given" in out, out
    code, out = verify(tmp_path, "c.cl", src.format(
        req="__requires(get_num_groups(0) == 1 && get_num_groups(1) == 1 && get_num_groups(2) == 1 "
            "&& get_local_size(1) == 1 && get_local_size(2) == 1);"))
    assert code == VERIFIED and "for every launch with local_size = (*, *, *)" in out, out


BUFFER_ASSERT = """__kernel void k(__global {t} *x) {{
  __assert(get_global_size(0) <= {n}u);
  x[get_global_id(0)] = 0;
}}"""


@pytest.mark.parametrize("elem,limit", [("float", 2 ** 30), ("float4", 2 ** 28)])
def test_buffer_fits_address_space(tmp_path, elem, limit):
    """32-bit global offsets: a symbolic launch has at most 2^32 / E work items (E the bytes
    of the widest global element), so ``x[get_global_id(0)]`` cannot wrap around; the bound
    is exact (one more work item is a counterexample) and the proof states it."""
    code, out = verify(tmp_path, "a.cl", BUFFER_ASSERT.format(t=elem, n=limit), "--local_size=*", "--num_groups=*")
    assert code == VERIFIED and f"at most {limit} work items in all" in out, out
    code, out = verify(tmp_path, "b.cl", BUFFER_ASSERT.format(t=elem, n=limit - 1), "--local_size=*",
                       "--num_groups=*")
    m = re.search(r"Launch with local_size = \((\d+), 1, 1\), num_groups = \((\d+), 1, 1\)", out)
    assert code == NOT_VERIFIED and m and int(m.group(1)) * int(m.group(2)) == limit, out


def test_buffer_bound_from_widest_write(tmp_path):
    """A ``uchar`` buffer written as ``uint`` has 4-byte elements: ``words[gid]`` never wraps
    (with 1-byte elements it would race for 2^30 work items or more)."""
    src = """__kernel void k(__global uchar *buf) {
  __global uint *words = (__global uint *)buf;
  words[get_global_id(0)] = 1u;
}"""
    code, out = verify(tmp_path, "k.cl", src, "--local_size=*", "--num_groups=*")
    assert code == VERIFIED and "at most 1073741824 work items in all" in out, out


def test_buffer_limit_axioms():
    """``buffer_limit`` takes the widest element of the 32-bit global arrays (64-bit ones and
    group-shared ones bound nothing), and a 2-D symbolic launch gets the chain axiom over the
    dimensions' global sizes."""
    from dataclasses import replace

    from vcgen import il
    from vcgen.il.printer import expr_str
    from vcgen.twothread.builder import ProgramBuilder
    from vcgen.twothread.launch import OPENCL_LIMITS, buffer_limit, symbolic_size_axioms

    def array(space: str, index: int, cell: int, source: int | None = None) -> il.VarDecl:
        attrs = (il.Attr(space), il.Attr("elem_width", (il.IntLit(cell),))) + \
            ((il.Attr("source_elem_bytes", (il.IntLit(source),)),) if source else ())
        return il.VarDecl("$$a", il.MapType(il.BvType(index), il.BvType(cell)), attrs)
    assert buffer_limit([array("global", 32, 32)]) == 2 ** 30
    assert buffer_limit([array("global", 32, 32, 20), array("global", 32, 8)]) == 2 ** 32 // 20
    assert buffer_limit([array("global", 64, 32), array("group_shared", 32, 64)]) is None
    assert buffer_limit([array("global", 32, 8)], {"$$a": 8}) == 2 ** 29
    lc = launch_config(local_size="[*,*]", num_groups="[*,*]")
    declared = {f"{k}_{d}" for k in ("group_size", "num_groups") for d in "xyz"}
    axioms = symbolic_size_axioms(lc, replace(OPENCL_LIMITS, work_items=2 ** 30), ProgramBuilder(set()), declared)
    text = [expr_str(a.expr) for a in axioms]
    assert any("1073741824bv64" in t and t.count("BV64_MUL") == 3 for t in text), text


@pytest.mark.parametrize("kernel,flags,exhibits", [
    ("opencl/segment_counts_bug_partial.cl", ("--local_size=*", "--num_groups=*"),
     lambda block, grid: block % 32 != 0 and grid >= 2),
    ("cuda/warp_partials_bug_partialwarp.cu", ("--blockDim=*", "--gridDim=*"),
     lambda block, grid: block % 32 != 0 and grid >= 2),
    ("cuda/block_normalize_bug_grid.cu", ("--blockDim=*", "--gridDim=*"), lambda block, grid: grid >= 2),
    ("opencl/final_reduce_bug_groups.cl", ("--local_size=*", "--num_groups=*"), lambda block, grid: grid >= 2),
    ("cuda/chunk_reverse_bug_oversize.cu", ("--blockDim=*", "--gridDim=*"), lambda block, grid: block > 128),
    ("opencl/pair_sums_bug_odd.cl", ("--local_size=*", "--num_groups=*"),
     lambda block, grid: block % 2 == 1 and grid >= 2),
    ("cuda/scale_short_index_bug_bigrid.cu", ("--blockDim=*", "--gridDim=*"),
     lambda block, grid: block * grid > 65536),
    ("opencl/image_rows_bug_localrow.cl", ("--local_size=[*,*]", "--num_groups=[*,*]"),
     lambda block, grid: grid[1] >= 2),
])
def test_size_dependent_race_sizes(kernel, flags, exhibits):
    """Corpus races that exist only for some launch sizes (a block size that is not a
    multiple of 32, more than one block, more than 128 threads per block, an odd block
    size, more than 65536 threads, more than one row of groups): the report's
    counterexample sizes are ones that exhibit the race (the correct twins, with their
    ``__requires``, verify with symbolic sizes: tests/test_symbolic_corpus.py).
    ``exhibits`` gets the x sizes of a 1-D launch, the (x, y, z) sizes of a 2-D one."""
    p = subprocess.run([sys.executable, "-m", "vcgen.driver", *flags, str(ROOT / "corpus" / kernel)],
                       capture_output=True, text=True, cwd=ROOT, timeout=600)
    out = p.stdout + p.stderr
    m = re.search(r"Launch with (?:blockDim|local_size) = \((\d+), (\d+), (\d+)\), "
                  r"(?:gridDim|num_groups) = \((\d+), (\d+), (\d+)\)", out)
    assert p.returncode == NOT_VERIFIED and "race on" in out and m, out
    block, grid = tuple(int(g) for g in m.groups()[:3]), tuple(int(g) for g in m.groups()[3:])
    if "[" in flags[0]:
        assert exhibits(block, grid), out
    else:
        assert block[1:] == grid[1:] == (1, 1) and exhibits(block[0], grid[0]), out


def test_group_coordinates_lemma_is_valid():
    """``group_coordinates_lemma`` (async copies of ``group_id * n + k``, ``k < n``) follows
    from the launch axioms of a symbolic launch (ids below the sizes, the global size below
    2^32): z3 finds no counterexample; without the bound on the global size it does (the
    product wraps), so the lemma adds what the solver would otherwise have to derive.  The
    group size is fixed per query (a few values, the group count symbolic): for a symbolic
    one the proof is the bit-level one the lemma spares the solver (minutes)."""
    import z3

    from vcgen import il
    from vcgen.twothread.builder import ProgramBuilder
    from vcgen.twothread.launch import OPENCL_LIMITS, group_coordinates_lemma, symbolic_size_axioms
    from vcgen.vc.encode import Translator

    b = ProgramBuilder(set())
    lemma = group_coordinates_lemma(b, "x", il.Var("k$1"), il.Var("k$2"))
    names = ("group_id_x$1", "group_id_x$2", "group_size_x", "num_groups_x", "k$1", "k$2")
    lc = launch_config(local_size="*", num_groups="*")
    axioms = [a.expr for a in symbolic_size_axioms(lc, OPENCL_LIMITS, b, {"group_size_x", "num_groups_x"})]
    ids = [il.FunApp(b.bvfun("ULT", 32), (il.Var(f"group_id_x${t}"), il.Var("num_groups_x"))) for t in (1, 2)]
    prog = il.Program(tuple(il.ConstDecl(n, il.BV32) for n in names) + tuple(b.new_functions.values()))
    tr = Translator(prog, z3.Context())

    def counterexample(*facts: il.Expr) -> bool:
        s = z3.Solver(ctx=tr.ctx)
        s.add(*(tr.term(f) for f in facts), z3.Not(tr.term(lemma)))
        return s.check() == z3.sat
    for n in (1, 2, 3, 64, 1024):  # powers of two and small: quick to bit-blast
        size = il.BinOp("==", il.Var("group_size_x"), il.BvLit(n, 32))
        assert not counterexample(size, *axioms, *ids), n
        assert counterexample(size, *ids) == (n > 1), n


@pytest.mark.parametrize("width", [6, 8])
def test_division_lemma_is_valid(width):
    """``division_lemma`` (the shared core of ``group_coordinates_lemma``) holds for all
    bit-vector values of quotients, divisor and remainders once ``q_t * n + x_t`` does not
    wrap (stated on zero-extended products): z3 proves it over every value of a small
    width, and finds the counterexample without the no-wrap premise."""
    import z3

    from vcgen import il
    from vcgen.twothread.builder import ProgramBuilder
    from vcgen.twothread.launch import division_lemma
    from vcgen.vc.encode import Translator

    b = ProgramBuilder(set())
    names = ("q1", "q2", "n", "x1", "x2")
    q1, q2, n, x1, x2 = (il.Var(v) for v in names)
    lemma = division_lemma(b, (q1, q2), n, (x1, x2), width)
    prog = il.Program(tuple(il.ConstDecl(v, il.BvType(width)) for v in names) + tuple(b.new_functions.values()))
    tr = Translator(prog, z3.Context())
    q1z, q2z, nz, x1z, x2z = (tr.term(il.Var(v)) for v in names)
    no_wrap = [z3.ULT(z3.ZeroExt(width, q) * z3.ZeroExt(width, nz) + z3.ZeroExt(width, x), 2 ** width)
               for q, x in ((q1z, x1z), (q2z, x2z))]

    def counterexample(*facts) -> bool:
        s = z3.Solver(ctx=tr.ctx)
        s.add(*facts, z3.Not(tr.term(lemma)))
        return s.check() == z3.sat
    assert not counterexample(*no_wrap)
    assert counterexample()


BRANCH_INDEX = """__kernel void k(__global int *out) {
  unsigned i = get_global_id(0);
  if (COND) {
    unsigned j = i / 2;
    out[j] = i;
  }
}"""


@pytest.mark.parametrize("cond,expected", [("i % 2 == 0", VERIFIED), ("i > 0", NOT_VERIFIED)])
def test_index_assigned_under_branch(tmp_path, cond, expected):
    """An index assigned once under a divergent branch (``j``: assigned unpredicated per
    thread, ``uniformity.once_vars``) with symbolic sizes: halving even global ids is
    race-free, halving all of them from 1 on is not (work items 2 and 3 write ``out[1]``),
    and the report gives sizes with at least 4 work items."""
    code, out = verify(tmp_path, "k.cl", BRANCH_INDEX.replace("COND", cond), "--local_size=*", "--num_groups=*")
    assert code == expected, out
    if expected == NOT_VERIFIED:
        m = re.search(r"Launch with local_size = \((\d+), 1, 1\), num_groups = \((\d+), 1, 1\)", out)
        assert "race on" in out and m and int(m.group(1)) * int(m.group(2)) >= 4, out


def test_division_lemma_on_zero_extended_values_is_valid():
    """The 64-bit form of the group-coordinates lemma (``AsyncCopies._coordinate_lemmas``
    with ``--spir64``): quotient and divisor zero-extended from half the width, remainders
    below the divisor -- valid with no premise at all, ``(q + 1) * n`` cannot reach
    ``2^width``.  Proved by z3 for every value at widths 12 and 16 (6- and 8-bit ids)."""
    import z3

    from vcgen import il
    from vcgen.twothread.builder import ProgramBuilder
    from vcgen.twothread.launch import division_lemma
    from vcgen.vc.encode import Translator

    for half in (6, 8):
        b = ProgramBuilder(set())
        zext = f"BV{half}_ZEXT{2 * half}"
        small, wide = il.BvType(half), il.BvType(2 * half)
        decls = (il.FunctionDecl(zext, (("x", small),), wide, attrs=(il.Attr("bvbuiltin", (f"zero_extend {half}",)),)),
                 il.ConstDecl("g1", small), il.ConstDecl("g2", small), il.ConstDecl("n", small),
                 il.ConstDecl("x1", wide), il.ConstDecl("x2", wide))

        def z(v: str) -> il.Expr:
            return il.FunApp(zext, (il.Var(v),))
        lemma = division_lemma(b, (z("g1"), z("g2")), z("n"), (il.Var("x1"), il.Var("x2")), 2 * half)
        tr = Translator(il.Program(decls + tuple(b.new_functions.values())), z3.Context())
        s = z3.Solver(ctx=tr.ctx)
        s.add(z3.Not(tr.term(lemma)))
        assert s.check() == z3.unsat, half


@pytest.mark.parametrize("kernel,expected", [("async_copy_tile.cl", VERIFIED),
                                             ("async_copy_tile_bug_nowait.cl", NOT_VERIFIED)])
def test_async_copy_64bit_symbolic(kernel, expected):
    """64-bit offsets (``--spir64``: ``size_t`` copy arguments, ``zext(group_id) *
    zext(n) + k``) with symbolic sizes get the group-coordinates lemma too: the tiled copy
    verifies (over 120 s before), its twin without the wait is still reported."""
    p = subprocess.run([sys.executable, "-m", "vcgen.driver", "--spir64", "--local_size=*", "--num_groups=*",
                        str(ROOT / "corpus" / "opencl" / kernel)], capture_output=True, text=True, cwd=ROOT,
                       timeout=600)
    out = p.stdout + p.stderr
    assert p.returncode == expected, out
    if expected == NOT_VERIFIED:
        assert "race on tile" in out and "Launch with local_size = (" in out, out


GRID_STRIDE_BUG = """__global__ void k(unsigned n, float *y) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x)
    y[i] += 1.0f;
}"""


def test_counterexample_sizes_are_small(tmp_path):
    """With symbolic sizes the race is reported with small sizes (``small_launch``: every
    ``*`` at most 4 here), where the solver's own model has a grid of about 2^30 blocks."""
    code, out = verify(tmp_path, "k.cu", GRID_STRIDE_BUG, "--blockDim=*", "--gridDim=*")
    sizes = re.findall(r"Launch with blockDim = \((\d+), 1, 1\), gridDim = \((\d+), 1, 1\)", out)
    assert code == NOT_VERIFIED and "race on y[" in out and sizes, out
    assert all(int(b) <= 4 and int(g) <= 4 for b, g in sizes), out

