"""Unit tests of the corpus runner (vcgen/testsuite.py) with a fake driver command."""
from __future__ import annotations

import shlex
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from vcgen.il.errors import ExitCode
from vcgen.testsuite import (HeaderError, Status, Verdict, collect_kernels, main,
                             parse_header, run_kernel, verdict, verdict_table)

# The fake driver: `fake.py CODE TEXT [flags... kernel]` prints TEXT, then its
# remaining arguments, and exits with CODE.
FAKE_DRIVER = textwrap.dedent("""\
    import sys, time
    code, text = int(sys.argv[1]), sys.argv[2]
    if text == "SLEEP":
        time.sleep(60)
    print(text)
    print("ARGS:", " ".join(sys.argv[3:]), file=sys.stderr)
    sys.exit(code)
""")

RACE_TEXT = ("k.cl: error: possible write-read race on sdata[3]:\n\n"
             "Write by work item 3 with local id 3 in work group 0, k.cl:14:7:")


@pytest.fixture
def fake(tmp_path: Path):
    script = tmp_path / "fake.py"
    script.write_text(FAKE_DRIVER)

    def driver(code: int, text: str) -> list[str]:
        return [sys.executable, str(script), str(code), text]
    return driver


def kernel(tmp_path: Path, name: str, header: str, body: str = "\n__kernel void k() {}\n") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(header) + body)
    return path


# ---------------------------------------------------------------- headers

def test_parse_pass_header(tmp_path):
    p = kernel(tmp_path, "a.cl", """\
        //pass
        //--local_size=64 --num_groups=8
        """)
    h = parse_header(p)
    assert h.expected is ExitCode.SUCCESS and h.expected_name == "pass"
    assert h.flags == ("--local_size=64", "--num_groups=8")
    assert h.patterns == () and h.known_gap is None


def test_parse_xfail_patterns_and_shell_flags(tmp_path):
    p = kernel(tmp_path, "b.cu", """\
        //xfail:NOT_ALL_VERIFIED
        //--blockDim=[16,16] --gridDim=[8,8] -D 'NAME=a b'
        //possible write-read race on .*sdata\\[
        //Write by work item [0-9]+
        """)
    h = parse_header(p)
    assert h.expected is ExitCode.NOT_ALL_VERIFIED
    assert h.flags == ("--blockDim=[16,16]", "--gridDim=[8,8]", "-D", "NAME=a b")
    assert [pat.pattern for pat in h.patterns] == [
        r"possible write-read race on .*sdata\[", "Write by work item [0-9]+"]


def test_header_ends_at_first_non_comment_line(tmp_path):
    p = kernel(tmp_path, "c.cl", """\
        //pass
        //--local_size=64

        // a description, not a pattern
        """)
    assert parse_header(p).patterns == ()


@pytest.mark.parametrize("name,code", [("BOOGIE_ERROR", ExitCode.NOT_ALL_VERIFIED),
                                       ("BUGLE_ERROR", ExitCode.BUGLE_ERROR),
                                       ("CLANG_ERROR", ExitCode.CLANG_ERROR),
                                       ("TIMEOUT", ExitCode.TIMEOUT)])
def test_xfail_names(tmp_path, name, code):
    p = kernel(tmp_path, "d.cl", f"//xfail:{name}\n//--local_size=64\n")
    assert parse_header(p).expected is code


@pytest.mark.parametrize("first,code,name", [
    ("//PASS", ExitCode.SUCCESS, "pass"), ("//Pass  ", ExitCode.SUCCESS, "pass"),
    ("//XFAIL:NOT_ALL_VERIFIED", ExitCode.NOT_ALL_VERIFIED, "NOT_ALL_VERIFIED"),
    ("//xfail:bugle_error", ExitCode.BUGLE_ERROR, "BUGLE_ERROR"),
    ("//Xfail: GPUVERIFYVCGEN_ERROR", ExitCode.GPUVERIFYVCGEN_ERROR, "GPUVERIFYVCGEN_ERROR")])
