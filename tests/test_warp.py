"""Warp-level CUDA (issue 4): bugle's translation of __syncwarp / shuffles / votes
(bugle/include/cuda.h, bugle/builtins.py ``Calls._warp_op``), their lock-step semantics
(vcgen/lockstep.py ``_warp_op``: warp-scope synchronisation, divergence checks, arbitrary
shuffle values, warp-uniform votes), and the per-phase ``--time`` line (vcgen/driver.py
``Timings``) that ``tests/bench.py`` reads."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from vcgen.pipeline import Timings

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from bench import parse_timing  # noqa: E402

VERIFIED, NOT_VERIFIED = 0, 6
DIVERGENCE = "barrier may be reached by non-uniform control flow"


def translate(src: str, tmp_path: Path) -> str:
    from bugle.cc import compile_kernel
    from bugle.translate import translate_ir
    from vcgen.il.printer import program_str
    k = tmp_path / "k.cu"
    k.write_text(src)
    ir = compile_kernel(str(k), language="cuda", defines=(), includes=(), spir64=False)
    return program_str(translate_ir(ir, None, str(k)))


def verify(body: str, tmp_path: Path, *flags: str) -> tuple:
    """(exit code, output) of the driver on a kernel ``k(const int *in, int *out)``."""
    k = tmp_path / "k.cu"
    k.write_text("__global__ void k(const int *in, int *out) {\n  __shared__ int s[64];\n"
                 "  unsigned t = threadIdx.x, lane = t % warpSize;\n" + body + "\n}\n")
    p = subprocess.run([sys.executable, "-m", "vcgen.driver", "--blockDim=64", "--gridDim=2", *flags, str(k)],
                       capture_output=True, text=True, cwd=ROOT, timeout=600)
    return p.returncode, p.stdout + p.stderr


def test_bugle_warp_calls(tmp_path):
    il_text = translate("""__global__ void k(int *p, float *q) {
  unsigned t = threadIdx.x;
  __syncwarp();
  __syncwarp(0xffff);
  int a = __shfl_down_sync(0xffffffff, p[t], 1);
  float f = __shfl_xor_sync(0xffffffff, q[t], 2);
  double d = __shfl_sync(0xffffffff, (double)q[t], 0);
  unsigned b = __ballot_sync(0xffffffff, a > 0);
  int any = __any_sync(0xffff, a), legacy = __any(a) + __shfl(a, 3), act = __activemask();
  p[t] = a + (int)f + (int)d + b + any + legacy + act;
}""", tmp_path)
    assert 'procedure {:warp_op "sync"} $bugle_syncwarp(mask: bv32);' in il_text
    assert 'procedure {:warp_op "shuffle"} $bugle_shuffle(mask: bv32) returns (result: bv32);' in il_text
    assert 'procedure {:warp_op "vote"} $bugle_vote(mask: bv32) returns (result: bv32);' in il_text
    assert "$bugle_syncwarp(4294967295bv32);" in il_text and "$bugle_syncwarp(65535bv32);" in il_text
    # a double is shuffled as two 32-bit halves; legacy forms and __activemask are not calls
    assert il_text.count("$bugle_shuffle(4294967295bv32)") == 4
    assert il_text.count(":= $bugle_vote(") == 2 and "$bugle_vote(65535bv32)" in il_text
    assert il_text.count("call {:sourceloc") == 8


def test_no_warp_declarations_without_warp_ops(tmp_path):
    assert "warp_op" not in translate("__global__ void k(int *p) { p[threadIdx.x] = 1; }", tmp_path)


@pytest.mark.parametrize("body, code, expect", [
    # __syncwarp orders warp-mates (no --warp-sync needed)
    ("s[t] = t; __syncwarp(); out[blockIdx.x * 64 + t] = s[t ^ 1];", VERIFIED, "Verified"),
    ("s[t] = t; out[blockIdx.x * 64 + t] = s[t ^ 1];", NOT_VERIFIED, "write-read race"),
    # ... but not threads of different warps
    ("s[t] = t; __syncwarp(); out[blockIdx.x * 64 + t] = s[t ^ 32];", NOT_VERIFIED, "write-read race"),
    # a full-mask __syncwarp with half the warp absent
    ("if (lane < 16) __syncwarp();", NOT_VERIFIED, DIVERGENCE),
    # a partial mask naming exactly the lanes present synchronises them
    ("if (lane < 16) { s[t] = t; __syncwarp(0xffff); out[blockIdx.x * 64 + t] = s[t ^ 1]; }", VERIFIED,
     "Verified"),
    # lanes 8..15 are outside the mask 0xff: they synchronise with nobody
    ("if (lane < 16) { s[t] = t; __syncwarp(0xff); out[blockIdx.x * 64 + t] = s[t ^ 8]; }", NOT_VERIFIED,
     "write-read race"),
    # shuffle results are arbitrary per thread: here all lanes get lane 0's t
    ("out[blockIdx.x * 64 + __shfl_sync(0xffffffff, t, 0)] = t;", NOT_VERIFIED, "write-write race"),
    ("int v = in[t]; if (lane < 8) v = __shfl_down_sync(0xffffffff, v, 1); out[t] = v;", NOT_VERIFIED, DIVERGENCE),
    # a vote is the same for warp-mates: branching on it keeps the warp together
    ("if (__any_sync(0xffffffff, in[t] > 0)) __syncwarp();", VERIFIED, "Verified"),
    ("if (in[t] > 0) __syncwarp();", NOT_VERIFIED, DIVERGENCE),
    # legacy (mask-less) vote: arbitrary per thread, so no such guarantee
    ("if (__any(in[t] > 0)) __syncwarp();", NOT_VERIFIED, DIVERGENCE),
])
def test_warp_semantics(tmp_path, body, code, expect):
    got, out = verify(body, tmp_path)
    assert got == code and expect in out, out


def test_warp_sync_same_instruction_still_races(tmp_path):
    got, out = verify("if (t < 32) out[blockIdx.x] = t;", tmp_path, "--warp-sync=32")
    assert got == NOT_VERIFIED and "write-write race" in out, out
    got, out = verify("s[t] = t; out[blockIdx.x * 64 + t] = s[t ^ 1];", tmp_path, "--warp-sync=32")
    assert got == VERIFIED, out


@pytest.mark.parametrize("barrier, code", [("__syncthreads();", VERIFIED), ("", NOT_VERIFIED)])
def test_warp_sync_loop_leaves_other_logs_alone(tmp_path, barrier, code):
    """Under --warp-sync an instruction clears only the logs it filled: clearing s's empty
    read log after the loop's write made that log look modified by the loop, so it was
    arbitrary at the loop head and the read after the barrier raced with it (a false
    alarm).  Without the barrier the read races with another warp's write."""
    got, out = verify(f"for (unsigned i = 0; i < 64; i += 16) if (t < 16) s[i + t] = 0;\n{barrier}\n"
                      "out[blockIdx.x * 64 + t] = s[(t + 1) % 64];", tmp_path, "--warp-sync=32")
    assert got == code, out
    if code == NOT_VERIFIED:
        assert "read-write race on s[" in out or "write-read race on s[" in out, out


