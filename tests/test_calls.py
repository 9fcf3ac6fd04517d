"""Calls the kernel cannot inline: functions declared but not defined (bugle.bodiless),
indirect calls through function pointers (bugle.function_pointers), and uninterpreted
functions with --boogie-file axioms (DECLARE_UF_*, Boogie triggers in vcgen.il)."""
from __future__ import annotations

from pathlib import Path

import pytest

from bugle import BugleError
from bugle.cc import compile_kernel, optimize, run_clang
from bugle.function_pointers import NULL_CALL, address_taken, promote_indirect_calls
from bugle.translate import translate_ir
from vcgen import il
from vcgen.il.parser import parse_program
from vcgen.il.printer import expr_str, program_str
from vcgen.il.typecheck import typecheck

from test_modular import verify  # the driver on a kernel text, the same launch

VERIFIED, NOT_VERIFIED, BUGLE_ERROR = 0, 6, 4


def translated(tmp_path: Path, src: str, suffix: str = ".cl", **kw) -> il.Program:
    f = tmp_path / f"k{suffix}"
    f.write_text(src)
    p = translate_ir(compile_kernel(str(f)), **kw)
    assert parse_program(program_str(p)) == p
    typecheck(p)
    return p


def commands(p: il.Program) -> list:
    return [c for b in p.kernel().blocks for c in b.cmds]


# ------------------------------------------------------------------ bodiless calls

BODILESS = """
void fill(__global int *p, int v);
int pick(int a);
__kernel void k(__global int *a) {
  int r = pick(a[0]);
  fill(a, r);
}
"""


def test_bodiless_call_reads_writes_and_havocs_the_arrays_it_reaches(tmp_path):
    p = translated(tmp_path, BODILESS)
    cmds = commands(p)
    havocs = [c for c in cmds if isinstance(c, il.Havoc) and "$$a" in c.vars]
    assert len(havocs) == 1  # the whole array becomes arbitrary
    reads = [c for c in cmds if isinstance(c, il.Assign) and isinstance(c.rhss[0], il.MapSelect)
             and c.rhss[0].map == il.Var("$$a")]
    writes = [c for c in cmds if isinstance(c, il.Assign) and isinstance(c.lhss[0], il.MapLhs)
              and c.lhss[0].name == "$$a"]
    assert len(reads) == 2 and len(writes) == 1  # a[0], then the call's read and write
    # the call's write is at an index havocked just before it, and $$a is modified
    idx = writes[0].lhss[0].index
    assert isinstance(idx, il.Var) and any(isinstance(c, il.Havoc) and idx.name in c.vars for c in cmds)
    assert "$$a" in p.kernel().modifies
    # pick(): a fresh havocked value, not a function of its argument
    assert not any(isinstance(d, il.FunctionDecl) and "pick" in d.name for d in p.decls)


def test_bodiless_calls_error_mode_names_the_function(tmp_path):
    with pytest.raises(BugleError, match=r"call to pick .*declared but not defined"):
        translated(tmp_path, BODILESS, bodiless="error")


def test_bodiless_call_on_private_memory_havocs_it_without_logging(tmp_path):
    p = translated(tmp_path, """
void touch(int *x);
__kernel void k(__global int *out) {
  int v = 1;
  touch(&v);
  out[get_global_id(0)] = v;
}""")
    cmds = commands(p)
    priv = [c for c in cmds if isinstance(c, il.Havoc) and any(v.startswith("$$v") for v in c.vars)]
    assert priv, "the private variable's array is havocked"
    after = cmds[cmds.index(priv[0]):]  # no logged cell write: private memory never races
    assert not any(isinstance(c, il.Assign) and isinstance(c.lhss[0], il.MapLhs) and c.lhss[0].name.startswith("$$v")
                   for c in after)


def test_value_after_bodiless_call_is_arbitrary_also_under_equality_abstraction(tmp_path):
    src = """
void fill(__local int *p);
__kernel void k(int c) {
  __local int t[64];
  t[get_local_id(0)] = 1;
  if (c == 5) fill(t);
  __assert(t[get_local_id(0)] == 1);
}"""
    rc, out = verify(tmp_path, src, "--equality-abstraction")
    assert rc == NOT_VERIFIED and "this assertion might not hold" in out
    rc, out = verify(tmp_path, src.replace("if (c == 5) fill(t);", ""), "--equality-abstraction")
    assert rc == VERIFIED, out