def test_status_line_is_case_insensitive(tmp_path, first, code, name):
    """GPUVerify's tester reads the status line case-insensitively (its suite has
    //PASS and //XFAIL:NOT_ALL_VERIFIED)."""
    h = parse_header(kernel(tmp_path, "s.cl", f"{first}\n//--local_size=64\n"))
    assert h.expected is code and h.expected_name == name


def test_kernel_dir_in_flags_is_the_kernels_folder(tmp_path):
    (tmp_path / "with space").mkdir()
    p = kernel(tmp_path, "with space/k.cl",
               "//pass\n//--local_size=64 --boogie-file=${KERNEL_DIR}/axioms.bpl -I${KERNEL_DIR}\n")
    folder = str(tmp_path / "with space")
    assert parse_header(p).flags == ("--local_size=64", f"--boogie-file={folder}/axioms.bpl",
                                     f"-I{folder}")


def test_pattern_is_stripped(tmp_path):
    p = kernel(tmp_path, "w.cl", "//pass\n//--local_size=64\n//  Verified: .*w.cl  \n")
    assert [pat.pattern for pat in parse_header(p).patterns] == ["Verified: .*w.cl"]


@pytest.mark.parametrize("position", ["before flags", "after patterns"])
def test_known_gap_anywhere(tmp_path, position):
    gap = "//known_gap: needs a relational invariant\n"
    header = "//pass\n" + (gap if position == "before flags" else "")
    header += "//--local_size=64\n//Verified\n" + (gap if position == "after patterns" else "")
    h = parse_header(kernel(tmp_path, "e.cl", header))
    assert h.known_gap == "needs a relational invariant"
    assert h.flags == ("--local_size=64",)
    assert [p.pattern for p in h.patterns] == ["Verified"]


@pytest.mark.parametrize("text,fragment", [
    ("__kernel void k() {}\n", ":1: missing test header"),
    ("//passed\n//--local_size=64\n", ":1: first header line must be"),
    ("//xfail:NO_SUCH_CODE\n//--local_size=64\n", ":1: unknown exit-code name 'NO_SUCH_CODE'"),
    ("//pass\n\n__kernel void k() {}\n", ":2: missing flags line"),
    ("//pass\n//--local_size='64\n", ":2: cannot split flags"),
    ("//pass\n//--local_size=64\n//race on a[\n", ":3: bad regular expression"),
    ("//pass\n//known_gap:\n//--local_size=64\n", ":2: //known_gap needs a reason"),
])
def test_bad_headers(tmp_path, text, fragment):
    p = tmp_path / "bad.cl"
    p.write_text(text)
    with pytest.raises(HeaderError) as info:
        parse_header(p)
    assert str(p) in str(info.value) and fragment in str(info.value)


def test_missing_file_is_header_error(tmp_path):
    with pytest.raises(HeaderError, match="cannot read"):
        parse_header(tmp_path / "nope.cl")


# ---------------------------------------------------------------- run_kernel

RACE_HEADER = """\
    //xfail:NOT_ALL_VERIFIED
    //--local_size=64 --num_groups=8
    //possible write-read race on .*sdata\\[
    //Write by work item [0-9]+ with local id [0-9]+ in work group [0-9]+, .*k.cl:14:
    """


def test_matching_outcome_passes(tmp_path, fake):
    p = kernel(tmp_path, "k.cl", RACE_HEADER)
    o = run_kernel(p, fake(6, RACE_TEXT), timeout=30)
    assert o.returncode == 6 and o.missing == () and o.error is None
    assert o.matched and o.status is Status.PASS and o.explain() == ""


def test_driver_gets_flags_then_kernel(tmp_path, fake):
    p = kernel(tmp_path, "k.cl", RACE_HEADER)
    o = run_kernel(p, fake(6, RACE_TEXT), timeout=30)
    assert f"ARGS: --local_size=64 --num_groups=8 {p}" in o.output


