"""src (logged source precedes the head): vcgen/candidates/source.py.  Under --warp-sync
warp-mates' logs are cleared after every instruction, so r18 (not src) is what the warp
exchange needs (tests/test_warp_candidates.py); src candidates are still proved there."""
from test_candidates_harness import VERIFIED, candidates, run


def test_src_proved_for_warp_synchronous_exchange():
    code, stats = run("src_warp.cu")
    assert code == VERIFIED and stats["src"][1] > 0, stats


def test_shape():
    assert any(r == "src" and e.startswith("_READ_HAS_OCCURRED_$$") and "_READ_SOURCE_" in e
               for r, e in candidates("src_warp.cu"))
