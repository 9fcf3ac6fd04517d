"""The annotation language (bugle/annotations.py + the query expansion in vcgen/lockstep.py):
each annotation's IL shape, and its meaning shown by a kernel where it holds and one where
it fails (README "Annotations")."""
from __future__ import annotations

import re

import pytest

from bugle.cc import compile_kernel
from bugle.translate import translate_ir
from vcgen import driver, il
from vcgen.il.errors import ExitCode

OPENCL = ("--local_size=64", "--num_groups=1")
CUDA = ("--blockDim=64", "--gridDim=1")


def verify(tmp_path, capsys, src: str, suffix: str = ".cl", flags=None) -> tuple:
    """(exit code, stdout + stderr) of ``gpuverify`` on the kernel text ``src``."""
    path = tmp_path / f"k{suffix}"
    path.write_text(src)
    flags = flags or (OPENCL if suffix == ".cl" else CUDA)
    with pytest.raises(SystemExit) as e:
        driver.main([str(path), *flags])
    out = capsys.readouterr()
    return e.value.code, out.out + out.err


def gbpl(tmp_path, src: str, suffix: str = ".cl") -> il.Program:
    path = tmp_path / f"k{suffix}"
    path.write_text(src)
    return translate_ir(compile_kernel(str(path)), None, str(path))


def kernel_cl(body: str, params: str = "__global int *A, __global int *B, int n") -> str:
    return f"__kernel void k({params}) {{\n  size_t gid = get_global_id(0);\n  size_t lid = get_local_id(0);\n{body}\n}}\n"


# ------------------------------------------------------------------- IL shapes


def test_statements_become_the_documented_il(tmp_path):
    p = gbpl(tmp_path, kernel_cl("""
  __requires(n > 0);
  __assume(n < 100);
  __assert(gid < 64);
  __global_assert(lid < 64);
  for (int i = 0; __invariant(i <= n), __global_invariant(__implies(__enabled(), i >= 0)), i < n; i++)
    A[gid] = i;"""))
    k = p.kernel()
    assert [s.kind for s in k.specs] == ["requires"]
    cmds = [c for b in k.blocks for c in b.cmds]
    asserts = [c for c in cmds if isinstance(c, il.Assert)]
    kinds = [tuple(a.name for a in c.attrs if a.name != "sourceloc") for c in asserts]
    assert ("user_assert",) in kinds and ("user_assert", "global_annotation") in kinds
    assert ("user_invariant",) in kinds and ("user_invariant", "global_annotation") in kinds
    assert any(isinstance(c, il.Assume) and il.has_attr(c.attrs, "user_assume") for c in cmds)
    # invariants open their loop header block (after the location marker)
    head = next(b for b in k.blocks if any(isinstance(c, il.Assert) and il.has_attr(c.attrs, "user_invariant")
                                           for c in b.cmds))
    assert isinstance(head.cmds[1], il.Assert) and il.has_attr(head.cmds[1].attrs, "user_invariant")
    enabled = [d for d in p.decls if isinstance(d, il.FunctionDecl) and d.name == "__enabled"]
    assert enabled and il.attr(enabled[0].attrs, "annotation").args == ("enabled",)


def test_queries_are_annotation_functions(tmp_path):
    p = gbpl(tmp_path, kernel_cl("""
  int x = A[gid];
  __assert(__uniform_int(n) && __distinct_int(gid) && __other_int(lid) != lid && __all(gid < 64)
           && __at_most_one(lid == 0) && __read_implies(A, __read_offset_bytes(A) == 4 * gid)
           && __no_write(A) && __uniform_bool(n > 0));"""))
    fns = {d.name: il.attr(d.attrs, "annotation").args for d in p.decls
           if isinstance(d, il.FunctionDecl) and il.has_attr(d.attrs, "annotation")}
    assert fns["__uniform_bv32"] == ("uniform",)
    assert fns["__distinct_bv32"] == ("distinct",)
    assert fns["__other_bv32"] == ("other",)
    assert fns["__all"] == ("all",) and fns["__at_most_one"] == ("at_most_one",)
    assert fns["__read_$$A"] == ("read", "$$A") and fns["__read_offset_$$A"] == ("read_offset", "$$A")
    assert fns["__write_$$A"] == ("write", "$$A") and fns["__uniform_bool"] == ("uniform",)
    # no local holds a query's value: they exist only inside the assertion
    assigned = [str(r) for b in p.kernel().blocks for c in b.cmds if isinstance(c, il.Assign) for r in c.rhss]
    assert not any("__" in r for r in assigned)


def test_ensures_checked_at_the_return_of_its_function(tmp_path):
    p = gbpl(tmp_path, """
__device__ int twice(int x) {
  __ensures(__return_val_int() == 2 * __old_int(x));
  x = x + x;
  return x;
}
__global__ void k(int *p) { p[threadIdx.x] = twice(threadIdx.x); }
""", ".cu")
    posts = [c for b in p.kernel().blocks for c in b.cmds
             if isinstance(c, il.Assert) and il.has_attr(c.attrs, "postcondition")]
    assert len(posts) == 1