def test_wrong_exit_code_fails(tmp_path, fake):
    p = kernel(tmp_path, "k.cl", RACE_HEADER)
    o = run_kernel(p, fake(0, RACE_TEXT), timeout=30)
    assert o.status is Status.FAIL
    assert "expected NOT_ALL_VERIFIED (6), got SUCCESS (0)" in o.explain()


def test_missing_pattern_fails(tmp_path, fake):
    p = kernel(tmp_path, "k.cl", RACE_HEADER)
    o = run_kernel(p, fake(6, RACE_TEXT.replace("k.cl:14:", "k.cl:15:")), timeout=30)
    assert o.status is Status.FAIL
    assert len(o.missing) == 1 and "k.cl:14:" in o.missing[0]
    assert "missing:" in o.explain()


def test_pattern_searches_stderr_too(tmp_path, fake):
    p = kernel(tmp_path, "k.cl", "//pass\n//--local_size=64\n//ARGS: --local_size=64\n")
    assert run_kernel(p, fake(0, "Verified"), timeout=30).status is Status.PASS


def test_known_gap_failing_and_passing(tmp_path, fake):
    p = kernel(tmp_path, "g.cl", "//pass\n//known_gap: needs pow2\n//--local_size=64\n")
    failing = run_kernel(p, fake(6, "possible race"), timeout=30)
    assert failing.status is Status.KNOWN_GAP and failing.status.ok
    passing = run_kernel(p, fake(0, "Verified"), timeout=30)
    assert passing.status is Status.UNEXPECTED_PASS and not passing.status.ok
    assert "remove the marker" in passing.explain()


def test_timeout_kills_driver(tmp_path, fake):
    p = kernel(tmp_path, "t.cl", "//pass\n//--local_size=64\n")
    o = run_kernel(p, fake(0, "SLEEP"), timeout=1)
    assert o.status is Status.FAIL and o.returncode is None
    assert "timed out after 1s" in o.error
    assert o.seconds < 30


def test_missing_driver_and_bad_header_are_outcomes(tmp_path):
    p = kernel(tmp_path, "m.cl", "//pass\n//--local_size=64\n")
    o = run_kernel(p, [str(tmp_path / "no-such-driver")], timeout=30)
    assert o.status is Status.FAIL and "cannot start driver" in o.error
    bad = tmp_path / "bad.cl"
    bad.write_text("__kernel void k() {}\n")
    o = run_kernel(bad, [str(tmp_path / "no-such-driver")], timeout=30)
    assert o.status is Status.FAIL and o.error.startswith("bad header:")


def test_driver_receives_expanded_kernel_dir(tmp_path, fake):
    p = kernel(tmp_path, "x.cl", "//pass\n//--boogie-file=${KERNEL_DIR}/a.bpl\n")
    o = run_kernel(p, fake(0, "Verified"), timeout=30)
    assert f"ARGS: --boogie-file={tmp_path}/a.bpl {p}" in o.output


# one kernel per summary category: (header, fake exit code, fake output, verdict)
VERDICT_CASES = [
    (RACE_HEADER, 6, RACE_TEXT, None),
    (RACE_HEADER, 0, "Verified: k.cl", Verdict.MISSED),
    ("//xfail:BUGLE_ERROR\n//--local_size=64\n", 0, "Verified: k.cl", Verdict.MISSED),
    ("//pass\n//--local_size=64\n", 6, RACE_TEXT, Verdict.FALSE_ALARM),
    ("//pass\n//--local_size=64\n", 4, "k.cl:3:1: error: unsupported", Verdict.ERROR),
    (RACE_HEADER, 2, "k.cl:1:1: error: expected ';'", Verdict.ERROR),
    ("//pass\n//--local_size=64\n", 7, "timeout", Verdict.TIMEOUT),
    ("//pass\n//--local_size=64\n", 0, "SLEEP", Verdict.TIMEOUT),
    (RACE_HEADER, 6, RACE_TEXT.replace("k.cl:14:", "k.cl:15:"), Verdict.WRONG_OUTPUT),
    ("//xfail:BUGLE_ERROR\n//--local_size=64\n", 6, RACE_TEXT, Verdict.OTHER),
    ("__kernel void k() {}\n", 0, "Verified", Verdict.BAD_HEADER),
]


