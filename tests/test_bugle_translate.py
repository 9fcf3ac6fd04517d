"""bugle end to end: kernels in tests/kernels -> clang -> IL, checked structurally."""
from __future__ import annotations

import functools
import os
import re
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

KERNELS = Path(__file__).with_name("kernels")
ROOT = Path(__file__).resolve().parent.parent


@functools.lru_cache(maxsize=None)
def compiled(name: str) -> str:
    return compile_kernel(str(KERNELS / name))


@functools.lru_cache(maxsize=None)
def program(name: str) -> tuple:
    """(IL program, its text) for a kernel source or a hand-written .ll file."""
    ir = (KERNELS / name).read_text() if name.endswith(".ll") else compiled(name)
    p = translate_ir(ir)
    text = program_str(p)
    assert parse_program(text) == p  # the printed output parses back to the same AST
    try:
        from vcgen.il.typecheck import typecheck
    except ImportError:  # pragma: no cover - typecheck is written concurrently
        return p, text
    typecheck(p)
    return p, text


def global_arrays(p: il.Program) -> dict:
    return {v.name: v for v in p.globals()}


def attr_args(attrs, name):
    a = il.attr(attrs, name)
    return None if a is None else tuple(x.value if isinstance(x, il.IntLit) else x for x in a.args)


def blocks(p: il.Program) -> dict:
    return {b.label: b for b in p.kernel().blocks}


def test_tree_reduction_opencl():
    p, text = program("reduce.cl")
    k = p.kernel()
    assert attr_args(k.attrs, "source_name") == ("reduce",)
    assert attr_args(k.attrs, "language") == ("opencl",)
    arrs = global_arrays(p)
    assert il.has_attr(arrs["$$tmp"].attrs, "group_shared")
    assert il.has_attr(arrs["$$in"].attrs, "global")
    assert arrs["$$tmp"].type == il.MapType(il.BV32, il.BV32)
    assert attr_args(arrs["$$tmp"].attrs, "elem_width") == (32,)
    # __requires(get_local_size(0) == N) is a kernel precondition over the size constant
    assert [il.free_vars(s.expr) for s in k.specs] == [{"group_size_x"}]
    # barrier(CLK_LOCAL_MEM_FENCE): local fence only, preceded by its source marker
    assert 'assume {:sourceloc "reduce.cl", 9, 3} true;\n    call {:sourceloc "reduce.cl", 9, 3} ' \
           '$bugle_barrier(1bv1, 0bv1);' in text
    # the user invariant sits in the loop header block (for.cond)
    inv = [b.label for b in k.blocks for c in b.cmds
           if isinstance(c, il.Assert) and il.has_attr(c.attrs, "user_invariant")]
    assert len(inv) == 1 and "for.cond" in inv[0]


def test_every_access_has_a_marker():
    for name in ("reduce.cl", "transpose.cu", "bytes.cl", "select.cl"):
        p, _ = program(name)
        for b in p.kernel().blocks:
            for i, c in enumerate(b.cmds):
                is_access = (isinstance(c, il.Assign) and (
                    any(isinstance(l, il.MapLhs) for l in c.lhss)
                    or any(isinstance(r, il.MapSelect) for r in c.rhss)))
                if is_access or isinstance(c, il.Call):
                    prev = b.cmds[i - 1]
                    assert isinstance(prev, il.Assume) and il.has_attr(prev.attrs, "sourceloc"), (name, c)


def test_phi_moves_and_partitions():
    p, _ = program("reduce.cl")
    bs = blocks(p)
    for b in bs.values():
        if isinstance(b.transfer, il.Goto) and len(b.transfer.targets) > 1:
            conds = []
            for t in b.transfer.targets:
                first = bs[t].cmds[0]
                assert isinstance(first, il.Assume) and il.has_attr(first.attrs, "partition")
                conds.append(first.expr)
                preds = [x for x in bs.values() if isinstance(x.transfer, il.Goto) and t in x.transfer.targets]
                assert preds == [b]
            assert conds[1] == il.not_(conds[0])
    # the loop variable s is updated by a move at the end of the latch
    moves = [c for b in bs.values() for c in b.cmds
             if isinstance(c, il.Assign) and any(l.name.startswith("$s.") for l in c.lhss)]
    assert len(moves) == 2  # entry edge (s = N/2) and back edge (s >>= 1)
    assert il.BvLit(64, 32) in [r for m in moves for r in m.rhss]