# ------------------------------------------------------------------- meaning

HOLDS_FAILS = {
    "__assert": ("__assert(gid < 64);", "__assert(gid < 32);"),
    "__assume": ("__assume(n > 5); __assert(n > 3);", "__assert(n > 3);"),
    "__requires": ("", ""),  # see test_requires_*
    "__enabled": ("if (lid < 8) __assert(__enabled());",
                  "size_t g = gid; if (lid < 8) __global_assert(__implies(g > 100, __enabled()) && __enabled());"),
    "__global_assert": ("size_t g = gid; if (lid < 8) __global_assert(g < 64);",
                        "size_t g = gid; if (lid < 8) __global_assert(g < 8);"),
    "__uniform_int": ("__assert(__uniform_int(get_local_size(0)) && __uniform_int(n));",
                      "__assert(__uniform_int(lid));"),
    "__uniform_bool": ("__assert(__uniform_bool(n > 0));", "__assert(__uniform_bool(lid > 3));"),
    "__distinct_int": ("__assert(__distinct_int(gid));", "__assert(__distinct_int(lid / 2));"),
    "__distinct_bool": ("__assert(__distinct_bool(lid == 0) || lid != 0);", "__assert(__distinct_bool(lid < 32));"),
    "__other_int": ("__assert(__other_int(gid) != gid);", "__assert(__other_int(lid) == lid);"),
    "__other_bool": ("__assert(__other_bool(n > 0) == (n > 0));", "__assert(__other_bool(lid == 0) == (lid == 0));"),
    "__all": ("__assert(__all(lid < 64));", "__assert(__all(lid < 32));"),
    "__at_most_one": ("__assert(__at_most_one(lid == 0));", "__assert(__at_most_one(lid < 2));"),
    "__read": ("A[gid + 64] = A[gid]; __assert(__implies(__read(A), __read_offset_bytes(A) == 4 * gid));",
               "A[gid + 64] = A[gid]; __assert(__implies(__read(A), __read_offset_bytes(A) == gid));"),
    "__no_read": ("A[gid] = 1; __assert(__no_read(A));", "A[gid + 64] = A[gid]; __assert(__no_read(A));"),
    "__write": ("A[gid] = 1; __assert(__write_implies(A, __write_offset_bytes(A) == 4 * gid));",
                "A[gid] = 1; __assert(__write_implies(A, __write_offset_bytes(A) == 0));"),
    "__no_write": ("A[gid] = 1; __assert(__no_write(B));", "A[gid] = 1; __assert(__no_write(A));"),
    "__ptr_base": ("__local int a[4], b[4]; __assert(__ptr_base(a) != __ptr_base(b));",
                   "__local int a[4], b[4]; __assert(__ptr_base(a) == __ptr_base(b));"),
    "__ptr_offset_bytes": ("__assert(__ptr_offset_bytes(A + 2) == 8);", "__assert(__ptr_offset_bytes(A + 2) == 2);"),
    "__invariant": ("__requires(n >= 0); for (int i = 0; __invariant(i >= 0), __invariant(i <= n), i < n; i++) A[gid] = i;",
                    "for (int i = 0; __invariant(i >= 1 | i == -1), i < n; i++) A[gid] = i;"),
    "__global_invariant": (
        "int i = (int)lid; while (__global_invariant(__implies(__enabled(), i >= 0)), i > 0) i--;",
        "int i = (int)lid; while (__global_invariant(i > 0), i > 0) i--;"),
}


@pytest.mark.parametrize("name", [n for n in HOLDS_FAILS if HOLDS_FAILS[n][0]])
def test_annotation_holds_and_fails(name, tmp_path, capsys):
    holds, fails = HOLDS_FAILS[name]
    code, out = verify(tmp_path, capsys, kernel_cl(holds))
    assert code == 0, out
    code, out = verify(tmp_path, capsys, kernel_cl(fails))
    assert code == ExitCode.NOT_ALL_VERIFIED, out
    assert "might not hold" in out


def test_short_circuit_inside_an_annotation(tmp_path, capsys):
    code, out = verify(tmp_path, capsys, kernel_cl(
        "__assert(__uniform_int(n) && (lid < 64 || __all(false)) && (__distinct_int(gid) ? 1 : 0));"))
    assert code == 0, out


CONTRACT = """
__device__ int clampi(int i, int n) {
  __requires(n > 0);
  __ensures(__return_val_int() >= 0 && __return_val_int() < n);
  return i < 0 ? 0 : (i >= n ? n - 1 : i);
}
__global__ void k(int *p, int n) {
  __requires(n > 0);
  p[threadIdx.x] = clampi(threadIdx.x + BIAS, n);
}
"""


def test_function_contract_holds(tmp_path, capsys):
    code, out = verify(tmp_path, capsys, CONTRACT.replace("BIAS", "1"), ".cu")
    assert code == 0, out


