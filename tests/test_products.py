"""Cancellation lemmas for the two threads' products with a shared factor
(``vcgen.twothread.products``): which products get one, that the lemma is valid (checked
by z3 over the IL's own semantics at small widths: at 32 bits the theorem itself is what
bit-blasting cannot do; at 32 and 64 bits over the exact integer reading of the
operations, ``_exact_int``, which z3's nonlinear integer arithmetic decides at once), and
that it turns a race check on
``out[gid * stride]`` with a symbolic stride from minutes into a quick proof while a real
race through a wrapping product is still reported."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import z3

from bugle.cc import compile_kernel
from bugle.translate import translate_ir
from vcgen import il
from vcgen.il.printer import expr_str
from vcgen.twothread.builder import ProgramBuilder
from vcgen.twothread.options import LaunchConfig, LockstepOptions
from vcgen.twothread.products import bounded_division_lemma, cancellation_lemma, latch_lemma, remainder_lemma
from vcgen.twothread.transform import lockstep
from vcgen.vc.encode import Translator

ROOT = Path(__file__).resolve().parent.parent

STRIDED = """__kernel void k(__global const int *in, __global int *out, unsigned stride) {
  __requires(stride >= 1 && stride <= 1024); __requires(get_global_size(0) <= 1048576);
  unsigned gid = get_global_id(0);
  out[gid * stride] = in[gid];
}"""


def _two_thread(tmp_path: Path, src: str, launch: LaunchConfig) -> il.Program:
    k = tmp_path / "k.cl"
    k.write_text(src)
    return lockstep(translate_ir(compile_kernel(str(k))), LockstepOptions(launch=launch))


def _lemmas(p: il.Program) -> list[str]:
    """The lemmas' conclusions (``x$1 == x$2``, ``q$1 == q$2 && x$1 == x$2``), as text."""
    out = []
    for b in p.kernel().blocks:
        for c in b.cmds:
            if isinstance(c, il.Assume) and isinstance(c.expr, il.BinOp) and c.expr.op == "==>" \
                    and "[64:32] == 0bv32" in expr_str(c.expr):
                out.append(expr_str(c.expr.right))
    return out


ADD2D = """__kernel void add2d(__global float *C, __global const float *A, int n) {
  __requires(n >= 0 && n <= 1024);
  int row = get_global_id(1);
  int col = get_global_id(0);
  if (row < n && col < n)
    C[row * n + col] = A[row * n + col] + 1.0f;
}"""


def test_a_product_with_a_uniform_symbolic_factor_gets_a_lemma(tmp_path):
    p = _two_thread(tmp_path, STRIDED, LaunchConfig((64, 1, 1), (8, 1, 1)))
    concl = _lemmas(p)
    assert any("$1 ==" in c and "$2" in c and "call" in c for c in concl), concl


@pytest.mark.parametrize("index", ["gid * 4", "gid * gid", "stride * stride", "gid * 4 + gid"])
def test_literal_and_non_uniform_products_get_none(tmp_path, index):
    src = STRIDED.replace("out[gid * stride]", f"out[{index}]")
    p = _two_thread(tmp_path, src, LaunchConfig((64, 1, 1), (8, 1, 1)))
    assert _lemmas(p) == []  # nor the launch sizes' products in the global id


def test_a_sum_of_a_product_variable_gets_a_division_lemma(tmp_path):
    """``row * n + col``: clang assigns the product to a variable first; the lemma's premise
    states the variable's definition (so it holds for every value)."""
    p = _two_thread(tmp_path, ADD2D, LaunchConfig((16, 16, 1), (64, 64, 1)))
    division = [c for c in _lemmas(p) if "&&" in c]
    assert division and all("call" in c for c in division), _lemmas(p)
    text = "\n".join(expr_str(c.expr) for b in p.kernel().blocks for c in b.cmds if isinstance(c, il.Assume))
    assert re.search(r"\(\$mul[\w.]*\$1 == BV32_MUL\(", text), text


def _zext_remainder_lemma(v: int, w: int, scale: int) -> tuple[il.Program, il.Expr, tuple[str, ...]]:
    """The remainder lemma of a ``v``-bit sum zero-extended to a ``w``-bit offset (CUDA's
    ``ZEXT64(q * u + x)``): ``L`` and ``M`` ``w``-bit, ``L == ZEXT(s)``, ``s == p + x``,
    ``p == q * u`` its premises; as ``_lemma_at``."""
    b = ProgramBuilder(set())
    names = ("L", "M", "s", "p", "q", "u", "x")
    off, m, sm, p, q, u, x = (il.Var(n) for n in names)
    add, mul = b.bvfun("ADD", v), b.bvfun("MUL", w)
    dividend: il.Expr = off if scale == 1 else \
        il.FunApp(b.bvfun("UDIV", w), (il.FunApp(mul, (off, il.BvLit(scale, w))), il.BvLit(scale, w)))
    rem = il.FunApp(b.bvfun("UREM", w), (dividend, m))
    defs = (il.BinOp("==", off, il.FunApp(b.zext(v, w), (sm,))), il.BinOp("==", sm, il.FunApp(add, (p, x))),
            il.BinOp("==", p, il.FunApp(b.bvfun("MUL", v), (q, u))))
    lemma = remainder_lemma(b, w, rem, scale, q, u, x, defs, v)
    decls = tuple(il.ConstDecl(n, il.BvType(w if n in ("L", "M") else v)) for n in names)
    return il.Program(tuple(b.new_functions.values()) + decls), lemma, names