def test_race_through_array_passed_to_bodiless_function(tmp_path):
    src = """
__device__ void scale(float *v, int n);
__global__ void k(float *data, int n) {
  if (threadIdx.x == 0 && blockIdx.x == 0) scale(data, n);
  data[threadIdx.x + blockIdx.x * blockDim.x] = 0;
}"""
    rc, out = verify(tmp_path, src, suffix=".cu")
    assert rc == NOT_VERIFIED and "race on data" in out, out
    rc, out = verify(tmp_path, src.replace("  data[threadIdx.x + blockIdx.x * blockDim.x] = 0;\n", ""),
                     suffix=".cu")
    assert rc == VERIFIED, out


def test_pointer_returned_by_bodiless_function_may_be_null(tmp_path):
    rc, out = verify(tmp_path, """
float *lookup(float *p);
__kernel void k(__global float *out) {
  float x = 0;
  float *y = lookup(&x);
  out[get_global_id(0)] = y[0];
}""")
    assert rc == NOT_VERIFIED and "possible null pointer access" in out, out


# ------------------------------------------------------------------ function pointers

FP_IR = """target triple = "nvptx64-nvidia-cuda"
@table = global [1 x ptr] [ptr @g]
define float @f(float %x) {
entry:
  ret float %x
}
define float @g(float %x) {
entry:
  ret float %x
}
define i32 @h(i32 %x) {
entry:
  ret i32 %x
}
define float @k(ptr %fp, float %v, i1 %c) {
entry:
  %sel = select i1 %c, ptr @f, ptr %fp
  %hp = select i1 %c, ptr @h, ptr null
  %r = call float %sel(float %v)
  br label %next
next:
  %p = phi float [ %r, %entry ]
  %q = call float @f(float %p)
  ret float %q
}
"""


def test_address_taken_functions_exclude_direct_callees():
    assert address_taken(FP_IR, {"f", "g", "h", "k"}) == {"f", "g", "h"}


def test_indirect_call_becomes_a_case_split_over_candidates_of_its_type():
    out = promote_indirect_calls(FP_IR)
    # f and g have the call's type float (float); h (i32 (i32)) is not a candidate
    assert "icmp eq ptr %sel, @f" in out and "icmp eq ptr %sel, @g" in out
    assert "@h(" not in out.split("define float @k")[1].replace("ptr @h, ptr null", "")
    assert f"call void @{NULL_CALL}()" in out and f"declare void @{NULL_CALL}()" in out
    assert "%r = phi float" in out
    # the block holding the rest moved: the successor's phi names the join block
    assert "%p = phi float [ %r, %__fp1.join ]" in out
    optimize(out)  # the rewritten module is valid IR through the whole pipeline


def test_candidate_without_body_is_unsupported_function_pointer():
    ir = FP_IR.replace("define float @g(float %x) {\nentry:\n  ret float %x\n}", "declare float @g(float)")
    with pytest.raises(BugleError, match="Unsupported function pointer.* g"):
        promote_indirect_calls(ir)


def test_function_pointer_argument_needs_a_precondition(tmp_path):
    src = """
typedef float (*op_t)(float);
__device__ float twice(float x) { return 2.0f * x; }
__device__ float half(float x) { return 0.5f * x; }
__global__ void k(float *v, op_t op) {
  REQUIRES
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  v[i] = op(v[i]);
}"""
    rc, out = verify(tmp_path, src.replace("REQUIRES", ""), suffix=".cu")
    assert rc == NOT_VERIFIED and "possible null pointer access" in out, out
    rc, out = verify(tmp_path, src.replace("REQUIRES", "__requires(op == twice | op == half);"), suffix=".cu")
    assert rc == VERIFIED, out


def test_function_pointer_arguments_are_base_and_offset_parameters(tmp_path):
    p = translated(tmp_path, """
typedef int (*op_t)(int);
__device__ int inc(int x) { return x + 1; }
__global__ void k(int *v, op_t op) {
  __requires(op == inc);
  v[threadIdx.x] = op(v[threadIdx.x]);
}""", suffix=".cu")
    params = dict(p.kernel().params)
    assert params.get("$op$base") == il.INT and params.get("$op$offset") == il.BvType(64)
    req = " ".join(expr_str(r.expr) for r in p.kernel().specs)
    assert "$op$base" in req and "$op$offset" in req


def test_race_in_one_candidate_of_an_indirect_call(tmp_path):
    src = """
typedef void (*upd_t)(float *, int);
__device__ void own(float *d, int i) { d[i] = 1.0f; }
__device__ void next(float *d, int i) { d[i] = d[i + 1]; }
__global__ void k(float *d, int mode) {
  upd_t u = mode ? next : own;
  u(d, blockIdx.x * blockDim.x + threadIdx.x);
}"""
    rc, out = verify(tmp_path, src, suffix=".cu")
    assert rc == NOT_VERIFIED and "race on d" in out, out
    rc, out = verify(tmp_path, src.replace("mode ? next : own", "own"), suffix=".cu")
    assert rc == VERIFIED, out


