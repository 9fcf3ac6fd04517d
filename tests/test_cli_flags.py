"""The ``gpuverify`` flags of issue 3 (docs/design.md section 7): ``--kernel-args``,
``--check-array-bounds``, ``--boogie-file``, ``--clang-opt``, ``--vcgen-opt``, ``--json``,
inconsistent flag combinations, null-pointer reports.

The driver runs in-process (``vcgen.driver.main``); each test checks the exit code and
the report or the one-line error message.
"""
from __future__ import annotations

import gc
import json

import pytest

from vcgen import il
from vcgen.driver import main
from vcgen.il import command as command_mod
from vcgen.il.errors import ExitCode, ToolError
from vcgen.twothread.kernel_args import apply_kernel_args
from vcgen.il.parser import parse_program
from vcgen.il.printer import program_str

LAUNCH = ["--local_size=16", "--num_groups=2"]

STRIDE_CL = """\
__kernel void scatter(__global int *out, int k, uint n, __global const int *in) {
  out[get_global_id(0) * k] = in[n];
}
"""

BOUNDS_CL = """\
__kernel void bounds(__global int *p, uint n) {
  __local int L[16];
  __constant int C[4] = {1, 2, 3, 4};
  int priv[4];
  L[get_local_id(0)] = p[get_global_id(0)];
  priv[get_local_id(0) % 4] = C[n % 4];
  barrier(CLK_LOCAL_MEM_FENCE);
  p[get_global_id(0)] = L[OFFSET] + priv[PRIV];
}
"""

NULL_CL = """\
__kernel void route(__global float *a, __global float *b, int mode) {
  __global float *dst = 0;
  if (mode == 1) dst = a;
  else if (mode == 2) dst = b;
  dst[get_global_id(0)] = 1.0f;
}
"""

RACE_CL = """\
__kernel void race(__global int *p) {
  p[get_global_id(0) + 1] = 0;
  p[get_global_id(0)] = 1;
}
"""


def gv(tmp_path, monkeypatch, capsys, source: str, args: list, name: str = "k.cl") -> tuple:
    """Run ``gpuverify ARGS name`` on ``source`` in ``tmp_path``; (exit code, stdout, stderr)."""
    monkeypatch.chdir(tmp_path)
    if source is not None:
        (tmp_path / name).write_text(source)
    with pytest.raises(SystemExit) as e:
        main(args + [name])
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    return e.value.code, out.out, out.err


# ---------------------------------------------------------------- --kernel-args

def test_kernel_args_make_stride_kernel_race_free(tmp_path, monkeypatch, capsys):
    code, out, _ = gv(tmp_path, monkeypatch, capsys, STRIDE_CL, LAUNCH)
    assert code == ExitCode.NOT_ALL_VERIFIED and "write-write race on out[" in out
    code, out, _ = gv(tmp_path, monkeypatch, capsys, STRIDE_CL, LAUNCH + ["--kernel-args=scatter,*,1,*,*"])
    assert code == 0 and out.startswith("Verified: k.cl")
    code, out, _ = gv(tmp_path, monkeypatch, capsys, STRIDE_CL, LAUNCH + ["--kernel-args=scatter,*,0x0,7,*"])
    assert code == ExitCode.NOT_ALL_VERIFIED and "Kernel arguments: k = 0, n = 7" in out


def test_kernel_args_for_the_non_pointer_parameters_only(tmp_path, monkeypatch, capsys):
    """GPUVerify's form: one value per non-pointer parameter (k, n)."""
    code, out, _ = gv(tmp_path, monkeypatch, capsys, STRIDE_CL, LAUNCH + ["--kernel-args=scatter,0,7"])
    assert code == ExitCode.NOT_ALL_VERIFIED and "Kernel arguments: k = 0, n = 7" in out


PACK_CL = """\
struct pack { int a; int b; };
__kernel void unpack(struct pack x, int2 v) {
  __assert(x.a == 3 && x.b == 5 && v.x == 7 && v.y == 9);
}
"""