def test_cuda_transpose_shared_and_syncthreads():
    p, text = program("transpose.cu")
    k = p.kernel()
    assert attr_args(k.attrs, "source_name") == ("transpose",)
    assert k.name == "$transpose"
    assert attr_args(k.attrs, "language") == ("cuda",)
    arrs = global_arrays(p)
    tile = arrs["$$tile"]
    assert il.has_attr(tile.attrs, "group_shared")
    assert tile.type == il.MapType(il.BV64, il.BV32)  # nvptx64: 64-bit offsets
    assert il.has_attr(arrs["$$odata"].attrs, "global")
    assert "$bugle_barrier(1bv1, 1bv1)" in text  # __syncthreads fences both spaces
    assert "17bv64" in text  # row stride of tile[16][17] in elements
    assert "local_id_y" in text and "group_id_x" in text


def test_cuda_shared_reduction():
    p, text = program("shared_reduce.cu")
    assert attr_args(p.kernel().attrs, "source_name") == ("block_sum",)
    assert il.has_attr(global_arrays(p)["$$buf"].attrs, "group_shared")
    assert text.count("$bugle_barrier(1bv1, 1bv1)") == 2


def test_element_and_byte_level():
    p, text = program("bytes.cl")
    arrs = global_arrays(p)
    assert arrs["$$p"].type == il.MapType(il.BV32, il.BV8)
    assert attr_args(arrs["$$p"].attrs, "elem_width") == (8,)
    assert arrs["$$q"].type == il.MapType(il.BV32, il.BvType(16))
    assert attr_args(arrs["$$q"].attrs, "elem_type") == ("short",)
    # the int store p[i + 64] = ... becomes four byte stores, little endian
    stores = [c for b in p.kernel().blocks for c in b.cmds
              if isinstance(c, il.Assign) and isinstance(c.lhss[0], il.MapLhs) and c.lhss[0].name == "$$p"]
    assert len(stores) == 5
    assert [s.rhss[0].lo for s in stores[1:]] == [0, 8, 16, 24]


def test_steensgaard_case_split():
    p, text = program("select.cl")
    k = p.kernel()
    assert any(v.name.endswith("$base") and v.type == il.INT for v in k.locals)
    nulls = [c for b in k.blocks for c in b.cmds if isinstance(c, il.Assert) and il.has_attr(c.attrs, "null_pointer")]
    assert len(nulls) == 2 and all(c.expr == il.FALSE for c in nulls)
    # one access block per possible array, guarded by the base
    assert re.search(r"assume \{:partition\} \$arrayidx\S*\$base == 1;", text)
    assert re.search(r"assume \{:partition\} \$arrayidx\S*\$base == 2;", text)
    assert "$$a[" in text and "$$b[" in text


def test_opencl_builtins():
    p, text = program("builtins.cl")
    for kind in ("local_id", "group_id", "group_size", "num_groups", "global_offset"):
        for d in "xyz":
            assert f"const {{:{kind}_{d}}} {kind}_{d}: bv32;" in text
    assert "BV32_ADD(BV32_ADD(BV32_MUL(group_id_x, group_size_x), local_id_x), global_offset_x)" in text
    assert "BV32_MUL(group_size_x, num_groups_x)" in text  # get_global_size(0)
    assert "if $d == 0bv32 then local_id_x else if $d == 1bv32 then local_id_y" in text
    assert "$bugle_barrier(1bv1, 1bv1)" in text
    assert re.search(r"assert \{:sourceloc \"builtins.cl\", 8, 3\} \{:user_assert\}", text)
    k = p.kernel()
    assert len(k.specs) == 2 and all(il.free_vars(s.expr) <= {"$n", "$d"} for s in k.specs)
    assert "FPTOUI_32_32" in text and "F$_Z4sqrtf" in text


def test_private_array_is_local():
    p, text = program("private.cl")
    assert "$$t" not in global_arrays(p)
    loc = {v.name: v for v in p.kernel().locals}
    assert loc["$$t"].type == il.MapType(il.BV32, il.BV32)
    assert "$$t[" in text


