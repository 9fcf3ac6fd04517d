"""id (access at thread id plus offset, paper 000 section 5.3): vcgen/candidates/access_id.py."""
from test_candidates_harness import check_essential


def test_id_essential_for_own_element_loop():
    check_essential("id_own_element.cl", ("id",))