def test_kernel_args_struct_and_vector_values_are_bit_patterns(tmp_path, monkeypatch, capsys):
    """A by-value struct or vector argument takes the bits of the whole value, component 0
    in the low bits; without the values the assertion fails and the report shows them."""
    code, out, _ = gv(tmp_path, monkeypatch, capsys, PACK_CL,
                      LAUNCH + ["--kernel-args=unpack,0x0000000500000003,0x0000000900000007"])
    assert code == ExitCode.SUCCESS, out
    code, out, _ = gv(tmp_path, monkeypatch, capsys, PACK_CL,
                      LAUNCH + ["--kernel-args=unpack,0x0000000500000003,0x0000000900000008"])
    assert code == ExitCode.NOT_ALL_VERIFIED and "v = (8, 9)" in out, out


@pytest.mark.parametrize("spec, why", [
    ("other,*,1,*,*", "no kernel named other"),
    ("scatter,*,1,2", "has 4 parameters (out, k, n, in; 2 not pointers), 3 values given"),
    ("scatter,1,1,*,*", "parameter out is a pointer: its value must be *"),
    ("scatter,*,1.5,*,*", "value '1.5' for k is not an integer"),
    ("scatter,*,2147483648,*,*", "out of range for a 32-bit int argument"),
    ("scatter,*,1,-1,*", "value -1 for n is out of range for a 32-bit uint argument"),
    ("scatter,*,1,4294967296,*", "out of range"),
    (",1", "expected NAME,V1,V2"),
])
def test_kernel_args_errors(tmp_path, monkeypatch, capsys, spec, why):
    code, out, err = gv(tmp_path, monkeypatch, capsys, STRIDE_CL, LAUNCH + [f"--kernel-args={spec}"])
    assert code == ExitCode.COMMAND_LINE_ERROR
    assert why in err and len(err.strip().splitlines()) == 1, err


def test_kernel_args_values_in_range(tmp_path, monkeypatch, capsys):
    """Negative values for signed ints, hex bit patterns, the extremes of each range."""
    for spec in ("scatter,*,-2147483648,4294967295,*", "scatter,*,0xffffffff,0x0,*", "scatter,*,-1,0,*"):
        code, _, err = gv(tmp_path, monkeypatch, capsys, STRIDE_CL, LAUNCH + [f"--kernel-args={spec}",
                                                                             "--stop-at-bpl"])
        assert code == 0, (spec, err)


def test_source_params_and_requires(tmp_path, monkeypatch, capsys):
    """bugle records the source parameters; the values become ``requires`` on the kernel."""
    gv(tmp_path, monkeypatch, capsys, STRIDE_CL, LAUNCH + ["--stop-at-gbpl"])
    prog = parse_program((tmp_path / "k.gbpl").read_text())
    sp = il.attr(prog.kernel().attrs, "source_params")
    assert [str(x) for x in sp.args] == ["out", "$$out", "int*", "k", "$k", "int", "n", "$n", "uint",
                                         "in", "$$in", "int*"]
    fixed = apply_kernel_args(prog, "scatter,*,-1,3,*")
    reqs = [s for s in fixed.kernel().specs if il.has_attr(s.attrs, "kernel_args")]
    assert [s.expr for s in reqs] == [il.BinOp("==", il.Var("$k"), il.BvLit(2 ** 32 - 1, 32)),
                                      il.BinOp("==", il.Var("$n"), il.BvLit(3, 32))]
    assert parse_program(program_str(fixed)) == fixed
    with pytest.raises(ToolError) as e:
        apply_kernel_args(prog, "scatter,*,1,*")
    assert e.value.code == ExitCode.COMMAND_LINE_ERROR


def test_vcgen_lockstep_kernel_args(tmp_path, monkeypatch, capsys):
    """The stage command takes --kernel-args too, so chained stages give the same verdict."""
    from vcgen.cli import main as vcgen_main
    gv(tmp_path, monkeypatch, capsys, STRIDE_CL, LAUNCH + ["--stop-at-gbpl"])
    with pytest.raises(SystemExit) as e:
        vcgen_main(["lockstep", "k.gbpl", "-o", "k2.bpl", *LAUNCH, "--kernel-args=scatter,*,1,*,*"])
    assert e.value.code == 0
    text = (tmp_path / "k2.bpl").read_text()
    assert "requires {:kernel_args} $k == 1bv32;" in text
    code, out, _ = gv(tmp_path, monkeypatch, capsys, None, LAUNCH, name="k2.bpl")
    assert code == 0 and "Verified" in out


