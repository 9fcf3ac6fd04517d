"""r11 (loopPredicateEquality) and r16 (predicatedEquality), paper 003 appendix A.11/A.14:
vcgen/candidates/predicate_equality.py."""
import pytest
from test_candidates_harness import KERNELS, VERIFIED, candidates, check_essential, run

from vcgen import driver


def test_r16_essential_for_equal_looking_non_uniform_counter():
    check_essential("r16_equal_counter.cl", ("r16",))


def test_r11_essential_for_the_same_loop():
    check_essential("r16_equal_counter.cl", ("r11",))


def test_shapes():
    cands = candidates("r16_equal_counter.cl")
    assert ("r16", "$i.i.0$1 == $i.i.0$2") in cands
    assert ("r16", "((cur$1 == 2) && (cur$2 == 2)) ==> ($i.i.0$1 == $i.i.0$2)") in cands
    assert ("r11", "cur$1 == cur$2") in cands


def test_dead_ssa_temporaries_get_no_equality():
    # r17_upsweep's ai/bi temporaries are recomputed every iteration
    assert not any(r == "r16" and ("$add" in e or "$mul" in e) for r, e in candidates("r17_upsweep.cu"))


def test_r16_essential_for_shared_values_and_group_counters():
    # the copies of p equal in a group (rule copies) make p[0] uniform there; the second
    # loop's counter, bounded by the group id, is equal within a group only (r16)
    check_essential("r16_shared_after_loop.cl", ("r16",))
    check_essential("r16_shared_after_loop.cl", ("copies",))
    cands = candidates("r16_shared_after_loop.cl")
    same = "(((group_id_x$1 == group_id_x$2) && (group_id_y$1 == group_id_y$2)) && (group_id_z$1 == group_id_z$2))"
    assert ("r16", f"{same} ==> ($i4.i.0$1 == $i4.i.0$2)") in cands or \
        any(r == "r16" and e.startswith(f"{same} ==> ($i") for r, e in cands)
    assert ("r11", f"{same} ==> (cur$1 == cur$2)") in cands


def test_shared_value_guarding_barriers_that_differs_in_the_group(tmp_path):
    # p[lid] instead of p[0]: threads of one group may disagree, the barrier diverges
    src = (KERNELS / "r16_shared_after_loop.cl").read_text().replace("if (p[0] == 7)", "if (p[get_local_id(0)] == 7)")
    (tmp_path / "k.cl").write_text(src.replace("= i;", "= i + get_local_id(0);"))
    with pytest.raises(SystemExit) as e:
        driver.main([str(tmp_path / "k.cl"), "--local_size=16", "--num_groups=4"])
    assert e.value.code == 6


def test_no_equality_for_values_read_from_adversarial_arrays():
    r16 = [e for r, e in candidates("r16_read_values.cl") if r == "r16"]
    assert "$r.i.0$1 == $r.i.0$2" in r16, r16  # the row counter keeps its equality
    # the sum and the values read (and the read itself, $i) are fresh per thread
    assert not any(v in e for e in r16 for v in ("$acc.", "$last.", "$i$")), r16
    code, stats = run("r16_read_values.cl")
    assert code == VERIFIED, stats