def _lemma_at(w: int, which: str, scale: int = 4) -> tuple[il.Program, il.Expr, tuple[str, ...]]:
    """The cancellation, division or remainder lemma over ``w``-bit variables, its program
    (the declarations of its functions and variables) and the variable names; the
    remainder lemma's ``rem`` is ``((L * scale) / scale) % M`` (``L % M`` for scale 1)
    with ``L == p + x`` and ``p == q * u`` its premises, as the kernel's definitions."""
    b = ProgramBuilder(set())
    if which == "remainder":
        names: tuple[str, ...] = ("L", "p", "q", "u", "x", "M")
        off, p, q, u, x, m = (il.Var(n) for n in names)
        add, mul = b.bvfun("ADD", w), b.bvfun("MUL", w)
        dividend: il.Expr = off if scale == 1 else \
            il.FunApp(b.bvfun("UDIV", w), (il.FunApp(mul, (off, il.BvLit(scale, w))), il.BvLit(scale, w)))
        rem = il.FunApp(b.bvfun("UREM", w), (dividend, m))
        defs = (il.BinOp("==", off, il.FunApp(add, (p, x))), il.BinOp("==", p, il.FunApp(mul, (q, u))))
        lemma = remainder_lemma(b, w, rem, scale, q, u, x, defs)
    elif which == "cancellation":
        names: tuple[str, ...] = ("x1", "x2", "u")
        lemma = cancellation_lemma(b, w, (il.Var("x1"), il.Var("x2")), il.Var("u"))
    else:
        names = ("q1", "q2", "x1", "x2", "u", "p1", "p2")
        q1, q2, x1, x2, u, p1, p2 = (il.Var(n) for n in names)
        add, mul = b.bvfun("ADD", w), b.bvfun("MUL", w)
        defs = (il.BinOp("==", p1, il.FunApp(mul, (q1, u))), il.BinOp("==", p2, il.FunApp(mul, (q2, u))))
        lemma = bounded_division_lemma(b, w, (il.FunApp(add, (x1, p1)), il.FunApp(add, (x2, p2))),
                                       (q1, q2), u, (x1, x2), defs)
    prog = il.Program(tuple(b.new_functions.values()) + tuple(il.ConstDecl(n, il.BvType(w)) for n in names))
    return prog, lemma, names


@pytest.mark.parametrize("w", [4, 8, 10])  # the general theorem is too hard for bit-blasting at 32
def test_the_lemma_is_valid(w):
    prog, lemma, _ = _lemma_at(w, "cancellation")
    s = z3.Solver()
    s.add(z3.Not(Translator(prog, z3.main_ctx()).term(lemma)))
    assert s.check() == z3.unsat
    # and it is not vacuous: without the no-wrap conjuncts it is false (products wrap)
    weak = il.implies(lemma.left.left.left, lemma.right)  # x1*u == x2*u && u != 0 ==> x1 == x2
    s = z3.Solver()
    s.add(z3.Not(Translator(prog, z3.main_ctx()).term(weak)))
    assert s.check() == z3.sat


@pytest.mark.parametrize("w", [4, 6, 8])
def test_the_division_lemma_is_valid(w):
    prog, lemma, _ = _lemma_at(w, "division")
    s = z3.Solver()
    s.add(z3.Not(Translator(prog, z3.main_ctx()).term(lemma)))
    assert s.check() == z3.unsat


def _verify(tmp_path: Path, src: str, *flags: str, timeout: float = 120) -> tuple:
    k = tmp_path / "k.cl"
    k.write_text(src)
    return _run(k, *flags, timeout=timeout)


def _run(k: Path, *flags: str, timeout: float = 120) -> tuple:
    p = subprocess.run([sys.executable, "-m", "vcgen.driver", "--timeout=30", *flags, str(k)],
                       capture_output=True, text=True, cwd=ROOT, timeout=timeout)
    return p.returncode, p.stdout + p.stderr


@pytest.mark.parametrize("sizes", [("--local_size=64", "--num_groups=8"), ("--local_size=*", "--num_groups=*")])
def test_strided_scatter_verifies(tmp_path, sizes):
    code, out = _verify(tmp_path, STRIDED, *sizes)
    assert code == 0, out


