"""r18 (sameWarpNoaccess), paper 003 appendix A.16: vcgen/candidates/same_warp.py."""
from test_candidates_harness import check_essential, candidates, rules_of



def test_r18_essential_for_warp_synchronous_scan():
    # two warps per block: same group is not same warp, so r12/r13/src cannot stand in
    check_essential("r18_warp_scan.cu", ("r18",))


def test_shape_per_log():
    cands = [e for r, e in candidates("r18_warp_scan.cu") if r == "r18"]
    assert len(cands) == 2
    same_warp = "(BV32_UDIV(local_id_x$1, 32bv32) == BV32_UDIV(local_id_x$2, 32bv32))"
    for kind in ("READ", "WRITE"):
        assert any("(group_id_x$1 == group_id_x$2)" in e and same_warp in e
                   and e.endswith(f"==> (!_{kind}_HAS_OCCURRED_$$s)") for e in cands), cands


def test_only_with_warp_sync_or_syncwarp():
    assert "r18" not in rules_of("r12_no_access.cl")
    assert "r18" in rules_of("r18_syncwarp_loop.cu")
