"""Counterexample reports: exact GPUVerify wording, verdicts and exit codes."""
from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from vcgen.inference.cli import houdini_command
from vcgen.il.parser import parse_file, parse_program
from vcgen.report.render import VACUITY_WARNING, describe_thread, render_report
from vcgen.report.results import ErrorRecord, ThreadInfo, VerificationResult
from vcgen.il.attributes import SourceLoc as Location
from vcgen.verify.checker import VerifyOptions, verify_program
from vcgen.verify.counterexample import ArrayInfo, element_text
from vcgen.vc.cli import smt_command
from vcgen.verify.cli import verify_command

from vcgen_progs import BPL, counting_loop, kernel


def _run(name: str, **kw) -> tuple:
    opts = VerifyOptions(search_dirs=(str(BPL),), **kw)
    res = verify_program(parse_file(str(BPL / name)), opts, name)
    return res, render_report(res, opts.json)


def test_race_report_text():
    res, text = _run("race.bpl")
    assert res.exit_code == 6 and res.status == "errors" and len(res.errors) == 1
    m = re.fullmatch(
        r"race\.cl: error: possible write-write race on p\[(\d+)\]:\n\n"
        r"Write by work item (\d+) with local id (\d+) in work group 0, race\.cl:3:3:\n"
        r"  p\[get_global_id\(0\) \+ 1\] = get_global_id\(0\);\n\n"
        r"Write by work item (\d+) with local id (\d+) in work group 0, race\.cl:4:3:\n"
        r"  p\[get_global_id\(0\)\] = get_global_id\(0\);\n", text)
    assert m, text
    elem, g1, l1, g2, l2 = map(int, m.groups())
    assert g1 == l1 and g2 == l2            # one group: global id = local id
    assert g2 == g1 + 1 and elem == g2       # thread 1 wrote p[g1 + 1], thread 2 writes p[g2]


def test_race_report_json():
    res, text = _run("race.bpl", json=True)
    data = json.loads(text)
    assert data["status"] == "errors" and data["exit_code"] == 6
    err = data["errors"][0]
    assert err["kind"] == "race" and err["race"] == "write-write" and err["array"] == "p"
    assert err["location"]["line"] == 4 and err["other_location"]["line"] == 3
    assert err["element"] == f"p[{err['thread']['global_id'][0]}]"


def test_source_line_omitted_when_unreadable():
    res = verify_program(parse_file(str(BPL / "race.bpl")), VerifyOptions(), "race.bpl")
    res.search_dirs = ("/nonexistent",)
    text = render_report(res)
    assert "race.cl:4:3:\n" in text and "get_global_id" not in text.replace("race.cl", "")


def test_verified_text_and_exit_code():
    res, text = _run("loop_inductive.bpl", source="count.cl")
    assert res.exit_code == 0
    assert text.startswith("Verified: count.cl\n- no data races within work groups\n"
                           "- no data races between work groups\n- no barrier divergence\n"
                           "- no assertion failures\n")


def test_vacuous_preconditions_warn_and_fail():
    res, text = _run("vacuous.bpl")
    assert res.status == "vacuous" and res.exit_code == 6
    assert VACUITY_WARNING + "\n" in text and "Verified" not in text


def test_timeout_is_never_verified():
    res, text = _run("hard_timeout.bpl", timeout=0.1)
    assert res.status == "timeout" and res.exit_code == 7
    assert "timed out" in text and "Verified" not in text


def test_user_invariant_not_maintained_cuda():
    res, text = _run("invariant_user.bpl")
    assert res.exit_code == 6
    assert re.match(r"inv.cu:4:21: error: loop invariant might not be maintained by the loop for thread \d+ "
                    r"in thread block \d+ \(global id \d+\)\n", text), text
    assert re.search(r"Kernel arguments: n = [1-9]\d*", text)


def test_user_invariant_entry_failure():
    text = kernel("""\
  var $i: bv32;
  $entry:
    $i := 5bv32;
    goto $head;
  $head:
    assert {:sourceloc "e.cl", 3, 7} {:user_invariant} $i == 0bv32;
    goto $head;
""")
    res = verify_program(parse_program(text))
    assert [e.kind for e in res.errors] == ["invariant_entry"]
    assert "e.cl:3:7: error: loop invariant might not hold on entry" in render_report(res)


def test_user_assertion_and_divergence_reports_all_distinct_failures():
    text = kernel("""\
  $entry:
    assert {:sourceloc "d.cl", 6, 5} {:barrier_divergence} local_id_x$1 == local_id_x$2;
    assert {:sourceloc "d.cl", 8, 3} {:user_assert} {:thread 2} local_id_x$2 != 3bv32;
    assert {:vacuity_check} false;
    return;
""")
    res = verify_program(parse_program(text))
    out = render_report(res)
    assert {e.kind for e in res.errors} == {"barrier_divergence", "user_assert"}
    assert "d.cl:6:5: error: barrier may be reached by non-uniform control flow" in out
    m = re.search(r"d\.cl:8:3: error: this assertion might not hold for work item (\d+) with "
                  r"local id 3 in work group (\d+)", out)
    assert m and int(m.group(1)) == 16 * int(m.group(2)) + 3


