"""Candidate counts grow linearly with loop nesting depth (issue 12: nested loops made
Houdini's rounds, one per false candidate, quadratic).  Kernels from the ``loop`` and
``sync-loop`` families of ``make bench-scaling`` (tests/bench_scaling.py)."""
import pytest

import bench_scaling
from test_candidates_harness import candidates


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
