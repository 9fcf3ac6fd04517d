"""src (logged source precedes the head): vcgen/candidates/source.py.  With --warp-sync
warp-mates conflict only within one instruction, so the logged source matters."""
from test_candidates_harness import candidates, check_essential


def test_src_essential_for_warp_synchronous_exchange():
    check_essential("src_warp.cu", ("src",))


def test_shape():
    assert any(r == "src" and e.startswith("_READ_HAS_OCCURRED_$$") and "_READ_SOURCE_" in e
               for r, e in candidates("src_warp.cu"))