def test_intrinsics_exact():
    p, text = program("intrinsics.ll")
    assert "if BV32_SGT($a, $b) then $a else $b" in text
    assert "BV64_ADD(BV32_SEXT64($a), BV32_SEXT64($b))" in text
    assert "FMUL32($f, 1073741824bv32)" in text and "FOLT32(" in text
    assert text.count("BV1_ZEXT32($mx[") == 32  # ctpop sums 32 bits
    assert 'assume {:sourceloc "intr.cl", 7, 5} true;' in text


def test_unsupported_constructs():
    with pytest.raises(ToolError) as e:
        translate_ir(compiled("ptrcmp.cl"))
    assert e.value.code == ExitCode.BUGLE_ERROR
    assert "ordered comparison of pointers" in str(e.value) and "ptrcmp.cl:3:" in str(e.value)


def test_reachable_unreachable_is_a_check():
    # `unreachable` in a block the entry can reach: a check that it is never executed
    p, text = program("unreachable.ll")
    bad = blocks(p)["$bad"]
    assert isinstance(bad.cmds[-1], il.Assert) and bad.cmds[-1].expr == il.FALSE
    assert il.has_attr(bad.cmds[-1].attrs, "unreachable") and isinstance(bad.transfer, il.Return)


def test_clang_error():
    with pytest.raises(ToolError) as e:
        compile_kernel(str(KERNELS / "syntax.cl"))
    assert e.value.code == ExitCode.CLANG_ERROR
    assert "expected ';' after expression" in str(e.value)


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "bugle.cli", *args], capture_output=True, text=True,
                          cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": os.defpath})


def test_cli_exit_codes(tmp_path):
    r = _cli("cc", str(KERNELS / "syntax.cl"), "-o", str(tmp_path / "s.ll"))
    assert r.returncode == 2 and "expected ';'" in r.stderr
    ll = tmp_path / "a.ll"
    r = _cli("cc", str(KERNELS / "ptrcmp.cl"), "-o", str(ll))
    assert r.returncode == 0, r.stderr
    r = _cli("translate", str(ll), "-o", str(tmp_path / "a.gbpl"))
    assert r.returncode == 4 and "ptrcmp.cl:3:12" in r.stderr and "ordered comparison of pointers" in r.stderr
    assert "Traceback" not in r.stderr
    r = _cli("cc", str(KERNELS / "reduce.cl"), "-D", "N=64", "-o", str(ll))
    assert r.returncode == 0
    r = _cli("translate", str(ll), "--source", "src/reduce.cl", "-o", "-")
    assert r.returncode == 0 and '{:sourceloc "src/reduce.cl", 9, 3}' in r.stdout
    assert "group_size_x == 64bv32" in r.stdout  # -D reached the preprocessor
    assert _cli("--help").returncode == 0 and "translate" in _cli("--help").stdout


def test_elem_types_and_conditional_requires():
    # __requires under a condition cannot be a kernel precondition: a clear error
    with pytest.raises(ToolError) as e:
        translate_ir(compiled("mix.cl"))
    assert e.value.code == ExitCode.BUGLE_ERROR and "mix.cl:5:" in str(e.value)
    ir = compile_kernel(str(KERNELS / "mix.cl"), defines=("NO_REQ",))
    arrs = global_arrays(translate_ir(ir))
    assert attr_args(arrs["$$p"].attrs, "elem_type") == ("uint",)
    assert attr_args(arrs["$$f"].attrs, "elem_type") == ("float",)


def test_clang_runs_from_the_wheels_zig_without_a_second_interpreter(tmp_path):
    """``bugle cc`` execs the ``zig`` of the ziglang wheel itself: ``python -m ziglang``
    would start another interpreter per compilation only to exec the same binary."""
    from bugle.cc import clang_command
    k = tmp_path / "k.cl"
    k.write_text("__kernel void k(__global int *a) { a[get_global_id(0)] = 0; }\n")
    cmd = clang_command(str(k), "opencl")
    assert os.path.basename(cmd[0]) == "zig" and cmd[1:3] == ["clang", "-cc1"]
    assert sys.executable not in cmd
