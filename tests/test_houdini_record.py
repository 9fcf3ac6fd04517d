"""The record of the invariants Houdini proved (``houdini.ProvedInvariants``): the final
check of ``gpuverify`` assumes them instead of proving them again, and never trusts an
``{:inferred}`` attribute read from a file."""
from __future__ import annotations

import re

from click.testing import CliRunner

from vcgen import il
from vcgen.il.parser import parse_file, parse_program
from vcgen.il.printer import program_str
from vcgen.inference.houdini import HoudiniOptions, run_houdini
from vcgen.pipeline import command as gpuverify
from vcgen.verify import checker
from vcgen.verify.checker import verify_program

from vcgen_progs import BPL

# loop_inductive.bpl with a user's false invariant carrying Houdini's attributes: i == 0 is
# not maintained by i := i + 1
FORGED = (BPL / "loop_inductive.bpl").read_text().replace(
    "    assert {:candidate \"r2\"} _b1 ==> $i == 0bv32;\n",
    "    assert {:candidate \"r2\"} _b1 ==> $i == 0bv32;\n"
    "    assert {:invariant} {:inferred \"r2\"} $i == 0bv32;\n")


def _inferred(prog: il.Program) -> list[il.Assert]:
    return [c for b in prog.kernel().blocks for c in b.cmds
            if isinstance(c, il.Assert) and il.has_attr(c.attrs, "inferred")]


def _enabled_checks(monkeypatch) -> list[list[int]]:
    """Every part (VC check indices) the final check asks, as it asks them."""
    asked: list[list[int]] = []
    real = checker.check_split

    def spy(backend, assumptions, enabled, *a, **k):
        asked.append(list(enabled))
        return real(backend, assumptions, enabled, *a, **k)
    monkeypatch.setattr(checker, "check_split", spy)
    return asked


def _invariant_checks(prog: il.Program) -> set[int]:
    """VC indices of the checks of the ``{:inferred}`` invariants of ``prog``."""
    vc = checker.program_vc(prog)
    return {c.index for c in vc.checks if c.has("inferred")}


def test_record_names_the_proved_asserts_by_identity():
    res = run_houdini(parse_file(str(BPL / "loop_inductive.bpl")), HoudiniOptions(refutation="none"))
    [inv] = _inferred(res.program)
    assert len(res.proved) == 1 and res.proved.marks_any(inv.attrs)
    # the same text read from a file: equal, yet not the asserts Houdini proved
    again = parse_program(program_str(res.program))
    assert again == res.program
    assert not any(res.proved.marks_any(c.attrs) for c in _inferred(again))


def test_final_check_does_not_ask_proved_invariants(monkeypatch):
    res = run_houdini(parse_file(str(BPL / "loop_inductive.bpl")), HoudiniOptions(refutation="none"))
    invariant = _invariant_checks(res.program)
    assert len(invariant) == 2  # the loop's entry and back-edge checks
    asked = _enabled_checks(monkeypatch)
    assert verify_program(res.program, proved=res.proved).status == "verified"
    assert asked and not any(set(part) & invariant for part in asked)
    # without the record (``vcgen verify`` on the file) they are proved again
    asked.clear()
    assert verify_program(res.program).status == "verified"
    assert any(set(part) & invariant for part in asked)


def test_record_of_another_program_proves_nothing(monkeypatch):
    """A program read back from Houdini's output has no recorded asserts, even with the
    record of the run that wrote it."""
    res = run_houdini(parse_file(str(BPL / "loop_inductive.bpl")), HoudiniOptions(refutation="none"))
    again = parse_program(program_str(res.program))
    asked = _enabled_checks(monkeypatch)
    assert verify_program(again, proved=res.proved).status == "verified"
    assert any(set(part) & _invariant_checks(again) for part in asked)


def test_users_inferred_invariant_is_still_proved():
    """Houdini proves r1 (its record is not empty) with the user's false ``{:inferred}``
    invariant assumed at the head; the final check must still find that one false."""
    res = run_houdini(parse_program(FORGED), HoudiniOptions(refutation="none"))
    assert len(res.proved) == 1
    out = verify_program(res.program, proved=res.proved)
    assert out.status == "errors"
    assert [e.kind for e in out.errors] == ["invariant_maintained"]


def test_driver_reports_users_inferred_invariant(tmp_path):
    bpl = tmp_path / "forged.bpl"
    bpl.write_text(FORGED)
    r = CliRunner().invoke(gpuverify, [str(bpl), "--verbose"])
    assert r.exit_code == 6, r.output
    assert "loop invariant might not be maintained" in r.output
    # the quick check assumed r1's two checks, then the chained check reported the error
    assert re.search(r"final check: 2 checks of 1 invariants Houdini proved in this run assumed", r.output)
    assert "verifying again with every invariant checked" in r.output


def test_driver_assumes_proved_invariants():
    r = CliRunner().invoke(gpuverify, [str(BPL / "loop_inductive.bpl"), "--verbose"])
    assert r.exit_code == 0, r.output
    assert "final check: 2 checks of 1 invariants Houdini proved in this run assumed" in r.output
    assert "verifying again" not in r.output
