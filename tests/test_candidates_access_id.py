"""id (access at thread id plus offset, paper 000 section 5.3): vcgen/candidates/access_id.py."""
from test_candidates_harness import candidates, check_essential, mutant_exit


def test_id_essential_for_own_element_loop():
    check_essential("id_own_element.cl", ("id",))


def test_id_by_source_takes_every_byte_of_a_vector_access():
    """A ``uchar4`` read before the loop is four byte reads with one source: the loop head
    needs ``SRC == n ==> OFF == 4*li || ... || OFF == 4*li + 3`` (one equality per byte
    fails), or the pre-loop read looks like any element the loop's reads may hit."""
    check_essential("id_source_vector.cl", ("id",))


def test_id_by_source_still_reports_a_neighbour_read(tmp_path):
    assert mutant_exit("id_source_vector.cl", "s[li] ^= (uchar4)(ly, ly, ly, ly);",
                       "s[li] ^= s[(li + 1) % 64];", tmp_path) == 6


def test_no_id_for_an_offset_an_enclosing_loop_changes_while_logged():
    """j head: ``OFF == 64 * i + lid`` fails once the log keeps an entry of an earlier i
    (vcgen/candidates/access_id.py ``_fixed``); the barrier that starts each i empties
    the group-shared log of a, not the global log of b."""
    ids = [e for r, e in candidates("id_stale_offset.cl") if r == "id"]
    assert "_WRITE_HAS_OCCURRED_$$a ==> (_WRITE_OFFSET_$$a == BV32_ADD(BV32_MUL(64bv32, $i.i.0), local_id_x$1))" in ids
    assert not [e for e in ids if "$$b" in e]