@pytest.mark.parametrize("sizes", [("--local_size=[16,16]", "--num_groups=[64,64]"),
                                   ("--local_size=[*,*]", "--num_groups=[*,*]")])
def test_row_major_2d_indexing_by_a_parameter_verifies(tmp_path, sizes):
    """``C[row * n + col]`` under ``row < n && col < n``: over 200 s (the solver's bit-level
    injectivity proof) before the division lemma."""
    code, out = _verify(tmp_path, ADD2D, *sizes)
    assert code == 0, out


def test_row_major_2d_indexing_races_when_the_guard_lets_col_reach_n(tmp_path):
    code, out = _verify(tmp_path, ADD2D.replace("col < n", "col <= n"), "--local_size=[16,16]", "--num_groups=[64,64]")
    assert code == 6 and "race on C" in out, out


def test_a_wrapping_strided_scatter_still_races(tmp_path):
    # 512 work items, a stride up to 2^24: 0 * 2^24 == 256 * 2^24 (mod 2^32)
    code, out = _verify(tmp_path, STRIDED.replace("stride <= 1024", "stride <= 16777216"),
                        "--local_size=64", "--num_groups=8")
    assert code == 6 and "write-write race on out" in out, out


def _exact_int(e: il.Expr, env: dict) -> z3.ExprRef:
    """``e`` read over mathematical integers with the exact bit-vector semantics: a ``bvW``
    value is an integer in ``[0, 2^W)``, each operation reduced modulo ``2^W`` (SMT-LIB's
    division by zero included), so the lemmas' validity at 32 and 64 bits -- beyond
    bit-blasting -- is a question of nonlinear integer arithmetic, which z3 answers.
    ``env``: variable name -> z3 Int.  Only the operations the lemmas use."""
    if isinstance(e, il.Var):
        return env[e.name]
    if isinstance(e, il.BvLit):
        return z3.IntVal(e.value)
    if isinstance(e, il.BvExtract):
        return (_exact_int(e.operand, env) / 2 ** e.lo) % 2 ** (e.hi - e.lo)
    if isinstance(e, il.BinOp):
        a, b = _exact_int(e.left, env), _exact_int(e.right, env)
        return {"==": lambda: a == b, "!=": lambda: a != b, "&&": lambda: z3.And(a, b),
                "||": lambda: z3.Or(a, b), "==>": lambda: z3.Implies(a, b)}[e.op]()
    assert isinstance(e, il.FunApp), e
    m = re.fullmatch(r"BV(\d+)_(\w+?)(\d*)", e.name)
    assert m, e.name
    w, op = int(m.group(1)), m.group(2)
    args = [_exact_int(x, env) for x in e.args]
    n = 2 ** w
    if op == "ZEXT":
        return args[0]
    a, b = args
    return {"ADD": lambda: (a + b) % n, "MUL": lambda: (a * b) % n, "ULT": lambda: a < b, "ULE": lambda: a <= b,
            "UDIV": lambda: z3.If(b == 0, n - 1, a / b), "UREM": lambda: z3.If(b == 0, a, a % b)}[op]()


@pytest.mark.parametrize("which", ["cancellation", "division", "remainder"])
def test_the_exact_integer_reading_agrees_with_the_bit_vector_semantics(which):
    """On random 8-bit values (and values at the edges), the integer reading
    (``_exact_int``) of each sub-expression of each lemma -- premises that fail, products
    that wrap -- has the value of its bit-vector meaning (``Translator``)."""
    import random
    rng = random.Random(13)
    prog, lemma, names = _lemma_at(8, which)
    tr = Translator(prog, z3.main_ctx())
    int_env = {n: z3.Int(n) for n in names}
    subs = [(tr.term(e), _exact_int(e, int_env)) for e in il.subexprs(lemma)]
    for _ in range(100):
        vals = {n: rng.choice([0, 1, 255, rng.randrange(256), rng.randrange(16)]) for n in names}
        bv_sub = [(tr.const(n), z3.BitVecVal(v, 8)) for n, v in vals.items()]
        int_sub = [(int_env[n], z3.IntVal(v)) for n, v in vals.items()]
        for bv_term, int_term in subs:
            bv_val, int_val = z3.simplify(z3.substitute(bv_term, *bv_sub)), z3.simplify(z3.substitute(int_term, *int_sub))
            if z3.is_bool(bv_val):
                assert z3.is_true(bv_val) == z3.is_true(int_val), (vals, bv_term)
            else:
                assert bv_val.as_long() == int_val.as_long(), (vals, bv_term)


