"""GPUVerify's annotation language and flags beyond the core (issue 11): function-wide and
candidate invariants, invariants reading memory, value helpers, ``__axiom``, unsupported
annotations as bugle errors; ``--only-log``, ``/checkArrays``, ``--asymmetric-asserts``,
``--no-annotations``/``--only-requires``, ``--invariants-as-candidates``, option prefixes,
``--k-induction-depth`` and the other driver flags.

The driver runs in-process; each test checks the exit code and what the report says.
"""
from __future__ import annotations

import pytest

from vcgen.il.errors import ExitCode

from test_cli_flags import gv

L = ["--local_size=16", "--num_groups=2"]

FUNCTION_WIDE = """\
__kernel void sweep(__global int *A) {
  unsigned n = get_global_size(0), tid = get_global_id(0);
  for (int i = 0; i < 8; i++) { A[tid + i * n] += A[tid + OFF]; }
  __function_wide_invariant(__write_implies(A, (__write_offset_bytes(A) / sizeof(int)) % n == tid));
  __function_wide_invariant(__read_implies(A, (__read_offset_bytes(A) / sizeof(int)) % n == tid));
}
"""


def test_function_wide_invariant_proves_and_catches(tmp_path, monkeypatch, capsys):
    code, out, _ = gv(tmp_path, monkeypatch, capsys, FUNCTION_WIDE.replace("OFF", "n"), L + ["--no-infer"])
    assert code == 0, out
    code, out, _ = gv(tmp_path, monkeypatch, capsys, FUNCTION_WIDE.replace("OFF", "1"), L + ["--no-infer"])
    assert code == ExitCode.NOT_ALL_VERIFIED, out


@pytest.mark.parametrize("body, why", [
    ("__function_wide_invariant(i > 0); for (int j = 0; j < i; j++) A[j] = 0;", "at the end of the kernel"),
    ("for (i = 0; i < 4; i++) {} __function_wide_invariant(i % 2 == 0);", "local value"),
])
def test_function_wide_invariant_misplaced(tmp_path, monkeypatch, capsys, body, why):
    src = f"__kernel void k(__global int *A, unsigned i) {{ {body} }}\n"
    code, _, err = gv(tmp_path, monkeypatch, capsys, src, L + ["--no-infer"])
    assert code == ExitCode.BUGLE_ERROR and why in err, err


LOOP = """\
__kernel void k(__global int *A) {
  A[get_global_id(0)] = 0;
  for (int i = 0; INV, i < 64; i++) { A[get_global_id(0)] += 1; A[get_global_id(0)] -= 1; }
}
"""


def test_invariant_reading_memory(tmp_path, monkeypatch, capsys):
    ok = LOOP.replace("INV", "__invariant(A[get_global_id(0)] == 0)")
    code, out, _ = gv(tmp_path, monkeypatch, capsys, ok, L + ["--equality-abstraction"])
    assert code == 0, out
    bad = ok.replace("-= 1", "-= 2")
    code, out, _ = gv(tmp_path, monkeypatch, capsys, bad, L + ["--equality-abstraction"])
    assert code == ExitCode.NOT_ALL_VERIFIED and "loop invariant might not be maintained" in out


def test_candidate_invariants_are_never_trusted(tmp_path, monkeypatch, capsys):
    """A false candidate is dropped (no error); a false invariant is an error, unless it is
    a candidate by --invariants-as-candidates."""
    src = LOOP.replace("INV", "__candidate_invariant(i == 3)")
    assert gv(tmp_path, monkeypatch, capsys, src, L)[0] == 0
    src = LOOP.replace("INV", "__invariant(i == 3)")
    assert gv(tmp_path, monkeypatch, capsys, src, L)[0] == ExitCode.NOT_ALL_VERIFIED
    assert gv(tmp_path, monkeypatch, capsys, src, L + ["--invariants-as-candidates"])[0] == 0
    # a racy loop stays racy whatever the candidate claims
    racy = LOOP.replace("INV", "__candidate_invariant(__no_write(A))").replace(
        "A[get_global_id(0)] -= 1", "A[get_global_id(0) + 1] -= 1")
    code, out, _ = gv(tmp_path, monkeypatch, capsys, racy, L)
    assert code == ExitCode.NOT_ALL_VERIFIED and "race" in out