# ---------------------------------------------------------- --check-array-bounds

@pytest.mark.parametrize("offset, priv, bad_array", [
    ("get_local_id(0)", "0", None),
    ("get_local_id(0) + 1", "0", "L"),          # one past the end for the last work item
    ("get_local_id(0) - 1", "0", "L"),          # -1 wraps to 0xffffffff
    ("15 - get_local_id(0)", "3", None),
    ("0", "n", "priv"),                         # private array, arbitrary index
])
def test_array_bounds(tmp_path, monkeypatch, capsys, offset, priv, bad_array):
    src = BOUNDS_CL.replace("OFFSET", offset).replace("PRIV", priv)
    code, out, _ = gv(tmp_path, monkeypatch, capsys, src, LAUNCH + ["--check-array-bounds"])
    if bad_array is None:
        assert code == 0 and "- no out-of-bounds accesses to arrays of known size" in out, out
    else:
        assert code == ExitCode.NOT_ALL_VERIFIED
        assert f"k.cl:8:" in out and f"error: possible array out-of-bounds access on array {bad_array} by " \
            "work item" in out, out
        assert "  p[get_global_id(0)] = L[" in out  # the source line follows
    # without the flag nothing is checked
    code, out, _ = gv(tmp_path, monkeypatch, capsys, src, LAUNCH)
    assert code == 0 and "out-of-bounds" not in out


def test_array_bounds_constant_and_json(tmp_path, monkeypatch, capsys):
    src = BOUNDS_CL.replace("C[n % 4]", "C[n]").replace("OFFSET", "0").replace("PRIV", "0")
    code, out, _ = gv(tmp_path, monkeypatch, capsys, src, LAUNCH + ["--check-array-bounds", "--json"])
    assert code == ExitCode.NOT_ALL_VERIFIED
    r = json.loads(out)
    [e] = r["errors"]
    assert (e["kind"], e["array"], e["location"]["line"]) == ("array_bounds", "C", 6)
    idx = int(e["element"][2:-1])  # C[k], k >= 4
    assert idx >= 4 and e["kernel_args"]["n"] == idx
    assert set(e["thread"]) == {"thread", "local_id", "group_id", "global_id"}


def test_elem_count_attribute(tmp_path, monkeypatch, capsys):
    """Cells of fixed-size arrays; none for pointer arguments and `extern __shared__`."""
    cu = """\
__device__ int g[100];
__global__ void k(int *out) {
  __shared__ float tile[16][17];
  extern __shared__ int dyn[];
  tile[threadIdx.y][threadIdx.x] = dyn[threadIdx.x] + g[threadIdx.x];
  out[threadIdx.x] = (int)tile[threadIdx.x][threadIdx.y];
}
"""
    code, _, err = gv(tmp_path, monkeypatch, capsys, cu, ["--blockDim=[16,16]", "--gridDim=1", "--stop-at-gbpl"],
                      name="k.cu")
    assert code == 0, err
    arrays = {d.attrs[0].args[0]: il.attr(d.attrs, "elem_count") for d in
              parse_program((tmp_path / "k.gbpl").read_text()).globals()}
    assert arrays["tile"].args[0].value == 16 * 17 and arrays["g"].args[0].value == 100
    assert arrays["out"] is None and arrays["dyn"] is None


# ----------------------------------------------------------- --boogie-file etc.

def test_boogie_file(tmp_path, monkeypatch, capsys):
    (tmp_path / "extra.bpl").write_text("function twice(x: bv32): bv32 { BV32_ADD(x, x) }\naxiom false;\n")
    code, out, _ = gv(tmp_path, monkeypatch, capsys, RACE_CL, LAUNCH + ["--boogie-file=extra.bpl"])
    # the contradictory axiom reaches the verifier: no race, but a vacuity warning
    assert "race" not in out and "vacuous" in out and code == ExitCode.NOT_ALL_VERIFIED


