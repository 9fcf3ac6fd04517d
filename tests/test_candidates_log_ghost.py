"""log (unfilled logs only shrink): vcgen/candidates/log_ghost.py."""
from test_candidates_harness import candidates, check_essential


def test_log_essential_for_array_untouched_by_barrier_loop():
    check_essential("log_unfilled.cl", ("log",))


def test_shape():
    assert any(r == "log" and "_WRITE_HAS_OCCURRED_$$a ==> _WRITE_HAS_OCCURRED_$$a$entry" in e
               for r, e in candidates("log_unfilled.cl"))
