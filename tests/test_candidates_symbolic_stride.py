"""Rule res (residues modulo a symbolic loop stride, over the uninterpreted RESIDUEw with
facts at the loop head): vcgen/candidates/symbolic_stride.py, issue 13."""
import pytest
from test_candidates_harness import KERNELS, NOT_VERIFIED, VERIFIED, candidates, check_essential, mutant_exit, run

from vcgen import driver


def test_res_essential_for_grid_stride_loop_with_symbolic_sizes():
    check_essential("res_grid_stride.cl", ("res",))


def test_shapes():
    cands = candidates("res_grid_stride.cl")
    gsize = "BV32_MUL(group_size_x, num_groups_x)"
    gid = "BV32_ADD(BV32_ADD(BV32_MUL(group_id_x$1, group_size_x), local_id_x$1), global_offset_x)"
    assert ("res", f"RESIDUE32($i.i.0$1, {gsize}) == RESIDUE32({gid}, {gsize})") in cands
    assert ("res", f"_WRITE_HAS_OCCURRED_$$a ==> (RESIDUE32(_WRITE_OFFSET_$$a, {gsize}) == RESIDUE32({gid}, {gsize}))") \
        in cands
    # r1 / r10 modulo the product of two symbolic sizes are not generated (bit-vector division)
    assert not any("BV32_UREM" in e and gsize in e for _, e in cands)


def test_wrapping_stride_is_not_verified(tmp_path):
    """Without the bound on n, i += get_global_size(0) may wrap around 2^32: no head fact
    applies, the residue candidates are not inductive and the kernel is not verified."""
    src = (KERNELS / "res_grid_stride.cl").read_text().replace("  __requires(n <= 0x40000000u);\n", "")
    (tmp_path / "k.cl").write_text(src)
    with pytest.raises(SystemExit) as e:
        driver.main([str(tmp_path / "k.cl"), "--local_size=*", "--num_groups=*"])
    assert e.value.code == 6


def test_interpreter_evaluates_residue_as_urem():
    from vcgen.interp.interpreter import Interpreter
    from vcgen.il.parser import parse_program
    prog = parse_program("""
function {:residue} RESIDUE32(bv32, bv32): bv32;
procedure {:kernel} k(x: bv32, s: bv32)
{
  var r: bv32;
  var z: bv32;
  entry:
    r := RESIDUE32(x, s);
    z := RESIDUE32(x, 0bv32);
    return;
}
""")
    run = Interpreter(prog, params={"x": 23, "s": 5}).run()
    assert (run.final_locals["r"], run.final_locals["z"]) == (3, 23)


def test_cuda_grid_stride_with_stride_computed_in_the_latch():
    """clang computes blockDim.x * gridDim.x in the latch, a block the two threads need not
    reach together: as a run-time constant (vcgen.analysis.uniformity) it is one shared
    term, the stride of res's facts, and the kernel verifies in seconds (over 300 s when
    each thread had a predicated copy of the product)."""
    code, stats = run("res_grid_stride_latch.cu")
    assert code == VERIFIED and stats["res"][1] > 0, stats


def test_cuda_grid_stride_wrapping_is_still_reported():
    """The buggy twin: without the bound on n the index may wrap around 2^32."""
    code, _ = run("res_grid_stride_latch_bug.cu")
    assert code == NOT_VERIFIED


def test_remainders_by_a_symbolic_counter_stride_are_superseded():
    """i += get_local_size(0) (a run-time constant of the latch) under symbolic sizes: res
    states i modulo the stride; r1 and r10 would take BV32_UREM by group_size_x, a divider
    the solver bit-blasts for minutes.  The race is still reported."""
    cands = candidates("res_local_stride_bug.cl")
    assert any(r == "res" and "group_size_x)" in e for r, e in cands)
    assert not any("BV32_UREM" in e for _, e in cands), cands
    code, _ = run("res_local_stride_bug.cl")
    assert code == NOT_VERIFIED


def test_user_candidate_modulo_symbolic_product_uses_the_residue():
    """__candidate_invariant(i % s == g) with s = blockDim.x * gridDim.x: the remainder
    becomes RESIDUE32 (over 150 s per query as a bit-vector divider); the kernel verifies."""
    user = [e for r, e in candidates("res_user_candidate.cu") if r == "user"]
    assert user and all("RESIDUE32(" in e and "UREM" not in e for e in user), user
    code, stats = run("res_user_candidate.cu")
    assert code == VERIFIED, stats


def test_logged_index_bound_under_a_symbolic_stride():
    """res also bounds the logged index by the loop's guard (i < n: OFF - rest < n)."""
    cands = candidates("res_local_stride_bug.cl")
    assert ("res", "_WRITE_HAS_OCCURRED_$$a ==> BV32_ULT(_WRITE_OFFSET_$$a, $n)") in cands, \
        [c for c in cands if c[0] == "res"]


def test_helper_pointer_uniform_in_bytes_with_symbolic_stride():
    """A --no-inline helper whose work items share a pointer by its byte offset: their
    element offsets agree modulo 2^30 only, and the residue of the logged index needs the
    guard's bound on it to equate the two work items' counters (a race was reported)."""
    check_essential("res_local_stride_offset.cl", ("res",))


def test_helper_strided_past_the_address_space_is_reported(tmp_path):
    """Without len <= 2^30 the counter may wrap around 2^32 and, for a local size that is
    not a power of two, meet another work item's cell: still reported."""
    assert mutant_exit("res_local_stride_offset.cl", "  __requires(len <= (1u << 30));\n", "", tmp_path) == 6


def test_remainders_by_a_parameter_stride_are_superseded_under_concrete_sizes():
    """i += s (a kernel parameter) with concrete sizes: the stride is still symbolic, so res
    states i modulo s and no r1/r10 BV32_UREM by $s (a divider by a variable) is
    generated; the residues prove the kernel."""
    cands = candidates("res_param_stride.cl")
    assert any(r == "res" and "$s)" in e for r, e in cands)
    assert not any("UREM" in e and "$s" in e for _, e in cands), cands
    code, stats = run("res_param_stride.cl")
    assert code == VERIFIED and stats["res"][1] > 0, stats


def test_remainders_by_a_constant_stride_not_a_power_of_two_are_superseded():
    """i += blockDim.x * gridDim.x at 128 x 5 (640): res states i and the logged index
    modulo the stride; no r1/r10 BV32_UREM by it (a divider: CUDA BlackScholes' r1/r10 by
    61440 took Houdini 66 s wall, generatePaths' r10 by 24960 12-59 s per query).  The
    kernel verifies through res."""
    cands = candidates("res_constant_stride.cu")
    assert any(r == "res" and e.startswith("_WRITE_HAS_OCCURRED_") and "RESIDUE32(" in e for r, e in cands), cands
    assert not any("UREM" in e for _, e in cands), cands
    check_essential("res_constant_stride.cu", ("res",))


def test_constant_stride_race_is_still_reported(tmp_path):
    """Reading the neighbour's cell (a[i + 1]) under the same stride: still a race."""
    assert mutant_exit("res_constant_stride.cu", "a[i] = 2.0f * a[i];", "a[i] = 2.0f * a[i + 1];", tmp_path) == 6