@pytest.mark.parametrize("text, code, why", [
    (None, ExitCode.COMMAND_LINE_ERROR, "extra.bpl: file not found"),
    ("axiom group_size_x == ;\n", ExitCode.GPUVERIFYVCGEN_ERROR, "extra.bpl:1:23: parse error"),
    ("const group_size_x: bv32;\n", ExitCode.GPUVERIFYVCGEN_ERROR, "group_size_x is already declared"),
    ("axiom nosuch == 1bv32;\n", ExitCode.GPUVERIFYVCGEN_ERROR, "undeclared name nosuch"),
])
def test_boogie_file_errors(tmp_path, monkeypatch, capsys, text, code, why):
    if text is not None:
        (tmp_path / "extra.bpl").write_text(text)
    got, _, err = gv(tmp_path, monkeypatch, capsys, RACE_CL, LAUNCH + ["--boogie-file=extra.bpl"])
    assert got == code and why in err and len(err.strip().splitlines()) == 1, err


def test_clang_opt_and_vcgen_opt(tmp_path, monkeypatch, capsys):
    src = BOUNDS_CL.replace("__local int L[16]", "__local int L[N]").replace("OFFSET", "0").replace("PRIV", "0")
    code, out, _ = gv(tmp_path, monkeypatch, capsys, src, LAUNCH + ["--clang-opt=-DN=8", "--check-array-bounds"])
    assert code == ExitCode.NOT_ALL_VERIFIED and "out-of-bounds access on array L" in out
    code, out, _ = gv(tmp_path, monkeypatch, capsys, src, LAUNCH + ["--clang-opt=-DN=16",
                                                                   "--vcgen-opt=--check-array-bounds"])
    assert code == 0 and "out-of-bounds accesses" in out
    code, out, _ = gv(tmp_path, monkeypatch, capsys, src, LAUNCH + ["--clang-opt=-DN=8",
                                                                   "--vcgen-opt=--check-array-bounds"])
    assert code == ExitCode.NOT_ALL_VERIFIED
    code, out, _ = gv(tmp_path, monkeypatch, capsys, src, LAUNCH + ["--clang-opt=-DN=8",
                                                                   "--vcgen-opt=--no-infer --check-array-bounds"])
    assert code == ExitCode.NOT_ALL_VERIFIED and "out-of-bounds access on array L" in out
    code, _, err = gv(tmp_path, monkeypatch, capsys, src, LAUNCH + ["--clang-opt=-DN=16", "--vcgen-opt=--solver=z3"])
    assert code == ExitCode.COMMAND_LINE_ERROR and "unknown vcgen option '--solver=z3'" in err


@pytest.mark.parametrize("flags, why", [
    (["--verify", "--findbugs"], "--verify and --findbugs exclude each other"),
    (["--verify", "--loop-unwind=2"], "--loop-unwind is for --findbugs"),
    (["--equality-abstraction", "--adversarial-abstraction"], "exclude each other"),
    (["--only-divergence", "--equality-abstraction"], "--only-divergence uses the adversarial"),
    (["--stop-at-gbpl", "--stop-at-bpl"], "only one of --stop-at-gbpl and --stop-at-bpl"),
    (["--timeout=-3"], "--timeout must not be negative"),
    (["--vcgen-opt=--no-infer=1"], "--no-infer takes no value"),
    (["--vcgen-opt=--warp-sync"], "--warp-sync needs a value"),
])
def test_inconsistent_flags(tmp_path, monkeypatch, capsys, flags, why):
    code, _, err = gv(tmp_path, monkeypatch, capsys, RACE_CL, LAUNCH + flags)
    assert code == ExitCode.COMMAND_LINE_ERROR and why in err and len(err.strip().splitlines()) == 1, err


def test_cuda_launch_conflicts(tmp_path, monkeypatch, capsys):
    for flags, why in ((["--blockDim=16", "--gridDim=2", "--global_offset=4"], "--global_offset is an OpenCL flag"),
                       (["--local_size=16", "--blockDim=16", "--gridDim=2"], "either --local_size or --blockDim")):
        code, _, err = gv(tmp_path, monkeypatch, capsys, RACE_CL, flags)
        assert code == ExitCode.COMMAND_LINE_ERROR and why in err


# ------------------------------------------------------------- --json, null