@pytest.mark.parametrize("bad, found", [(1, True), (4, False)])
def test_findbugs_unwinding_bound(bad, found):
    # the assertion i != 1 fails in the 2nd iteration, i != 4 only in the 5th
    prog = parse_program(counting_loop(f"$i != {bad}bv32"))
    res = verify_program(prog, VerifyOptions(findbugs=True, loop_unwind=2))
    text = render_report(res)
    assert "Verified" not in text
    if found:
        assert res.status == "errors" and res.exit_code == 6
        assert "loop.cl:4:5: error: this assertion might not hold" in text and "spurious" in text
    else:
        assert res.status == "no_bugs_found" and res.exit_code == 0
        assert "No bugs found" in text
    deeper = verify_program(prog, VerifyOptions(findbugs=True, loop_unwind=5))
    assert deeper.status == "errors"


def test_thread_wording_cuda_and_multidimensional():
    t = ThreadInfo(2, (15, 1, 0), (0, 2, 0), (15, 17, 0))
    assert describe_thread(t, "cuda", 1) == "thread 15 in thread block 0 (global id 15)"
    assert describe_thread(t, "opencl", 3) == \
        "work item (15, 17, 0) with local id (15, 1, 0) in work group (0, 2, 0)"


def test_byte_level_element_text():
    assert element_text(ArrayInfo("p", 8, "int"), 4092) == "((char*)p)[4092]"
    assert element_text(ArrayInfo("p", 32, "int"), 5) == "p[5]"
    assert element_text(ArrayInfo("c", 8, "char"), 7) == "c[7]"


def test_element_text_in_source_elements():
    """Cells of a wider source element (struct, vector) and multi-dimensional arrays are
    named as GPUVerify does (DESIGN.md section 7)."""
    assert element_text(ArrayInfo("G", 32, "int", 8), 7) == "G[3] (bytes 4..7)"
    assert element_text(ArrayInfo("A", 8, None, 4), 4) == "A[1] (byte 0)"
    assert element_text(ArrayInfo("L", 32, "float", 16, (2, 3, 4, 5)), 474) == "L[1][2][3][3] (bytes 8..11)"
    assert element_text(ArrayInfo("L", 32, "int", None, (64, 64)), 4097) == "L[64][1]"
    assert element_text(ArrayInfo("G", 32, "int", 8), None) == "G[?]"


def test_other_kinds_wording():
    loc, th = Location("k.cl", 7, 5), ThreadInfo(1, (0, 0, 0), (0, 0, 0), (0, 0, 0))
    res = VerificationResult("errors", "k.cl", errors=[
        ErrorRecord("null_pointer", loc, th, "fail_0"),
        ErrorRecord("array_bounds", loc, th, "fail_1", array_name="L")])
    out = render_report(res)
    assert "k.cl:7:5: error: possible null pointer access for work item 0" in out
    assert "k.cl:7:5: error: possible array out-of-bounds access on array L by work item 0" in out


def test_cli_commands(tmp_path):
    runner = CliRunner()
    inv = tmp_path / "out.inv.bpl"
    r = runner.invoke(houdini_command, [str(BPL / "loop_inductive.bpl"), "-o", str(inv), "--infer-info"])
    assert r.exit_code == 0, r.output
    assert '{:inferred "r1"}' in inv.read_text() and "_b1" not in inv.read_text()
    r = runner.invoke(verify_command, [str(inv)])
    assert r.exit_code == 0 and "Verified:" in r.output
    r = runner.invoke(verify_command, [str(BPL / "race.bpl")])
    assert r.exit_code == 6 and "possible write-write race on p[" in r.output
    r = runner.invoke(verify_command, [str(BPL / "vacuous.bpl")])
    assert r.exit_code == 6 and VACUITY_WARNING in r.output
    smt = tmp_path / "q.smt2"
    r = runner.invoke(smt_command, [str(inv), "-o", str(smt)])
    assert r.exit_code == 0 and "(check-sat)" in smt.read_text()
    bad = tmp_path / "bad.bpl"
    bad.write_text("procedure {:kernel} $k( {")
    r = runner.invoke(verify_command, [str(bad)])
    assert r.exit_code == 5 and "parse error" in r.output
    r = runner.invoke(verify_command, [str(tmp_path / "missing.bpl")])
    assert r.exit_code == 1 and "not found" in r.output