@pytest.mark.parametrize("which", ["cancellation", "division"])
@pytest.mark.parametrize("w", [32, 64])  # the widths the kernels use (bv32 offsets, bv64 with 64-bit size_t)
def test_the_lemmas_are_valid_at_the_widths_used(which, w):
    prog, lemma, names = _lemma_at(w, which)
    env = {n: z3.Int(n) for n in names}
    s = z3.Solver()
    s.set("timeout", 60000)
    s.add(*(z3.And(0 <= v, v < 2 ** w) for v in env.values()))
    s.add(z3.Not(_exact_int(lemma, env)))
    assert s.check() == z3.unsat


@pytest.mark.parametrize("scale", [1, 3, 4])
@pytest.mark.parametrize("w", [4, 6, 8])
def test_the_remainder_lemma_is_valid(w, scale):
    """For every value (bit-blasted at small widths, a scale that is not a power of two
    too), and not vacuously: without the ``fits`` conjunct (the last of the premise) it
    is false, the sum or ``L * scale`` wrapping."""
    _assert_valid_but_not_without_fits(*_lemma_at(w, "remainder", scale)[:2])


@pytest.mark.parametrize("scale", [1, 3, 4])
@pytest.mark.parametrize("v,w", [(3, 6), (4, 8), (4, 5)])
def test_the_zero_extended_remainder_lemma_is_valid(v, w, scale):
    """The form for a ``v``-bit sum in a ``w``-bit offset (``remainder_lemma(..., v)``), for
    every value (bit-blasted at small widths; ``(4, 5)``: ``L * 4`` can wrap at ``w``), and
    not vacuously (without ``fits`` it is false)."""
    _assert_valid_but_not_without_fits(*_zext_remainder_lemma(v, w, scale)[:2])


def _assert_valid_but_not_without_fits(prog: il.Program, lemma: il.Expr) -> None:
    """``lemma`` holds for every value, and its premise without the last conjunct
    (``fits``) does not imply its conclusion."""
    s = z3.Solver()
    s.add(z3.Not(Translator(prog, z3.main_ctx()).term(lemma)))
    assert s.check() == z3.unsat
    weak = il.implies(lemma.left.left, lemma.right)
    s = z3.Solver()
    s.add(z3.Not(Translator(prog, z3.main_ctx()).term(weak)))
    assert s.check() == z3.sat


def _disjuncts(e: il.Expr) -> list[il.Expr]:
    return _disjuncts(e.left) + _disjuncts(e.right) if isinstance(e, il.BinOp) and e.op == "||" else [e]


@pytest.mark.parametrize("scale,w,v", [(1, 32, None), (3, 32, None), (4, 32, None), (1, 64, None), (3, 64, None),
                                       (4, 64, None), (4, 64, 32)])