def test_json_race(tmp_path, monkeypatch, capsys):
    code, out, _ = gv(tmp_path, monkeypatch, capsys, RACE_CL, LAUNCH + ["--json"])
    assert code == ExitCode.NOT_ALL_VERIFIED
    r = json.loads(out)
    assert r["status"] == "errors" and r["exit_code"] == 6
    e = r["errors"][0]
    assert e["kind"] == "race" and e["race"] == "write-write" and e["array"] == "p"
    assert e["element"].startswith("p[")
    for side in ("location", "other_location"):
        assert e[side]["file"].endswith("k.cl") and e[side]["line"] in (2, 3)
    assert e["thread"]["local_id"] != e["other_thread"]["local_id"] or \
        e["thread"]["group_id"] != e["other_thread"]["group_id"]


def test_null_pointer(tmp_path, monkeypatch, capsys):
    code, out, _ = gv(tmp_path, monkeypatch, capsys, NULL_CL, LAUNCH)
    assert code == ExitCode.NOT_ALL_VERIFIED
    assert "k.cl:5:25: error: possible null pointer access for work item" in out
    assert "  dst[get_global_id(0)] = 1.0f;" in out
    code, out, _ = gv(tmp_path, monkeypatch, capsys, NULL_CL, LAUNCH + ["--json"])
    [e] = json.loads(out)["errors"]
    assert e["kind"] == "null_pointer" and e["location"]["line"] == 5 and e["kernel_args"]["mode"] not in (1, 2)
    code, out, _ = gv(tmp_path, monkeypatch, capsys, NULL_CL, LAUNCH + ["--kernel-args=route,*,*,2"])
    assert code == 0


# ---------------------------------------------------------------- get_work_dim, offsets
WORK_DIM_CL = """\
__kernel void k(__global int *out) {
  __assert(get_work_dim() == DIM);
  __assert(get_global_offset(0) == OX && get_global_offset(1) == 0 && get_global_offset(2) == 0);
  out[get_global_id(0)] = 1;
}
"""


@pytest.mark.parametrize("flags, dim, ok", [
    (["--local_size=16", "--num_groups=2"], 1, True),
    (["--local_size=[16,1]", "--num_groups=[2,1]"], 2, True),
    (["--local_size=[16,1,1]", "--global_size=[32,1,1]"], 3, True),
    (["--local_size=[16,1]", "--num_groups=[2,1]"], 1, False),
])
def test_work_dim_is_the_launch_rank(tmp_path, monkeypatch, capsys, flags, dim, ok):
    """get_work_dim() is the number of dimensions the launch flags write."""
    src = WORK_DIM_CL.replace("DIM", str(dim)).replace("OX", "0")
    code, out, _ = gv(tmp_path, monkeypatch, capsys, src, flags)
    assert code == (0 if ok else ExitCode.NOT_ALL_VERIFIED), out


def test_global_offset_pads_with_zero(tmp_path, monkeypatch, capsys):
    """--global_offset=64 offsets dimension x only (y and z are 0, not 1)."""
    src = WORK_DIM_CL.replace("DIM", "1").replace("OX", "64")
    code, out, _ = gv(tmp_path, monkeypatch, capsys, src, LAUNCH + ["--global_offset=64"])
    assert code == 0, out


def test_an_in_process_run_leaves_the_garbage_collector_alone(tmp_path):
    """Only a program run (``argv`` None) skips the last collection at exit
    (``il.command._skip_last_collection``): a caller in-process keeps collecting."""
    path = tmp_path / "k.cl"
    path.write_text(STRIDE_CL)
    frozen, thresholds = gc.get_freeze_count(), gc.get_threshold()
    with pytest.raises(SystemExit):
        main([str(path), *LAUNCH])
    assert gc.get_freeze_count() == frozen
    assert gc.get_threshold() == thresholds  # nor collects less often (_collect_less_often)


def test_a_program_run_collects_the_youngest_generation_less_often():
    """``il.command._collect_less_often``: the youngest generation's threshold raised to
    ``YOUNG_THRESHOLD``, the older generations' kept (cycles are still collected)."""
    saved = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)
        command_mod._collect_less_often()
        assert gc.get_threshold() == (command_mod.YOUNG_THRESHOLD, 10, 10)
        assert gc.isenabled()
    finally:
        gc.set_threshold(*saved)
