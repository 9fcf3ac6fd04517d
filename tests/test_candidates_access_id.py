"""id (access at thread id plus offset, paper 000 section 5.3): vcgen/candidates/access_id.py."""
from test_candidates_harness import check_essential, mutant_exit


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