HELPERS = """\
__kernel void k(__global int *A, unsigned x, unsigned y, int s, int t, unsigned cap) {
  __requires(__is_pow2(cap));
  unsigned z = __add_noovfl_unsigned_int(x, y);
  int w = __add_noovfl_int(s, t);
  __assert(z >= x && z >= y);
  __assert(s > 0 ? w > t : 1);
  __assert(__mod_pow2(x, cap) == x % cap);
  __assert(__ite(x > y, x, y) >= y);
  __assert(__add_noovfl(x, y) ? x + y >= x : 1);
}
"""


def test_value_helpers(tmp_path, monkeypatch, capsys):
    code, out, _ = gv(tmp_path, monkeypatch, capsys, HELPERS, L)
    assert code == 0, out
    bad = HELPERS.replace("__requires(__is_pow2(cap));", "")
    code, out, _ = gv(tmp_path, monkeypatch, capsys, bad, L)
    assert code == ExitCode.NOT_ALL_VERIFIED and "k.cl:7:" in out  # the __mod_pow2 assertion


def test_axiom(tmp_path, monkeypatch, capsys):
    src = "__axiom(get_group_id(0) == 1);\n__kernel void k(__global int *A) { if (get_group_id(0) == 0) A[0] = get_local_id(0); }\n"
    assert gv(tmp_path, monkeypatch, capsys, src, L)[0] == 0
    code, out, _ = gv(tmp_path, monkeypatch, capsys, src.replace("== 1);", "== 0);"), L)
    assert code == ExitCode.NOT_ALL_VERIFIED and "write-write race" in out


@pytest.mark.parametrize("call, name", [
    ("__writes_to(A)", "__writes_to"),
    ("__reads_from(A)", "__reads_from"),
])
def test_spec_accesses_outside_a_spec_function_are_bugle_errors(tmp_path, monkeypatch, capsys, call, name):
    # tests/test_spec_functions.py: what they mean in a __spec_ function
    src = f"__kernel void k(__global int *A) {{ {call}; }}\n"
    code, _, err = gv(tmp_path, monkeypatch, capsys, src, L)
    assert code == ExitCode.BUGLE_ERROR and f"{name} may only be used in a specification function" in err, err


RACE_AND_LOG = """\
__kernel void k(__local int *A, __global int *B) {
  A[0] = get_local_id(0);
  B[get_global_id(0)] = 0;
  __assert(CHECK);
}
"""


def test_only_log(tmp_path, monkeypatch, capsys):
    src = RACE_AND_LOG.replace("CHECK", "1")
    assert gv(tmp_path, monkeypatch, capsys, src, L)[0] == ExitCode.NOT_ALL_VERIFIED
    assert gv(tmp_path, monkeypatch, capsys, src, L + ["--only-log"])[0] == 0
    src = RACE_AND_LOG.replace("CHECK", "!__write(A)")
    assert gv(tmp_path, monkeypatch, capsys, src, L + ["--only-log"])[0] == ExitCode.NOT_ALL_VERIFIED


def test_check_arrays(tmp_path, monkeypatch, capsys):
    src = RACE_AND_LOG.replace("CHECK", "1")
    # prefix --vcgen-op= of --vcgen-opt=, GPUVerify's /checkArrays syntax
    assert gv(tmp_path, monkeypatch, capsys, src, L + ["--vcgen-op=/checkArrays:B"])[0] == 0
    code, out, _ = gv(tmp_path, monkeypatch, capsys, src, L + ["--vcgen-opt=/checkArrays:A"])
    assert code == ExitCode.NOT_ALL_VERIFIED and "race on A[0]" in out
    code, _, err = gv(tmp_path, monkeypatch, capsys, src, L + ["--check-arrays=C"])
    assert code == ExitCode.GPUVERIFYVCGEN_ERROR and "Array name 'C' specified for restricted checking" in err


