"""``--verbose`` progress lines (``vcgen.report.progress``, ``vcgen.vc.solvers.trace``):
written as the run goes, one per stage start and end and one per solver query, on stderr
only; the report on stdout is the same with or without them."""
from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

from vcgen.il.parser import parse_file
from vcgen.report import progress
from vcgen.vc.query import program_vc
from vcgen.vc.solvers.backend import Outcome
from vcgen.vc.solvers.select import make_backend
from vcgen.vc.solvers.trace import TracedBackend, answerer

REPO = Path(__file__).resolve().parent.parent
KERNEL = REPO / "corpus" / "opencl" / "reduce.cl"
LINE = re.compile(r"^verbose: \[ *([0-9.]+) s\] (.*)$")


class _Fake:
    """A back end answering from a list; ``last`` names the member that answered."""

    def __init__(self, answers: list[str]):
        self.answers = list(answers)
        self.name, self.queries = "fake", 0
        self.last = type("Member", (), {"name": "member-b"})()
        self.closed = False

    def check(self, assumptions: list, limit: float | None = None) -> Outcome:
        self.queries += 1
        status = self.answers.pop(0)
        return Outcome(status, "gave up" if status == "unknown" else "")

    def values(self, terms: list) -> list:
        return [7 for _ in terms]

    def cancel(self) -> None:
        pass

    def close(self) -> None:
        self.closed = True


def test_traced_backend_reports_each_query_and_changes_no_answer():
    out = io.StringIO()
    inner = _Fake(["sat", "unknown"])
    with progress.writing(stream=out):
        b = TracedBackend(inner)
        assert b.check([1, 2], limit=3).status == "sat"
        assert b.values(["t"]) == [7]
        assert b.check([1]).status == "unknown"
        b.close()
    lines = [LINE.match(line) for line in out.getvalue().splitlines()]
    assert all(lines), out.getvalue()
    texts = [m.group(2) for m in lines if m]
    assert re.fullmatch(r"query 1 \(2 assumptions, limit 3 s\): sat in [0-9.]+ s by member-b", texts[0])
    assert re.fullmatch(r"query 2 \(1 assumptions\): unknown in [0-9.]+ s by member-b \(gave up\)", texts[1])
    assert inner.closed and b.queries == 2


def test_answerer_follows_auto_and_portfolio_to_the_solver_that_answered():
    portfolio = type("P", (), {"name": "portfolio", "winner": type("Y", (), {"name": "yices"})()})()
    auto = type("A", (), {"name": "auto", "last": portfolio})()
    assert answerer(auto) == "yices"
    portfolio.winner = None  # nobody won: a timeout of every member
    assert answerer(auto) == "portfolio"


def test_back_ends_are_traced_only_while_progress_is_written():
    vc = program_vc(parse_file(str(REPO / "tests" / "bpl" / "race.bpl")))
    assert not isinstance(make_backend(vc), TracedBackend)
    with progress.writing(stream=io.StringIO()):
        assert progress.enabled()
        assert isinstance(make_backend(vc), TracedBackend)
    assert not isinstance(make_backend(vc), TracedBackend)
    assert not progress.enabled()


def _driver(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "vcgen.driver", *args], cwd=REPO, capture_output=True,
                          text=True, timeout=240)


def test_verbose_streams_stages_and_queries_on_stderr_only():
    flags = ["--local_size=64", "--num_groups=8"]
    plain = _driver(*flags, str(KERNEL))
    verbose = _driver(*flags, "--verbose", str(KERNEL))
    assert plain.returncode == verbose.returncode == 0, verbose.stderr
    assert plain.stdout == verbose.stdout  # the report is unchanged
    msgs = [m.group(2) for m in map(LINE.match, verbose.stderr.splitlines()) if m]
    stamps = [float(m.group(1)) for m in map(LINE.match, verbose.stderr.splitlines()) if m]
    assert stamps == sorted(stamps)
    starts = [m.split()[1] for m in msgs if m.endswith(" started")]
    assert starts == ["cc", "translate", "abstract", "lockstep", "houdini", "verify"]
    for stage in starts:
        assert any(re.fullmatch(rf"stage {stage}: [0-9.]+ s", m) for m in msgs), (stage, msgs)
    # queries come between their stage's start and end lines
    verify = msgs.index("stage verify started")
    queries = [i for i, m in enumerate(msgs) if re.match(r"query \d+ \(\d+ assumptions.*\): (un)?sat in [0-9.]+ s by ", m)]
    assert queries and any(i > verify for i in queries), msgs
    assert "timing: frontend" in verbose.stderr and "verbose:" not in plain.stderr