@pytest.mark.parametrize("body, code", [
    # a warp-mate's write is visible to the next instruction: s[0] may hold another lane's t
    ("if (t < 32) { s[0] = 1; s[1] = 1; s[2] = 1; s[t] = 0; __assert(s[0] == 1 || s[1] == 1 || s[2] == 1); }",
     NOT_VERIFIED),
    # a thread still sees its own write, and writes to another array leave s alone
    ("s[t] = t; int x = s[t]; out[blockIdx.x * 64 + t] = x; __assert(s[t] == t && x == t);", VERIFIED),
    # two threads of one warp see the same memory after an instruction
    ("s[t] = t; if (t < 32) { int v = s[7];\n"
     "__assert(__implies(blockIdx.x == __other_int(blockIdx.x) && __other_int(t) < 32, v == __other_int(v))); }",
     VERIFIED),
])
def test_warp_sync_values_reflect_warp_mates(tmp_path, body, code):
    """--warp-sync with the equality abstraction (GPUVerify's warpsync/
    equality_abstraction_issue): after an instruction that writes s, each thread's copy
    holds what its warp-mates wrote -- arbitrary but for the two threads' own writes."""
    got, out = verify(body, tmp_path, "--warp-sync=32", "--equality-abstraction")
    assert got == code, out
    if code == NOT_VERIFIED:
        assert "this assertion might not hold" in out, out


def test_time_line_has_four_phases(tmp_path):
    t = Timings({"cc": 0.5, "translate": 0.25, "abstract": 0.125, "lockstep": 0.125, "verify": 1.0})
    assert t.grouped() == {"frontend": 0.75, "lockstep": 0.25, "houdini": 0.0, "check": 1.0}
    assert t.line() == "timing: frontend 0.750s, lockstep 0.250s, houdini 0.000s, check 1.000s, total 2.000s"
    assert parse_timing("x\n" + t.line() + "\n") == {"frontend": 0.75, "lockstep": 0.25, "houdini": 0.0,
                                                     "check": 1.0, "total": 2.0}
    _, out = verify("out[t] = t;", tmp_path, "--time")
    assert set(parse_timing(out)) == {"frontend", "lockstep", "houdini", "check", "total"}, out