@pytest.mark.parametrize("header,code,text,expected", VERDICT_CASES)
def test_verdict_categories(tmp_path, fake, header, code, text, expected):
    p = kernel(tmp_path, "k.cl", header)
    o = run_kernel(p, fake(code, text), timeout=2 if text == "SLEEP" else 30)
    assert verdict(o) is expected


def test_verdict_table_counts_and_lists_missed(tmp_path, fake):
    outcomes = []
    for k, (header, code, text, _) in enumerate(VERDICT_CASES):
        if text != "SLEEP":
            p = kernel(tmp_path, f"k{k}.cl", header.replace("k.cl", f"k{k}.cl"))
            outcomes.append(run_kernel(p, fake(code, text.replace("k.cl", f"k{k}.cl")), timeout=30))
    lines = verdict_table(outcomes)
    assert lines[:7] == ["missed: 2", "false alarms: 1", "errors: 2", "timeouts: 1",
                         "wrong output: 1", "other mismatches: 1", "bad headers: 1"]
    assert lines[7:] == [f"missed kernel: {tmp_path / 'k1.cl'}", f"missed kernel: {tmp_path / 'k2.cl'}"]


def test_driver_as_shell_string(tmp_path, fake):
    p = kernel(tmp_path, "s.cl", "//pass\n//--local_size=64\n//^Verified$\n")
    o = run_kernel(p, shlex.join(fake(0, "Verified")), timeout=30)
    assert o.status is Status.PASS


# ---------------------------------------------------------------- collection and CLI

def test_collect_kernels(tmp_path):
    (tmp_path / "sub").mkdir()
    for name in ("sub/b.cu", "a.cl", "notes.txt"):
        (tmp_path / name).write_text("//pass\n//--local_size=1\n")
    assert [p.name for p in collect_kernels([tmp_path])] == ["a.cl", "b.cu"]
    with pytest.raises(FileNotFoundError):
        collect_kernels([tmp_path / "missing"])


def test_cli_summary_and_exit_code(tmp_path, fake):
    kernel(tmp_path, "good.cl", RACE_HEADER.replace("k.cl", "good.cl"),
           body="\n")
    kernel(tmp_path, "bad.cl", "//pass\n//--local_size=64\n")
    kernel(tmp_path, "gap.cu", "//pass\n//--blockDim=32\n//known_gap: later\n")
    driver = shlex.join(fake(6, RACE_TEXT.replace("k.cl", "good.cl")))
    result = CliRunner().invoke(main, [str(tmp_path), "-j", "2", "--driver", driver,
                                       "--timeout", "30"])
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    assert any(l.startswith("PASS") and "good.cl" in l for l in lines)
    assert any(l.startswith("FAIL") and "bad.cl" in l and "expected SUCCESS (0)" in l
               for l in lines)
    assert any(l.startswith("KNOWN_GAP") and "gap.cu" in l for l in lines)
    assert "1 passed, 1 failed, 1 known gaps" in result.output
    assert "by expected result: NOT_ALL_VERIFIED: 1/1, pass: 0/2" in result.output
    assert "known gap: " in result.output and "gap.cu: later" in result.output
    # the soundness count on its own line, then the other kinds of failure
    assert "missed: 0" in lines and "false alarms: 2" in lines and "errors: 0" in lines


def test_cli_all_passing_exits_zero(tmp_path, fake):
    kernel(tmp_path, "ok.cl", "//pass\n//--local_size=64\n//Verified\n")
    result = CliRunner().invoke(main, [str(tmp_path), "--driver",
                                       shlex.join(fake(0, "Verified: ok.cl"))])
    assert result.exit_code == 0, result.output
    assert "1 passed, 0 failed" in result.output


def test_cli_missing_path_is_usage_error(tmp_path):
    result = CliRunner().invoke(main, [str(tmp_path / "missing")])
    assert result.exit_code == 2
    assert "no such file or directory" in result.output