def test_pointer_arithmetic_on_function_pointer_matches_no_function(tmp_path):
    rc, out = verify(tmp_path, """
typedef void (*f_t)(int *);
__device__ void set(int *p) { p[threadIdx.x] = 0; }
__global__ void k(int *p, int i) {
  char *x = (char *)set;
  if (i) x += 4;
  ((f_t)x)(p);
}""", suffix=".cu")
    assert rc == NOT_VERIFIED and "possible null pointer access" in out, out


# ------------------------------------------------------------------ uninterpreted functions


def test_declare_uf_is_the_il_function_of_that_name(tmp_path):
    p = translated(tmp_path, """
DECLARE_UF_BINARY(combine, unsigned, unsigned, unsigned);
DECLARE_UF_UNARY(weight, int, int);
__kernel void k(__global unsigned *a, unsigned x, unsigned y) {
  a[get_global_id(0)] = combine(x, y) + weight(3);
}""")
    names = {d.name: d for d in p.decls if isinstance(d, il.FunctionDecl)}
    assert names["combine"].ret == il.BvType(32) and len(names["combine"].params) == 2
    assert "weight" in names


def test_boogie_file_axioms_over_uninterpreted_functions(tmp_path):
    (tmp_path / "ax.bpl").write_text(
        "function {:bvbuiltin \"bvule\"} ULE(bv32, bv32): bool;\n"
        "axiom (forall x, y: bv32 :: { M(x, y) } ULE(x, M(x, y)) && ULE(y, M(x, y)));\n")
    src = """
DECLARE_UF_BINARY(M, unsigned, unsigned, unsigned);
__kernel void k(unsigned x, unsigned y) {
  unsigned z = M(x, y);
  __assert(CHECK);
}"""
    bpl = f"--boogie-file={tmp_path / 'ax.bpl'}"
    rc, out = verify(tmp_path, src.replace("CHECK", "z >= x && z >= y"), bpl)
    assert rc == VERIFIED, out
    rc, out = verify(tmp_path, src.replace("CHECK", "z <= x"), bpl)
    assert rc == NOT_VERIFIED and "this assertion might not hold" in out, out
    rc, out = verify(tmp_path, src.replace("CHECK", "z >= x && z >= y"))  # no axioms: unknown M
    assert rc == NOT_VERIFIED, out


def test_quantifier_triggers_and_shared_types_parse_and_print():
    p = parse_program("function A(bv8, bv8): bv8;\n"
                      "axiom (forall x, y: bv8, z: bv8 :: { A(x, A(y, z)) } { A(x, y), A(y, z) } "
                      "A(x, A(y, z)) == A(A(x, y), z));\n")
    q = p.decls[1].expr
    assert [n for n, _ in q.vars] == ["x", "y", "z"]
    assert len(q.triggers) == 2 and len(q.triggers[1]) == 2
    assert parse_program(program_str(p)) == p
    typecheck(p)
    # substitution reaches triggers, bound names stay
    s = il.substitute(q, {"x": il.Var("other"), "A": il.Var("B")})
    assert s.triggers == q.triggers


def test_clang_sees_the_uf_macros_in_cuda_too(tmp_path):
    k = tmp_path / "k.cu"
    k.write_text("DECLARE_UF_BINARY(A, int, int, int);\n__global__ void k(int *p) { p[threadIdx.x] = A(1, 2); }\n")
    assert "__uninterpreted_function_A" in run_clang(str(k), "cuda")


def test_opencl_null_is_the_null_pointer(tmp_path):
    rc, out = verify(tmp_path, """
__kernel void k(__global int *a, int c) {
  __global int *p = c ? a : NULL;
  p[get_global_id(0)] = 1;
}""")
    assert rc == NOT_VERIFIED and "possible null pointer access" in out, out


@pytest.mark.parametrize("src", [
    # a pointer stored in a private table the bodiless callee receives
    "__device__ void mutate(int **pp);\n__global__ void k(int *a) { int *t[1]; t[0] = a; mutate(t); }\n",
    # a by-value struct's pointer field, never loaded by the kernel itself
    "struct S { int *p; };\n__device__ void mutate(S *s);\n__global__ void k(S s) { mutate(&s); }\n",
])
def test_bodiless_callee_reaches_stored_pointers(tmp_path, src):
    """The callee may follow pointers stored in what it is given: every thread may write
    the array they point to, a write-write race."""
    code, out = verify(tmp_path, src, suffix=".cu")
    assert code == 6 and "write-write race" in out, out
