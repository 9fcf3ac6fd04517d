"""The global-id abstraction of the case refuter (``vcgen.vc.global_ids``): with symbolic
sizes, z3's rewriter distributes ``5 * gid`` into ``5 * local_id + 5 * group_id *
group_size``, out of reach of the launch lemmas about ``gid``."""
from __future__ import annotations

from pathlib import Path

import pytest
import z3

from bugle.cc import compile_kernel
from bugle.translate import translate_ir
from vcgen import il
from vcgen.twothread.launch import launch_config
from vcgen.twothread.options import LockstepOptions
from vcgen.twothread.transform import lockstep
from vcgen.vc import encode as vcmod
from vcgen.vc import passify
from vcgen.vc.global_ids import GlobalIdAbstraction, global_id_terms, is_global_id

# struct-of-5-words indexing: element 5 * gid + k, the corpus's struct_aos.cl shape
STRUCTS = """__kernel void k(__global int *a) {
  unsigned i = get_global_id(0);
  a[5 * i + 2] = a[5 * i];
}"""


def _vc(tmp_path: Path, local_size: str, num_groups: str) -> tuple:
    """``(vc, axioms, program constants)`` of STRUCTS under the launch flags."""
    k = tmp_path / "k.cl"
    k.write_text(STRUCTS)
    prog = lockstep(translate_ir(compile_kernel(str(k))),
                    LockstepOptions(launch=launch_config(local_size=local_size, num_groups=num_groups)))
    vc = vcmod.build_vc(prog, passify.passify(prog, prog.kernel()))
    axioms = [vc.translator.term(d.expr) for d in prog.decls if isinstance(d, il.AxiomDecl)]
    return vc, axioms, set(prog.consts())


@pytest.fixture
def symbolic(tmp_path: Path):
    """STRUCTS with ``--local_size=* --num_groups=*`` (``_vc``)."""
    return _vc(tmp_path, "*", "*")


def _gid(ctx: z3.Context, t: int, offset: bool) -> z3.BitVecRef:
    def v(n: str) -> z3.BitVecRef:
        return z3.BitVec(n, 32, ctx)
    g = v(f"group_id_x${t}") * v("group_size_x") + v(f"local_id_x${t}")
    return g + z3.BitVecVal(0, 32, ctx) if offset else g


def test_the_abstraction_finds_the_lemmas_global_ids(symbolic):
    vc, axioms, _ = symbolic
    terms = global_id_terms(axioms)
    assert terms and all(is_global_id(t) for t in terms)
    a = GlobalIdAbstraction(vc.ctx, axioms)
    # one constant per thread: "gid" and "gid + 0" (get_global_id's offset) share it
    assert len(a.names) == 2
    assert not any(is_global_id(t) for t in global_id_terms(a.axioms))
    assert a.dimensions_of_both(a.names) == ["x"]


def test_products_by_a_literal_are_refuted_through_the_abstraction(symbolic, monkeypatch):
    """``5 * gid1 == 5 * gid2 + 2`` (two words of different structs) is refuted; the
    rewriter's distributed form alone is not (the old refuter kept it)."""
    monkeypatch.setattr(vcmod, "_REFUTED", {})
    vc, axioms, consts = symbolic
    ctx = vc.ctx
    five, two = z3.BitVecVal(5, 32, ctx), z3.BitVecVal(2, 32, ctx)
    atom = _gid(ctx, 1, True) * five == _gid(ctx, 2, True) * five + two
    refuter = vcmod.CaseRefuter(ctx, axioms, consts)
    assert z3.is_false(refuter.simplify(atom))
    assert not refuter._refutes(refuter._rewrite(atom), refuter.views[0])


def test_equal_products_imply_equal_coordinates(symbolic, monkeypatch):
    """``5 * gid1 == 5 * gid2`` is no contradiction (one thread), but it holds only when
    the threads' coordinates are equal: the case gets that conjunct (the refuter proved
    the implication under the abstracted axioms)."""
    monkeypatch.setattr(vcmod, "_REFUTED", {})
    vc, axioms, consts = symbolic
    ctx = vc.ctx
    five = z3.BitVecVal(5, 32, ctx)
    atom = _gid(ctx, 1, True) * five == _gid(ctx, 2, True) * five
    refuter = vcmod.CaseRefuter(ctx, axioms, consts)
    case = refuter.simplify(atom)
    same = refuter.abstraction.same_coordinates("x")
    assert z3.is_and(case) and any(c.eq(same) for c in case.children())
    # a difference that is no multiple of 5 would be refuted; 1 * gid: still implied
    assert any(c.eq(same) for c in refuter.simplify(_gid(ctx, 1, True) == _gid(ctx, 2, True)).children())


def test_concrete_sizes_need_no_abstraction(tmp_path: Path):
    vc, axioms, consts = _vc(tmp_path, "64", "8")
    refuter = vcmod.CaseRefuter(vc.ctx, axioms, consts)
    assert not refuter.abstraction.pairs and len(refuter.views) == 1