def test_annotation_switches(tmp_path, monkeypatch, capsys):
    src = "__kernel void k(__global int *A, int j) {\n  __requires(j == 1);\n" \
          "  for (int i = 0; __invariant(0), i < 5; i++) { A[get_global_id(0) * j] = get_local_id(0); }\n}\n"
    assert gv(tmp_path, monkeypatch, capsys, src, L)[0] == ExitCode.NOT_ALL_VERIFIED
    assert gv(tmp_path, monkeypatch, capsys, src, L + ["--only-requires"])[0] == 0
    # without the requires, j is any value: the writes may race
    assert gv(tmp_path, monkeypatch, capsys, src, L + ["--no-annotations"])[0] == ExitCode.NOT_ALL_VERIFIED
    code, _, err = gv(tmp_path, monkeypatch, capsys, src, L + ["--no-annotations", "--only-requires"])
    assert code == ExitCode.COMMAND_LINE_ERROR and "exclude each other" in err


def test_asymmetric_asserts(tmp_path, monkeypatch, capsys):
    src = "__kernel void k(int x) {\n  int i = get_local_id(0);\n  __assert(__other_int(i) >= 0 || i < 0);\n" \
          "  __assert(i < 16);\n}\n"
    assert gv(tmp_path, monkeypatch, capsys, src, L)[0] == 0
    assert gv(tmp_path, monkeypatch, capsys, src, L + ["--asymmetric-asserts"])[0] == 0


ROTATE = """__kernel void k(int a, int b, int c, __global int *out) {
  __requires(a != b); __requires(a != c); __requires(b != c);
  for (int i = 0; __invariant(a != b), i < 100; i++) {
    int t = a; a = b; b = c; c = t;
  }
  out[get_global_id(0)] = a - b;
}
"""

RACE_IN_LATE_ITERATION = """__kernel void k(__global int *p) {
  for (int i = 0; i < 100; i++) {
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (i == 57) p[0] = get_local_id(0);
  }
}
"""


@pytest.mark.parametrize("src, depth, code", [
    (ROTATE, None, ExitCode.NOT_ALL_VERIFIED),  # a != b alone is not inductive
    (ROTATE, 2, ExitCode.NOT_ALL_VERIFIED),     # two assumed rotations do not give c != a
    (ROTATE, 3, 0),                             # three do: all three values differ
    (RACE_IN_LATE_ITERATION, 3, ExitCode.NOT_ALL_VERIFIED),  # the step case reaches iteration 57
])
def test_k_induction(tmp_path, monkeypatch, capsys, src, depth, code):
    flags = L + ["--no-infer"] + ([f"--k-induction-depth={depth}"] if depth else [])
    got, out, err = gv(tmp_path, monkeypatch, capsys, src, flags)
    assert got == code, out + err


@pytest.mark.parametrize("flags, code, text", [
    (["--k-induction-depth=0"], ExitCode.COMMAND_LINE_ERROR, "at least 1"),
    (["--no-annot"], 0, ""),  # prefix of --no-annotations
    (["--no-"], ExitCode.COMMAND_LINE_ERROR, "ambiguous"),
    (["--cruncher-opt=/displayLoopAbstractions", "--debug"], 0, "timing:"),
    (["--silent"], 0, ""),
    (["--time-as-csv=run1"], 0, "run1,"),
    (["--pointer-bitwidth=64"], 0, ""),
    (["--error-limit=0"], ExitCode.COMMAND_LINE_ERROR, "--error-limit"),
])
def test_driver_flags(tmp_path, monkeypatch, capsys, flags, code, text):
    src = "__kernel void k(__global int *A) { A[get_global_id(0)] = 1; }\n"
    got, out, err = gv(tmp_path, monkeypatch, capsys, src, L + flags)
    assert got == code and text in out + err, out + err
    if "--silent" in flags:
        assert out == ""