def test_the_remainder_lemma_is_valid_at_the_widths_used(w, scale, v):
    """Over the exact integer reading (``_exact_int``), one disjunct ``q < lo && u <= hi``
    of ``fits`` at a time (valid iff each case is), in three steps z3 proves each: the
    bound ``q * u + x <= lo * hi - 1`` under the case, ``(q * u + x) % u == x`` for ``x <
    u``, then the lemma given both as implications (the lemma in one query is beyond z3's
    nonlinear integer arithmetic within a minute).  ``v``: the zero-extended form, a 32-bit
    sum in a 64-bit offset (CUDA)."""
    prog, lemma, names = _lemma_at(w, "remainder", scale) if v is None else _zext_remainder_lemma(v, w, scale)
    env = {n: z3.Int(n) for n in names}
    q, u, x = env["q"], env["u"], env["x"]

    def proved(*facts) -> bool:
        s = z3.Solver()
        s.set("timeout", 60000)
        s.add(*facts)
        return s.check() == z3.unsat
    assert proved(0 <= q, 0 <= x, x < u, (q * u + x) % u != x)
    cases = _disjuncts(lemma.left.right)
    assert len(cases) >= (v or w) - 2
    for fits in cases:
        lo, hi = fits.left.args[1].value, fits.right.args[1].value  # q < lo && u <= hi
        assert lo * hi <= min((2 ** w - 1) // scale + 1, 2 ** (v or w))  # q * u + x < lo * hi: no wrap
        bound = z3.And(q < lo, u <= hi, x < u)
        assert proved(0 <= q, 0 <= u, 0 <= x, bound, q * u + x > lo * hi - 1)
        case = il.implies(il.BinOp("&&", lemma.left.left, fits), lemma.right)
        widths = {n: w if v is None or n in ("L", "M") else v for n in names}
        assert proved(*(z3.And(0 <= env[n], env[n] < 2 ** widths[n]) for n in names),
                      z3.Implies(bound, q * u + x <= lo * hi - 1), z3.Implies(x < u, (q * u + x) % u == x),
                      z3.Not(_exact_int(case, env))), expr_str(fits)


COLUMNS = """__kernel void k(__global float *grid, int rows) {
  __requires(rows <= 4096); __requires(get_global_size(0) <= 262144);
  size_t col = get_global_id(0);
  size_t width = get_global_size(0);
  for (int r = 1; __invariant(r >= 1), r < rows; r++) {
    grid[r * width + col] += 0.5f * grid[(r - 1) * width + col];
  }
  __function_wide_invariant(__write_implies(grid, (__write_offset_bytes(grid) / sizeof(float)) % width == col));
  __function_wide_invariant(__read_implies(grid, (__read_offset_bytes(grid) / sizeof(float)) % width == col));
}"""


def test_remainders_of_the_logs_get_lemmas_at_logs_and_checks(tmp_path):
    """Each logged access gets the lemma on its offset; each race check against a log one
    on the log, with the remainder named and that equation split over the log
    (``{:log_lemma}``); a kernel whose annotations take no remainder of a log gets none."""
    p = _two_thread(tmp_path, COLUMNS, LaunchConfig((64, 1, 1), (4, 1, 1)))
    cmds = [c for b in p.kernel().blocks for c in b.cmds]
    text = "\n".join(expr_str(c.expr) for c in cmds if isinstance(c, il.Assume))
    assert re.search(r"\) ==> \(BV32_UREM\(BV32_UDIV\(BV32_MUL\(\$arrayidx[\w.]*\$1, 4bv32\)", text), text
    split = [c for c in cmds if isinstance(c, il.Assume) and il.has_attr(c.attrs, "log_lemma")]
    assert len(split) == 4  # checks: write-read twice, read-write, write-write
    assert all(expr_str(c.expr).startswith("BV32_UREM(BV32_UDIV(BV32_MUL(_") for c in split)
    plain = _two_thread(tmp_path, COLUMNS.replace("% width == col", "== col * 4"), LaunchConfig((64, 1, 1), (4, 1, 1)))
    assert not any("_rem$" in str(c) for b in plain.kernel().blocks for c in b.cmds)


@pytest.mark.parametrize("sizes", [("--local_size=64", "--num_groups=4"), ("--local_size=*", "--num_groups=*")])
def test_column_sweeps_with_a_remainder_invariant_verify(tmp_path, sizes):
    """Over 200 s with ``*`` sizes before the remainder lemmas (the solver divides a
    bit-blasted product); now well under the 30 s per query."""
    code, out = _verify(tmp_path, COLUMNS, "--no-infer", *sizes)
    assert code == 0, out


def test_column_sweeps_into_the_neighbouring_column_still_fail(tmp_path):
    code, out = _verify(tmp_path, COLUMNS.replace("grid[r * width + col] +=", "grid[r * width + col + 1] +="),
                        "--no-infer", "--local_size=*", "--num_groups=*")
    assert code == 6, out


ROWS = """__kernel void k(__global float *img) {
  uint x = get_global_id(0), y = get_global_id(1);
  img[y * get_global_size(0) + x] *= 2.0f;
}"""


def _grid_lemmas(p: il.Program) -> list[il.Expr]:
    """The grid lemmas (``products.grid_nowrap_lemma``): a no-wrap conclusion under a premise
    that defines the factor as a global size."""
    return [c.expr for b in p.kernel().blocks for c in b.cmds
            if isinstance(c, il.Assume) and isinstance(c.expr, il.BinOp) and c.expr.op == "==>"
            and "BV32_MUL(group_size_x, num_groups_x))" in expr_str(c.expr.left)
            and expr_str(c.expr.right).endswith("[64:32] == 0bv32")]


def test_a_row_major_grid_index_gets_grid_lemmas_under_a_symbolic_launch_only(tmp_path):
    """One per thread under ``*`` sizes (whose work items the 32-bit address space bounds);
    none for a concrete launch, nor for the row taken from a local id (not below the
    dimension's global size times anything the launch bounds)."""
    symbolic = LaunchConfig((None, None, 1), (None, None, 1))
    assert len(_grid_lemmas(_two_thread(tmp_path, ROWS, symbolic))) == 2
    assert _grid_lemmas(_two_thread(tmp_path, ROWS, LaunchConfig((16, 16, 1), (4, 4, 1)))) == []
    local_row = ROWS.replace("y = get_global_id(1)", "y = get_local_id(1)")
    assert _grid_lemmas(_two_thread(tmp_path, local_row, symbolic)) == []
    same_dim = ROWS.replace("y = get_global_id(1)", "y = get_global_id(0)")
    assert _grid_lemmas(_two_thread(tmp_path, same_dim, symbolic)) == []


@pytest.mark.parametrize("offset", [False, True])
def test_the_grid_lemma_is_valid_under_the_launch_axioms(offset):
    """Over the exact integer reading (``_exact_int``) at 32 bits: with the ids below their
    sizes, sizes at least 1, a zero offset and the global sizes ``Gx * Gy`` at most 2^32
    (the launch axioms, ``launch.symbolic_size_axioms``) the lemma holds, in steps z3
    proves each (the global id is below ``Gy``; the sum is below ``Gx * Gy``; then the
    lemma given both); with ``Gx * Gy`` up to 2^32 + 1 it does not (the sum wraps), so it
    is given only under that bound."""
    from vcgen.twothread.launch import global_id
    from vcgen.twothread.products import grid_nowrap_lemma
    b = ProgramBuilder(set())
    q, u, x = il.Var("q"), il.Var("u"), il.Var("x")
    size = il.FunApp(b.bvfun("MUL", 32), (il.Var("group_size_x"), il.Var("num_groups_x")))
    gid = global_id(b, "y", 1, offset)
    lemma = grid_nowrap_lemma(b, 32, q, u, x, (il.BinOp("==", q, gid), il.BinOp("==", u, size)))
    names = ("q", "u", "x", "group_id_y$1", "group_size_y", "local_id_y$1", "num_groups_y", "global_offset_y",
             "group_size_x", "num_groups_x")
    env = {n: z3.Int(n) for n in names}
    gx, gy = env["group_size_x"] * env["num_groups_x"], env["group_size_y"] * env["num_groups_y"]
    axioms = [*(z3.And(0 <= v, v < 2 ** 32) for v in env.values()), env["global_offset_y"] == 0,
              *(env[n] >= 1 for n in ("group_size_x", "num_groups_x", "group_size_y", "num_groups_y")),
              env["local_id_y$1"] < env["group_size_y"], env["group_id_y$1"] < env["num_groups_y"]]

    def check(*facts) -> z3.CheckSatResult:
        s = z3.Solver()
        s.set("timeout", 60000)
        s.add(*facts)
        return s.check()
    below = _exact_int(gid, env) < gy
    assert check(*axioms, gy <= 2 ** 32, z3.Not(below)) == z3.unsat
    qi, ui, xi = env["q"], env["u"], env["x"]
    fits = z3.Implies(z3.And(qi < gy, xi < ui, ui == gx, gx * gy <= 2 ** 32), qi * ui + xi < 2 ** 32)
    assert check(qi >= 0, xi >= 0, gx >= 1, z3.Not(fits)) == z3.unsat
    assert check(*axioms, gx * gy <= 2 ** 32, gy <= 2 ** 32, z3.Implies(gy <= 2 ** 32, below), fits,
                 z3.Not(_exact_int(lemma, env))) == z3.unsat
    # 2^32 + 1 == 641 * 6700417: the last row's last work item's sum is 2^32
    wraps = {"group_size_x": 641, "num_groups_x": 1, "group_size_y": 1, "num_groups_y": 6700417,
             "group_id_y$1": 6700416, "local_id_y$1": 0, "global_offset_y": 0, "q": 6700416, "u": 641, "x": 640}
    assert check(*axioms, gx * gy <= 2 ** 32 + 1, *(env[n] == v for n, v in wraps.items()),
                 z3.Not(_exact_int(lemma, env))) == z3.sat


COLUMNS_CUDA = """__global__ void k(float *grid, int rows, unsigned w) {
  __requires(rows <= 4096);
  unsigned col = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned width = w; __requires(w >= 1 && w <= 262144 && col < w);
  for (int r = 1; __invariant(r >= 1), r < rows; r++) {
    grid[r * width + col] += 0.5f * grid[(r - 1) * width + col];
  }
  __function_wide_invariant(__write_implies(grid, (__write_offset_bytes(grid) / sizeof(float)) % width == col));
  __function_wide_invariant(__read_implies(grid, (__read_offset_bytes(grid) / sizeof(float)) % width == col));
}"""


@pytest.mark.parametrize("sizes", [("--blockDim=64", "--gridDim=4"), ("--blockDim=*", "--gridDim=*")])
def test_cuda_column_sweeps_with_a_remainder_invariant_verify(tmp_path, sizes):
    """CUDA's 64-bit offsets of a 32-bit index, ``ZEXT64(r * width + col)`` against the
    invariant's ``(L * 4 / 4) % ZEXT64(width)``: the zero-extended remainder lemma.  Before
    it, every query of both launches ran into the 60 s limit; now well under the 30 s."""
    k = tmp_path / "k.cu"
    k.write_text(COLUMNS_CUDA)
    code, out = _run(k, "--no-infer", *sizes)
    assert code == 0, out


def test_cuda_column_sweeps_into_the_neighbouring_column_still_fail(tmp_path):
    k = tmp_path / "k.cu"
    k.write_text(COLUMNS_CUDA.replace("grid[r * width + col] +=", "grid[r * width + col + 1] +="))
    code, out = _run(k, "--no-infer", "--blockDim=*", "--gridDim=*")
    assert code == 6, out


GRID_STRIDE = """__global__ void k(float *out, unsigned n) {
  __requires(n == 100000);
  unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned step = gridDim.x * blockDim.x;
  for (unsigned i = tid; __global_invariant(i % step == tid), i < n; i += step)
    out[i] = 1.0f;
}"""


def _latch_lemmas(tmp_path: Path, src: str) -> list[str]:
    """The latch lemmas (``products.latch_lemma``) of the CUDA kernel ``src`` launched as
    195 blocks of 128 threads, as text."""
    k = tmp_path / "k.cu"
    k.write_text(src)
    p = lockstep(translate_ir(compile_kernel(str(k))), LockstepOptions(launch=LaunchConfig((128, 1, 1), (195, 1, 1))))
    return [expr_str(c.expr) for b in p.kernel().blocks for c in b.cmds
            if isinstance(c, il.Assume) and isinstance(c.expr, il.BinOp) and c.expr.op == "=="
            and isinstance(c.expr.right, il.IfThenElse)]


def test_a_remainder_of_a_latch_variable_in_an_invariant_gets_a_latch_lemma(tmp_path):
    """``i % step == tid`` at the head, ``i := if p then i + step else i`` at the latch:
    one lemma per thread, before the latch, over the value the invariant is checked on;
    none for a remainder by a power of two (a mask)."""
    lemmas = _latch_lemmas(tmp_path, GRID_STRIDE)
    assert len(lemmas) == 2, lemmas
    for t in (1, 2):
        assert any(re.match(rf"BV32_UREM\(if p\${t} then \$add[\w.]*\${t} else \$i[\w.]*\${t}, BV32_MUL\(", x)
                   for x in lemmas), lemmas
    assert _latch_lemmas(tmp_path, GRID_STRIDE.replace("i % step == tid", "i % 128 == threadIdx.x")) == []


@pytest.mark.parametrize("op", ["UREM", "UDIV", "SREM", "SDIV"])
@pytest.mark.parametrize("w", [4, 8])  # the same case split at any width: z3 bit-blasts 32-bit dividers slowly
def test_the_latch_lemma_is_valid(op, w):
    """``T[v := if c then a else v] == if c then T[v := a] else T`` for ``T = (v + x) OP m``:
    valid for every value; with the branches swapped, not."""
    b = ProgramBuilder(set())
    v, a, x, m = (il.Var(n) for n in ("v", "a", "x", "m"))
    term = il.FunApp(b.bvfun(op, w), (il.FunApp(b.bvfun("ADD", w), (v, x)), m))
    lemma = latch_lemma(term, "v", il.IfThenElse(il.Var("c"), a, v))
    assert isinstance(lemma, il.BinOp) and isinstance(lemma.right, il.IfThenElse)
    swapped = il.BinOp("==", lemma.left, il.IfThenElse(lemma.right.cond, lemma.right.els, lemma.right.then))
    prog = il.Program(tuple(b.new_functions.values()) + (il.ConstDecl("c", il.BOOL),)
                      + tuple(il.ConstDecl(n, il.BvType(w)) for n in ("v", "a", "x", "m")))
    for e, answer in ((lemma, z3.unsat), (swapped, z3.sat)):
        s = z3.Solver()
        s.add(z3.Not(Translator(prog, z3.main_ctx()).term(e)))
        assert s.check() == answer


def test_a_grid_stride_loop_with_a_remainder_invariant_verifies(tmp_path):
    """CUDA's grid-stride loop with ``i % step == tid`` (MC_SingleAsianOptionP
    generatePaths' outer loop): 54 s CPU before the latch lemma (yices bit-blasting the
    remainder of the latch's multiplexer), about 4 s with it."""
    k = tmp_path / "k.cu"
    k.write_text(GRID_STRIDE)
    code, out = _run(k, "--gridDim=195", "--blockDim=128")
    assert code == 0, out


@pytest.mark.parametrize("mutant,message", [("i += step + 1)", "might not be maintained"),
                                            ("i % step == tid + 1", "might not hold on entry")])
def test_a_grid_stride_loop_with_a_wrong_invariant_still_fails(tmp_path, mutant, message):
    k = tmp_path / "k.cu"
    k.write_text(GRID_STRIDE.replace("i += step)" if mutant.startswith("i +=") else "i % step == tid", mutant))
    code, out = _run(k, "--gridDim=195", "--blockDim=128")
    assert code == 6 and message in out, out


def _difference_remainder_lemma(v: int | None, w: int) -> tuple[il.Program, il.Expr]:
    """The remainder lemma of an offset that a loop invariant relates to a product
    (``RemainderLemmas._difference_instances``): ``D % M`` with the premise ``D - x == q *
    u`` (``v`` None) or ``D - ZEXT(x) == ZEXT(q * u)`` (``v``-bit ``q``, ``u``, ``x``)."""
    b = ProgramBuilder(set())
    n = v or w
    d, m, q, u, x = (il.Var(s) for s in ("D", "M", "q", "u", "x"))
    prod: il.Expr = il.FunApp(b.bvfun("MUL", n), (q, u))
    xs: il.Expr = x
    if v is not None:
        prod, xs = il.FunApp(b.zext(v, w), (prod,)), il.FunApp(b.zext(v, w), (x,))
    equation = il.BinOp("==", il.FunApp(b.bvfun("SUB", w), (d, xs)), prod)
    lemma = remainder_lemma(b, w, il.FunApp(b.bvfun("UREM", w), (d, m)), 1, q, u, x, (equation,), v)
    decls = tuple(il.ConstDecl(s, il.BvType(w if s in ("D", "M") else n)) for s in ("D", "M", "q", "u", "x"))
    return il.Program(tuple(b.new_functions.values()) + decls), lemma


@pytest.mark.parametrize("v,w", [(None, 8), (None, 10), (4, 8), (6, 12)])
def test_the_difference_remainder_lemma_is_valid(v, w):
    """Valid for every value (bit-blasted at small widths: the proof is the same at any),
    and not without ``fits`` (``D - x`` wraps to the product)."""
    _assert_valid_but_not_without_fits(*_difference_remainder_lemma(v, w))


PATHS = """__global__ void k(float *paths, unsigned numSims, unsigned numTimesteps) {
  __requires(numSims == 100000);
  __requires(numTimesteps == 87);
  unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned step = gridDim.x * blockDim.x;
  for (unsigned i = tid;
       __global_invariant(i % step == tid),
       __global_invariant(__write_implies(paths, (__write_offset_bytes(paths) / sizeof(float)) % numSims % step == tid)),
       i < numSims; i += step) {
    float *output = paths + i;
    for (unsigned t = 0;
         __invariant(__ptr_offset_bytes(output) / sizeof(float) - i == t * numSims),
         __global_invariant(__write_implies(paths, (__write_offset_bytes(paths) / sizeof(float)) % numSims % step == tid)),
         t < numTimesteps; t++, output += numSims)
      *output = 1.0f;
  }
}"""


def test_a_pointer_the_invariant_relates_to_a_product_gets_remainder_lemmas(tmp_path):
    """``output += numSims`` with ``output - i == t * numSims`` at its loop's head: the
    access ``*output`` gets the remainder lemma of the annotation's ``% numSims`` at the
    log (thread 1) and at the check (thread 2), the invariant's equation in its premise."""
    k = tmp_path / "k.cu"
    k.write_text(PATHS)
    p = lockstep(translate_ir(compile_kernel(str(k))), LockstepOptions(launch=LaunchConfig((128, 1, 1), (195, 1, 1))))
    text = [expr_str(c.expr) for b in p.kernel().blocks for c in b.cmds if isinstance(c, il.Assume)]
    for t, log in ((1, r"\$output[\w.]*\$1"), (2, "_WRITE_OFFSET_\\$\\$paths")):
        assert any(re.search(rf"BV64_SUB\(BV64_UDIV\(BV64_MUL\(\$output[\w.]*\${t}, 4bv64\), 4bv64\), "
                             rf"BV32_ZEXT64\(\$i[\w.]*\${t}\)\) == BV32_ZEXT64\(BV32_MUL\(", x)
                   and re.search(rf"==> \(BV64_UREM\(BV64_UDIV\(BV64_MUL\({log}, 4bv64\), 4bv64\), "
                                 rf"BV32_ZEXT64\(\$numSims\)\) == BV32_ZEXT64\(\$i[\w.]*\${t}\)\)$", x)
                   for x in text), text


def test_a_grid_stride_loop_of_pointer_sweeps_verifies(tmp_path):
    """MC_SingleAsianOptionP generatePaths without the random numbers: each of the
    invariants at the back edges and the race check took yices over 60 s before the latch
    and difference remainder lemmas, about 0.1 s each with them."""
    k = tmp_path / "k.cu"
    k.write_text(PATHS)
    code, out = _run(k, "--gridDim=195", "--blockDim=128", timeout=300)
    assert code == 0, out


@pytest.mark.parametrize("mutant", ["output += numSims - 1)", "*(output + 1) = 1.0f"])
def test_a_grid_stride_loop_of_pointer_sweeps_off_by_one_fails(tmp_path, mutant):
    k = tmp_path / "k.cu"
    k.write_text(PATHS.replace("output += numSims)" if mutant.startswith("output") else "*output = 1.0f", mutant))
    code, out = _run(k, "--gridDim=195", "--blockDim=128", timeout=300)
    assert code == 6, out
