"""first (pre-loop accesses logged only until the first barrier of the loop):
vcgen/candidates/first_iteration.py."""
from test_candidates_harness import candidates, check_essential


def test_first_essential_for_read_after_reduction_loop():
    check_essential("first_preloop.cl", ("first",))


def test_shape():
    cands = candidates("first_preloop.cl")
    assert any(r == "first" and "_WRITE_HAS_OCCURRED_$$s ==> (first$" in e and "_WRITE_SOURCE_$$s ==" in e
               for r, e in cands)
    assert any(r == "first" and e.startswith("first$") and "==>" in e for r, e in cands)