def test_function_precondition_checked_at_call(tmp_path, capsys):
    code, out = verify(tmp_path, capsys, CONTRACT.replace("  __requires(n > 0);\n  p", "  p").replace("BIAS", "1"),
                       ".cu")
    assert code == ExitCode.NOT_ALL_VERIFIED and "a precondition for this call might not hold" in out, out


def test_function_postcondition_checked_at_return(tmp_path, capsys):
    code, out = verify(tmp_path, capsys, CONTRACT.replace("n - 1 : i", "n : i").replace("BIAS", "1"), ".cu")
    assert code == ExitCode.NOT_ALL_VERIFIED and "postcondition might not hold" in out, out


def test_kernel_postcondition(tmp_path, capsys):
    src = "__global__ void k(int *p) {\n  __ensures(__write_implies(p, __write_offset_bytes(p) == 4 * threadIdx.x));\n" \
          "  p[threadIdx.x] = 1;\n}\n"
    code, out = verify(tmp_path, capsys, src, ".cu")
    assert code == 0, out
    code, out = verify(tmp_path, capsys, src.replace("p[threadIdx.x] = 1", "p[threadIdx.x + 1] = 1"), ".cu")
    assert code == ExitCode.NOT_ALL_VERIFIED and "postcondition might not hold" in out, out


@pytest.mark.parametrize("body,message", [
    ("if (__enabled()) A[gid] = 1;", "may only be used inside annotations"),
    ("A[gid] = __other_int(n);", "may only be used inside annotations"),
    ("__assert(__return_val_int() == 0);", "__return_val_int may only be used in an __ensures"),
    ("if (n > 0) __requires(n > 1);", "__requires must be executed unconditionally"),
])
def test_misuse_is_a_bugle_error(body, message, tmp_path, capsys):
    code, out = verify(tmp_path, capsys, kernel_cl(body))
    assert code == ExitCode.BUGLE_ERROR, out
    assert message in out and "Traceback" not in out


@pytest.mark.parametrize("loop,ok", [
    # in the loop condition, before it branches: at the loop head
    ("for (int i = 0; __invariant(i >= 0), __invariant(i <= n), i < n; i++) A[gid] = i;", True),
    ("for (int i = 0; __invariant(i >= 0 & i <= n), i < n && A[gid] != 3; i++) A[gid] = i;", True),
    ("int i = 0; while (__global_invariant(__implies(__enabled(), i >= 0)), i < n) i++;", True),
    # outside any loop, or in the loop body
    ("__invariant(n > 0);", False),
    ("for (int i = 0; i < n; i++) { A[gid] = i; __invariant(i >= 0); }", False),
    # short-circuit evaluation puts the call after a branch (GPUVerify's semantics)
    ("for (int i = 0; __invariant(i >= 0 && i <= n), i < n; i++) A[gid] = i;", False),
    ("for (int i = 0; __invariant(i >= 0 || i == -1), i < n; i++) A[gid] = i;", False),
    ("for (int i = 0; __invariant(n > 0 ? i >= 0 : 1), i < n; i++) A[gid] = i;", False),
    # ... also when clang folds the branch away (u >= 0 is always true for an unsigned u)
    ("for (unsigned u = lid; __invariant((u >= 0) && (u % 64 == lid)), u < 100; u += 64) A[gid] = u;", False),
    ("for (unsigned u = lid; __invariant(u % 64 == lid /* && or ? here */), u < 100; u += 64) A[gid] = u;", True),
])
def test_invariant_must_be_at_the_loop_head(loop, ok, tmp_path, capsys):
    """An ``__invariant`` is checked where the loop's back edges arrive: its call must be
    in the loop header block.  Anywhere else -- the body, outside loops, or after the
    branches of a short-circuit operator in its own argument -- is a vcgen error
    (exit 5) at the call's location, worded as GPUVerify words it."""
    code, out = verify(tmp_path, capsys, kernel_cl("__requires(n >= 0); " + loop))
    if ok:
        assert code == 0, out
    else:
        assert code == ExitCode.GPUVERIFYVCGEN_ERROR, out
        assert re.search(r"k\.cl:\d+:\d+:\s+user-specified invariant does not appear at loop head", out), out


def test_call_argument_text():
    from bugle.source_text import call_argument, uses_short_circuit
    lines = ("  for (; __invariant(a && (b ||", "  c)), i < n;) __invariant(x /* && */ == '?')", "__invariantx(y)")
    arg = call_argument(lines, 1, 10, ("__invariant", "__global_invariant"))
    assert arg == "a && (b ||\n  c)" and uses_short_circuit(arg)
    arg = call_argument(lines, 2, 16, ("__invariant",))
    assert arg is not None and not uses_short_circuit(arg)
    assert call_argument(lines, 3, 1, ("__invariant",)) is None  # another identifier
    assert call_argument(lines, 1, 1, ("__invariant",)) is None  # no call starts there
    assert call_argument(("__invariant(a && b",), 1, 1, ("__invariant",)) is None  # unclosed
