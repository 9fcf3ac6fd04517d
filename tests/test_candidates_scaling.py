"""Candidate counts grow linearly with loop nesting depth (issue 12: nested loops made
Houdini's rounds, one per false candidate, quadratic).  Kernels from the ``loop`` and
``sync-loop`` families of ``make bench-scaling`` (tests/bench_scaling.py).  Candidate
generation stays fast on long chains of definitions (issue 12, escape-time loops)."""
import subprocess
import sys

import pytest

import bench_scaling
from test_candidates_harness import ROOT, candidates
from vcgen import il


def count(tmp_path, family: str, depth: int) -> dict:
    path = tmp_path / f"{family}_{depth}.cu"
    path.write_text("//pass\n//--blockDim=64 --gridDim=4\n" + bench_scaling.FAMILIES[family](depth))
    out: dict = {}
    for rule, _ in candidates(str(path)):
        out[rule] = out.get(rule, 0) + 1
    return out


@pytest.mark.parametrize("family", ["loop", "sync-loop"])
def test_candidates_per_rule_linear_in_depth(tmp_path, family):
    small, big = count(tmp_path, family, 4), count(tmp_path, family, 8)
    assert set(big) == set(small)
    for rule in big:  # linear: twice the loops, about twice the candidates (quadratic: 4x)
        assert big[rule] <= 2.5 * small[rule], (rule, small, big)


def escape_time_kernel(steps: int) -> str:
    """A loop whose body is a chain of ``steps`` definitions each reading the previous two
    twice (an escape-time iteration), then a branch on the result: the inlined branch
    condition is a tree of about 2^steps nodes."""
    chain = "\n".join("    t = fma(-y, y, fma(x, x, a)); y = fma(2.0f * x, y, b); x = t;" for _ in range(steps))
    return f"""//pass
//--local_size=64 --num_groups=4
__kernel void escape(__global int *out, float a, float b, int n) {{
  float sx = a, sy = b;
  int i = 0;
  while (i < n) {{
    float x = sx, y = sy, t;
{chain}
    sx = x * x + y * y <= 4.0f ? x : sx;
    i++;
  }}
  out[get_global_id(0)] = i;
}}
"""


def test_candidate_generation_linear_in_chained_definitions(tmp_path):
    """Issue 12 (AMD Mandelbrot): inlining single definitions into the loop's branch
    conditions was exponential in the length of the chain (10 steps 2 s, 16 steps more
    than ten minutes); definitions larger than ``INLINE_LIMIT`` nodes stay variables."""
    path = tmp_path / "escape.cl"
    path.write_text(escape_time_kernel(40))
    cmd = [sys.executable, "-m", "vcgen.driver", "--local_size=64", "--num_groups=4", "--stop-at-bpl",
           str(path)]
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr


def test_tree_size_counts_shared_subexpressions_once_per_use():
    x: il.Expr = il.Var("x")
    for _ in range(60):  # 2^60 tree nodes, 61 objects
        x = il.BinOp("+", x, x)
    assert il.tree_size(x) == 2 ** 61 - 1


@pytest.mark.parametrize("kernel", ["r4_inner_scope.cl", "r6_divergent_arms.cl", "r4_enabled.cl"])
def test_dominated_blocks_follow_the_dominator_chains(monkeypatch, kernel):
    """``KernelFacts.dominated`` (rule r4's scopes) reads the dominator tree once per label
    instead of walking every block's dominator chain per question (quadratic on rodinia
    heartwall); each answer must still be the blocks whose chain contains the label."""
    from vcgen.candidates.context import KernelFacts
    asked: list = []
    original = KernelFacts.dominated

    def spy(self, label):
        out = original(self, label)
        asked.append((self, label, out))
        return out
    monkeypatch.setattr(KernelFacts, "dominated", spy)
    candidates(kernel)
    assert asked, "r4 asked no scope"
    for kf, label, out in asked:
        assert out == {b for b in kf.idom if b == label or label in kf.dominators(b)}
        assert len(out) < len(kf.idom)  # a proper scope, not every block


@pytest.mark.parametrize("family", ["loop", "sync-loop"])
def test_candidate_generation_inlines_linearly_in_depth(tmp_path, monkeypatch, family):
    """Issue 12 (``make bench-scaling``, loop families at depth 50: candidate generation
    4.5 s): the kernel-wide facts the rules share (a block's branch comparisons, a
    variable's inlined assignments, a block's divergent condition, the finite domains)
    are computed once per kernel, not once per enclosing loop, so the definitions
    inlined grow linearly with the nesting depth (they grew quadratically)."""
    from vcgen.candidates.context import KernelFacts
    calls = [0]
    original = KernelFacts.inline

    def counting(self, e):
        calls[0] += 1
        return original(self, e)
    monkeypatch.setattr(KernelFacts, "inline", counting)

    def inlined(depth: int) -> int:
        calls[0] = 0
        path = tmp_path / f"{family}_{depth}.cu"
        path.write_text("//pass\n//--blockDim=64 --gridDim=4\n" + bench_scaling.FAMILIES[family](depth))
        candidates(str(path))
        return calls[0]
    small, big = inlined(6), inlined(18)
    assert big <= 3.6 * small, (small, big)  # linear: 3x (quadratic: about 9x)


@pytest.mark.parametrize("family", ["loop", "sync-loop"])
def test_source_candidates_do_not_grow_with_depth(tmp_path, family):
    """Issue 12: rule ``src`` (and ``first``) state the log's source among the accesses
    reaching the head; as one equality per source, each such candidate of a loop nest
    grew with the depth, so the program did quadratically.  Consecutive source numbers
    are one range now."""
    def longest(depth: int) -> int:
        path = tmp_path / f"{family}_{depth}.cu"
        path.write_text("//pass\n//--blockDim=64 --gridDim=4\n" + bench_scaling.FAMILIES[family](depth))
        return max(len(text) for rule, text in candidates(str(path)) if rule in ("src", "first"))
    assert longest(12) <= longest(4) + 8  # longer numbers and names only (per source: +30)


def test_source_numbers_as_ranges_and_equalities():
    """``LoopContext.source_in``: runs of three or more consecutive numbers become ranges,
    the others equalities; the same set of integers either way."""
    import z3
    from vcgen.candidates.context import LoopContext
    from vcgen.il.printer import expr_str
    from vcgen.vc.encode import Translator
    nums = [9, 1, 2, 3, 5, 7, 8, 10, 12, 13]
    e = LoopContext.source_in(None, il.Var("s"), nums)  # type: ignore[arg-type]
    assert expr_str(e).count("<=") == 4 and expr_str(e).count("==") == 3  # 1..3, 7..10; 5, 12, 13
    prog = il.Program((il.ConstDecl("s", il.INT),))
    term = Translator(prog, z3.Context()).term(e)
    for v in range(-1, 16):
        value = z3.simplify(z3.substitute(term, (z3.Int("s", term.ctx), z3.IntVal(v, term.ctx))))
        assert z3.is_true(value) == (v in nums), v
