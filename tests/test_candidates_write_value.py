"""val (logged write values of benign races): vcgen/candidates/write_value.py."""
from test_candidates_harness import candidates, check_essential


def test_val_essential_for_a_flag_set_in_a_loop():
    check_essential("write_value_flag.cl", ("val",))


def test_shape():
    assert any(r == "val" and "_WRITE_HAS_OCCURRED_$$flag ==> (_WRITE_VALUE_$$flag == 1bv32)" in e
               for r, e in candidates("write_value_flag.cl"))
