"""Refutation engines (paper 003 section 5): each refutes what it should, none refutes a
true invariant, and Houdini with engines keeps exactly the candidates it keeps alone."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from vcgen.vc.query import program_vc
from vcgen.analysis.loops import natural_loops
from vcgen.inference import houdini, refutation
from vcgen.inference.houdini import HoudiniOptions
from vcgen import il
from vcgen.interp.trace import AssertFailure
from vcgen.il.errors import ExitCode, ToolError
from vcgen.il.parser import parse_file, parse_program
from vcgen.inference.refutation import dyn, smt
from vcgen.vc.solvers.inprocess import Z3Backend
from vcgen.testsuite import parse_header
from vcgen.verify.checker import verify_program

from vcgen_progs import candidate_loop, header_1d, kernel, twin_counters

ROOT = Path(__file__).resolve().parent.parent
GUARDS = "".join(f"const {{:existential true}} _b{k}: bool;\n" for k in range(8))

# for (x = 0, y = 0; x < 10; x++, y++) with candidates at the head:
#   _b0 x == 5      false on entry              (SBASE, LU(1), DYN)
#   _b1 x == 0      true on entry, false after one iteration (SSTEP, LU(1), DYN, not SBASE)
#   _b2 x <= 10     inductive
#   _b3 x == y      inductive
#   _b4 x <= 3      true for 3 iterations: not inductive, LU(1) cannot see it, DYN can
LOOP = twin_counters({"_b0": "r1: $x == 5bv32", "_b1": "r2: $x == 0bv32", "_b2": "r3: BV32_ULE($x, 10bv32)",
                      "_b3": "r3: $x == $y", "_b4": "r4: BV32_ULE($x, 3bv32)"}, bound=10,
                     after='    assert {:sourceloc "m.cl", 9, 3} {:user_assert} $y == 10bv32;\n', guards=8)

# Two loops in sequence.  _b1 (j <= 10 at the second head) holds on entry only because
# _b0 (i <= 10 at the first head) is assumed there: an engine assuming nothing else (or
# only the candidate itself) would wrongly refute the true invariant _b1.
SEQUENTIAL = kernel("""\
  var $i: bv32;
  var $j: bv32;
  $entry:
    $i := 0bv32;
    goto $h1;
  $h1:
    assert {:candidate "r1"} _b0 ==> BV32_ULE($i, 10bv32);
    goto $b1, $x1;
  $b1:
    assume {:partition} BV32_ULT($i, 10bv32);
    $i := BV32_ADD($i, 1bv32);
    goto $h1;
  $x1:
    assume {:partition} !BV32_ULT($i, 10bv32);
    $j := $i;
    goto $h2;
  $h2:
    assert {:candidate "r2"} _b1 ==> BV32_ULE($j, 10bv32);
    assert {:candidate "r3"} _b2 ==> $j == 0bv32;
    goto $b2, $x2;
  $b2:
    assume {:partition} BV32_ULT($j, 10bv32);
    $j := BV32_ADD($j, 1bv32);
    goto $h2;
  $x2:
    assume {:partition} !BV32_ULT($j, 10bv32);
    assert {:vacuity_check} false;
    return;
""", decls=GUARDS)

# An ordinary assertion fails before the loop on every run.  Houdini assumes ordinary
# assertions, so the loop is unreachable and even x == 5 is (vacuously) inductive:
# DYN must not trust the candidate failure that follows the ordinary failure.
AFTER_FAILURE = kernel(candidate_loop(
    '    $x := 0bv32;\n    assert {:sourceloc "m.cl", 3, 3} {:user_assert} $x == 1bv32;\n',
    '    assert {:candidate "r1"} _b0 ==> $x == 5bv32;\n', "10bv32"), decls=GUARDS)


def _guards(prog: il.Program) -> set:
    return set(houdini.vcmod.existential_consts(prog))


def _refuted(engine, prog: il.Program, alive: set | None = None) -> set:
    out: set = set()
    for dead in engine(prog, _guards(prog) if alive is None else alive, refutation.Control(30)):
        assert not dead & out, "an engine reports each refutation once"
        out |= dead
    return out


def _houdini_alive(prog: il.Program) -> set:
    vc = program_vc(prog)
    return houdini.houdini_fixpoint(vc, Z3Backend(vc, 30))


@pytest.fixture(scope="module")
def loop():
    return parse_program(LOOP)


def test_houdini_reference_sets(loop):
    assert _houdini_alive(loop) == {"_b2", "_b3"}
    assert _houdini_alive(parse_program(SEQUENTIAL)) == {"_b0", "_b1"}
    assert _houdini_alive(parse_program(AFTER_FAILURE)) == {"_b0"}


def test_sbase_refutes_candidates_false_on_entry_only(loop):
    assert _refuted(smt.sbase, loop) == {"_b0"}


def test_sstep_refutes_candidates_not_maintained(loop):
    # all alive candidates are assumed at the head: x == 5 and x == 0 together make the
    # step case vacuous (paper 003 section 2.2), so SSTEP needs _b0 gone first
    assert _refuted(smt.sstep, loop) == set()
    assert _refuted(smt.sstep, loop, {"_b1", "_b2", "_b3", "_b4"}) == {"_b1", "_b4"}


def test_lu1_refutes_candidate_false_after_one_iteration(loop):
    # _b4 fails only after 4 iterations: beyond LU(1)
    assert _refuted(smt.lu1, loop) == {"_b0", "_b1"}


def test_lu_depth_reaches_further(loop):
    dead = _refuted(lambda p, a, c: smt.lu(p, a, c, depth=4), loop)
    assert dead == {"_b0", "_b1", "_b4"}


def test_dyn_refutes_candidates_false_on_a_concrete_run(loop):
    assert _refuted(dyn.dyn, loop) == {"_b0", "_b1", "_b4"}


def test_dyn_iteration_bound_keeps_the_prefix(loop):
    # two loop-head visits (the budget may not grow): x == 0 then x == 1; x <= 3 never
    # fails in that prefix
    dead = _refuted(lambda p, a, c: dyn.dyn(p, a, c, max_iterations=2, max_budget=2), loop)
    assert dead == {"_b0", "_b1"}


def test_dyn_budget_grows_after_a_barren_cut_run(loop):
    """When DYN would stop after runs cut by their visit budget, the budget grows:
    x <= 3 fails at the fifth head visit, past a budget of 2 visits, within 2 * 8;
    the invariants x <= 10 and x == y stay (a longer prefix is still an execution)."""
    dead = _refuted(lambda p, a, c: dyn.dyn(p, a, c, max_iterations=2), loop)
    assert dead == {"_b0", "_b1", "_b4"}


def test_runner_reports_a_run_cut_by_its_budget(loop):
    runner = dyn.Runner(loop, max_iterations=2)
    assert runner.refute({"_b4"}, 0) == set() and runner.truncated
    assert runner.refute({"_b4"}, 0, budget=64) == {"_b4"} and not runner.truncated


def test_deeper_only_when_cut_and_a_longer_run_fits():
    assert dyn._deeper(0.4, 256, 4096, max_seconds=4.0)
    assert not dyn._deeper(0.0, 256, 4096, max_seconds=4.0)  # no run ended on its budget
    assert not dyn._deeper(0.1, 4096, 4096, max_seconds=4.0)
    assert not dyn._deeper(0.6, 256, 4096, max_seconds=4.0)


@pytest.mark.parametrize("engine", [smt.sbase, smt.sstep, smt.lu1, dyn.dyn])
def test_no_engine_refutes_an_invariant_that_needs_other_candidates(engine):
    prog = parse_program(SEQUENTIAL)
    dead = _refuted(engine, prog)
    assert not dead & {"_b0", "_b1"}


def test_sbase_finds_the_dependent_refutation_houdini_finds():
    dead = _refuted(smt.sbase, parse_program(SEQUENTIAL))
    assert dead == {"_b2"}  # j == 0 fails on entry (j == 10 there)


@pytest.mark.parametrize("engine", [smt.sbase, smt.sstep, smt.lu1, dyn.dyn])
def test_nothing_refuted_after_an_ordinary_assertion_fails(engine):
    assert _refuted(engine, parse_program(AFTER_FAILURE)) == set()


def test_dyn_keeps_running_past_barren_runs(loop, monkeypatch):
    """A run that refutes nothing does not end DYN (on loop nests whose paths hinge on a
    few arguments a later run still refutes many); ``patience`` barren runs in a row do."""
    script = iter([set(), set(), {"_b0"}, set(), set(), set(), {"_b1"}])
    monkeypatch.setattr(dyn.Runner, "refute", lambda self, alive, seed, given=None, budget=None:
                        next(script, set()) & alive)
    ctl = refutation.Control(30)
    assert list(dyn.dyn(loop, _guards(loop), ctl, patience=3)) == [{"_b0"}]
    script = iter([set(), set(), {"_b0"}, set(), set(), set(), {"_b1"}])
    assert list(dyn.dyn(loop, _guards(loop), ctl, patience=4)) == [{"_b0"}, {"_b1"}]


@pytest.fixture
def scripted_runs(monkeypatch):
    """``script(runs, seconds)``: DYN's runs refute ``runs[k]`` (what is still alive of
    it) in turn, each taking ``seconds`` on a fake clock that starts at 0."""
    clock = [0.0]

    class Clock:
        @staticmethod
        def monotonic() -> float:
            return clock[0]

    def script(runs: list, seconds: float) -> None:
        it = iter(runs)
        clock[0] = 0.0

        def refute(self, alive, seed, given=None, budget=None):
            clock[0] += seconds
            return {g for g in next(it, set()) if g in alive}
        monkeypatch.setattr(dyn.Runner, "refute", refute)
    monkeypatch.setattr(dyn, "time", Clock)
    return script


def test_dyn_runs_past_its_time_while_every_run_refutes(loop, scripted_runs):
    """Past ``seconds`` DYN goes on while each run refutes something (each spares
    Houdini a query), up to ``max_seconds``; past ``seconds`` a barren run ends it."""
    guards = [f"_b{k}" for k in range(8)]
    scripted_runs([{g} for g in guards], 0.5)
    got = list(dyn.dyn(loop, set(guards), refutation.Control(30), seconds=1.0, max_seconds=2.0,
                       per_candidate=1.0))
    assert got == [{g} for g in guards[:5]]  # runs at 0, 0.5, 1, 1.5, 2 s
    scripted_runs([{"_b0"}, set(), {"_b1"}, {"_b2"}, {"_b3"}, set(), {"_b4"}], 0.5)
    got = list(dyn.dyn(loop, set(guards), refutation.Control(30), seconds=1.0, max_seconds=4.0,
                       per_candidate=1.0))
    assert got == [{"_b0"}, {"_b1"}, {"_b2"}, {"_b3"}]  # barren at 0.5 s goes on, at 2.5 s ends it


def test_dyn_times_shrink_with_few_candidates(loop, scripted_runs):
    """A few candidates get ``per_candidate`` seconds each: with 8 at 0.05 s, DYN's 1 s and
    2 s become 0.4 s and 0.8 s, so the barren run at 0.5 s ends it; the refuting runs stop
    past 0.8 s."""
    guards = [f"_b{k}" for k in range(8)]
    scripted_runs([{"_b0"}, set(), set(), {"_b1"}], 0.25)
    got = list(dyn.dyn(loop, set(guards), refutation.Control(30), seconds=1.0, max_seconds=2.0,
                       per_candidate=0.05))
    assert got == [{"_b0"}]  # runs at 0 and 0.25 s; at 0.5 s the last was barren past 0.4 s
    scripted_runs([{g} for g in guards], 0.25)
    got = list(dyn.dyn(loop, set(guards), refutation.Control(30), seconds=1.0, max_seconds=2.0,
                       per_candidate=0.05))
    assert got == [{g} for g in guards[:4]]  # runs at 0, 0.25, 0.5, 0.75 s; 1.0 > 0.8
    assert dyn._time_share(100, 1.0, 0.04) == 1.0 and dyn._time_share(5, 1.0, 0.04) == pytest.approx(0.2)


# _b0 fails at the head only when the argument n is 777: random inputs practically never
# choose it, a model of a query in which _b0 fails does
ARGUMENT = kernel(candidate_loop(
    "    $x := 0bv32;\n",
    '    assert {:candidate "r1"} _b0 ==> $n != 777bv32;\n'
    '    assert {:candidate "r2"} _b1 ==> BV32_ULE($x, 10bv32);\n', "10bv32"), params="$n: bv32", decls=GUARDS)


def test_model_guide_runs_from_the_model_inputs():
    prog = parse_program(ARGUMENT)
    guide = dyn.ModelGuide(prog)
    assert "$n" in guide.inputs() and "local_id_x$1" in guide.inputs()
    assert "_b0" not in guide.inputs()  # guards are not inputs
    alive = {"_b0", "_b1"}
    assert guide.refute(alive, {"$n": 5}) == set()
    assert guide.refute(alive, {"$n": 777, "local_id_x$1": "?"}) == {"_b0"}  # "?" is drawn
    assert guide.runs == 2 and guide.refuted == 1


def test_model_guide_takes_the_program_sequential_dyn_compiled(monkeypatch):
    """``seq:dyn``: the model guide runs the program DYN compiled (one ``Runner``), and
    its runs refute as a guide compiling its own would."""
    prog = parse_program(ARGUMENT)
    made = []
    real = dyn.Runner.__init__

    def counting(self, *args, **kwargs):
        made.append(self)
        real(self, *args, **kwargs)
    monkeypatch.setattr(dyn.Runner, "__init__", counting)
    out = refutation.start(prog, refutation.parse_plan("seq:dyn"), {"_b0", "_b1"})
    guide = out.guide
    assert guide is not None and guide._compiled() is made[0] and len(made) == 1
    assert guide.refute({"_b0", "_b1"}, {"$n": 777}) == {"_b0"}
    assert len(made) == 1
    own = dyn.ModelGuide(prog)
    assert own.refute({"_b0", "_b1"}, {"$n": 777}) == {"_b0"} and len(made) == 2
    out.close()


def test_model_guide_runs_only_while_worth_a_query(loop):
    """A run is made while it costs less than the query time its expected refutations
    save, and within the guide's share of the wall time."""
    guide = dyn.ModelGuide(loop)
    assert guide.wanted(0.001)  # the first run always
    guide.started -= 100.0  # 100 s of Houdini so far
    guide.runs, guide.run_seconds, guide.seconds, guide.refuted = 26, 6.7, 6.9, 10
    guide.recent = 0.4
    assert not guide.wanted(0.5)  # 0.26 s a run, 0.4 refutations a run, 0.5 s queries
    guide.skipped = 0
    assert guide.wanted(3.0)
    guide.seconds = 30.0  # over its share (25 s of 100)
    assert not guide.wanted(3.0)


def test_model_guide_stops_after_a_barren_streak_and_probes_again():
    """The estimate follows the recent runs, not the average since the start: after a
    first run refuting 28, barren runs soon stop being worth a 0.2 s query (under the
    average they stayed worth it for 37 runs), and skipped answers make a run due
    again at widening intervals."""
    prog = parse_program(ARGUMENT)
    guide = dyn.ModelGuide(prog, share=1.0)
    guide.started -= 1000.0  # far within its share
    yields = iter([28] + [0] * 100)

    def fake_refute(alive, values):  # what ModelGuide.refute records, run costing 0.15 s
        dead = next(yields)
        guide.runs, guide.run_seconds, guide.refuted = guide.runs + 1, guide.run_seconds + 0.15, guide.refuted + dead
        guide.recent = dyn.DECAY * guide.recent + (1 - dyn.DECAY) * dead
    ran = []
    for answer in range(40):
        if guide.wanted(0.2):
            fake_refute(set(), {})
            ran.append(answer)
    assert 5 <= len(ran) <= 12, ran
    assert ran[:5] == [0, 1, 2, 3, 4]  # the streak's first runs
    gaps = [b - a for a, b in zip(ran, ran[1:])]
    assert gaps == sorted(gaps) and gaps[-1] > 2  # then probes, further and further apart


def test_model_guide_never_probes_again_when_no_run_refuted_anything():
    prog = parse_program(ARGUMENT)
    guide = dyn.ModelGuide(prog, share=1.0)
    guide.started -= 1000.0
    guide.runs, guide.run_seconds, guide.recent = 2, 1.8, 0.25  # 0.9 s a run, nothing refuted
    assert not any(guide.wanted(1.3) for _ in range(30))
    guide.refuted = 3  # the same estimate after runs that did refute: probed again
    assert any(guide.wanted(1.3) for _ in range(30))


def test_model_guide_recent_yield_follows_its_runs():
    prog = parse_program(ARGUMENT)
    guide = dyn.ModelGuide(prog)
    assert guide.expected() == 1.0  # the prior: the first run is always made
    guide.refute({"_b0", "_b1"}, {"$n": 777})
    assert guide.recent == dyn.DECAY * 1.0 + (1 - dyn.DECAY) * 1
    guide.refute({"_b1"}, {"$n": 777})
    assert guide.recent == dyn.DECAY * 1.0  # a barren run halves it


# Many groups: independent draws of the two threads' group ids almost never coincide,
# and _b0 fails only when they do (two threads of one group).  _b1 holds on every run.
MANY_GROUPS = kernel(candidate_loop(
    "    $x := 0bv32;\n",
    '    assert {:candidate "r1"} _b0 ==> group_id_x$1 != group_id_x$2;\n'
    '    assert {:candidate "r2"} _b1 ==> BV32_ULE($x, 3bv32);\n', "3bv32"),
    decls=GUARDS, header=header_1d(4, 65536, "{:distinct_threads} "))


def test_dyn_runs_two_threads_of_one_group():
    """Every second DYN run puts both threads in one group (``Runner.same_group``): a
    candidate failing only there is refuted, which independent draws on a grid of 65536
    groups practically never do; the true candidate is not."""
    prog = parse_program(MANY_GROUPS)
    runner = dyn.Runner(prog)
    given = runner.same_group(3)
    assert given["group_id_x$1"] == given["group_id_x$2"]
    assert runner.refute({"_b0", "_b1"}, 3, given) == {"_b0"}
    assert _refuted(dyn.dyn, prog) == {"_b0"}
    assert _houdini_alive(prog) == {"_b1"}


def test_same_group_needs_group_ids():
    assert dyn.Runner(parse_program(kernel("  $entry:\n    return;\n"))).same_group(0) != {}
    no_groups = parse_program(MANY_GROUPS.replace("group_id_x", "gid_x"))
    assert dyn.Runner(no_groups).same_group(0) == {}


def test_start_gives_a_model_guide_when_the_plan_runs_dyn(loop):
    for spec, guided in (("seq:dyn", True), ("sbase", False), ("none", False)):
        r = refutation.start(loop, refutation.parse_plan(spec), _guards(loop))
        try:
            assert (r.guide is not None) == guided
        finally:
            r.close()


def test_trusted_prefix_stops_at_first_ordinary_failure():
    def fail(guard=None):
        attrs = {dyn.GUARD_ATTR: [guard]} if guard else {"user_assert": []}
        return AssertFailure("assert", "$k", "b", "e", (), attrs, None)
    assert dyn.trusted_refutations([fail("_b1"), fail("_b2"), fail(), fail("_b3")]) == {"_b1", "_b2"}
    assert dyn.trusted_refutations([fail(), fail("_b1")]) == set()


def test_engines_only_consider_alive_candidates(loop):
    assert _refuted(smt.lu1, loop, {"_b1", "_b2"}) == {"_b1"}
    assert _refuted(dyn.dyn, loop, {"_b2", "_b3"}) == set()


def test_pulled_refutations_are_not_reported_again(loop):
    ctl = refutation.Control(30, external=lambda: {"_b0"})
    assert set().union(*smt.sbase(loop, _guards(loop), ctl)) == set()


def test_unroll_keeps_candidates_and_is_acyclic(loop):
    k = smt.unroll_keeping_candidates(loop.kernel(), 1)
    assert not natural_loops(k)
    cands = [c for b in k.blocks for c in b.cmds
             if isinstance(c, il.Assert) and il.has_attr(c.attrs, "candidate")]
    assert len(cands) == 10  # the header's five candidates after 0 and 1 iterations


def test_dyn_instrumented_program_is_valid_il(loop):
    from vcgen.il.printer import program_str
    prog = dyn.instrument(loop, 7)
    assert parse_program(program_str(prog)) == prog


# ------------------------------------------------------------------- plans and Houdini


def test_parse_plan():
    assert refutation.parse_plan("none") == refutation.Plan()
    assert refutation.parse_plan("DYN, sbase") == refutation.Plan(("dyn", "sbase"), True)
    assert refutation.parse_plan("seq:LU(1)") == refutation.Plan(("lu1",), False)
    assert str(refutation.parse_plan("seq:dyn,sbase")) == "seq:dyn,sbase"
    with pytest.raises(ToolError) as e:
        refutation.parse_plan("sbase,magic")
    assert "magic" in str(e.value) and int(e.value.code) == 1


@pytest.mark.parametrize("spec", ["none", "sbase", "sstep", "lu1", "dyn", "dyn,sbase",
                                  "seq:dyn,sbase,lu1,sstep"])
def test_houdini_with_engines_same_invariants(loop, spec):
    out, stats, _ = houdini.run_houdini(loop, HoudiniOptions(timeout=30, refutation=spec))
    ref, _, _ = houdini.run_houdini(loop, HoudiniOptions(timeout=30, refutation="none"))
    assert out == ref
    assert stats.proved == 2 and stats.refutation == spec.lower()
    assert set(stats.refuted_by) <= {"_b0", "_b1", "_b4"}
    if spec.startswith("seq:"):  # everything refutable was refuted before Houdini started
        assert set(stats.refuted_by) == {"_b0", "_b1", "_b4"}
        assert stats.rules["r1"].refuted == 1 and "refuted by engines 1" in "\n".join(stats.lines())


def test_disable_rule_drops_its_candidates(loop):
    out, stats, _ = houdini.run_houdini(loop, HoudiniOptions(refutation="none", disable_rules=("r3",)))
    assert "r3" not in stats.rules and stats.proved == 0
    dropped = houdini.drop_rules(loop, ["r3"])
    assert {"_b2", "_b3"}.isdisjoint(dropped.consts()) and {"_b0", "_b1", "_b4"} <= set(dropped.consts())
    assert houdini.candidate_rules(program_vc(dropped)) == {"_b0": "r1", "_b1": "r2", "_b4": "r4"}
    # without r3's invariants the assertion y == 10 after the loop is not provable
    assert verify_program(out).status == "errors"
    assert verify_program(houdini.run_houdini(loop)[0]).status == "verified"


# --------------------------------------------------------- corpus-derived programs

CORPUS = ["opencl/reduce.cl", "opencl/break_continue.cl", "opencl/iter_shift_bug_nextiter.cl",
          "cuda/matvec.cu", "cuda/histogram.cu"]


def _two_thread(tmp: Path, rel: str) -> il.Program:
    src = ROOT / "corpus" / rel
    dst = tmp / src.name
    shutil.copy(src, dst)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    p = subprocess.run([sys.executable, "-m", "vcgen.driver", *parse_header(src).flags,
                        "--stop-at-bpl", str(dst)], capture_output=True, text=True, env=env, timeout=300)
    assert p.returncode == 0, p.stderr
    return parse_file(str(dst.with_suffix(".bpl")))


@pytest.fixture(scope="module")
def corpus_programs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("refutation")
    return {rel: _two_thread(tmp, rel) for rel in CORPUS}


@pytest.mark.parametrize("rel", CORPUS)
def test_engines_never_refute_houdinis_invariants_on_corpus(corpus_programs, rel):
    prog = corpus_programs[rel]
    alive = _houdini_alive(prog)
    for engine in (smt.sbase, smt.lu1, dyn.dyn):
        assert not _refuted(engine, prog) & alive, engine.__name__


@pytest.mark.parametrize("rel", CORPUS)
def test_houdini_with_parallel_engines_same_result_on_corpus(corpus_programs, rel):
    prog = corpus_programs[rel]
    ref, ref_stats, _ = houdini.run_houdini(prog, HoudiniOptions(timeout=60, refutation="none"))
    out, stats, _ = houdini.run_houdini(prog, HoudiniOptions(timeout=60, refutation="dyn,sbase"))
    assert out == ref and stats.proved == ref_stats.proved
    assert stats.generated == ref_stats.generated


# A struct passed by value (a local map tied to its scalar parameters) and a constant
# array initialiser (a global map, copied to thread 2's copy) constrained by assumes at
# the start: _b0 is false on every run that gets past them, _b1 holds.
BY_VALUE = kernel(candidate_loop("""\
    assume $$s[0bv32] == $s$0;
    assume $$s[0bv32] == $s$0;
    assume $$s[1bv32] == $s$1;
    assume $$tab$1[0bv32] == 7bv32;
    assume $$tab$2[0bv32] == 7bv32;
    $x := $$s[1bv32];
""", """\
    assert {:candidate "r1"} _b0 ==> $x != $s$1;
    assert {:candidate "r2"} _b1 ==> $$tab$2[0bv32] == 7bv32;
""", "3bv32", locals_="""\
  var $$s: [bv32]bv32;
  var $x: bv32;
  $entry$lockstep:
    $$tab$2 := $$tab$1;
    goto $entry;
"""), params="$s$0: bv32, $s$1: bv32",
    decls=GUARDS + "var $$tab$1: [bv32]bv32;\nvar $$tab$2: [bv32]bv32;\n")


def test_dyn_runs_get_past_assumes_on_initial_maps():
    """``dyn.bind_initial_maps``: the initial value of a by-value struct's local map and
    of a constant array is chosen to satisfy the assumes at the kernel's start; before,
    every run was infeasible (the cells drawn independently of the parameters) and DYN
    refuted nothing (AMD MonteCarloAsianMultiGPU)."""
    prog = parse_program(BY_VALUE)
    assert _refuted(dyn.dyn, prog) == {"_b0"}
    k = dyn.bind_initial_maps(prog, prog.kernel())
    stores = [c for c in k.body()[0].cmds if isinstance(c, il.Assign)]
    assert [str(il.printer.expr_str(c.rhss[0])) for c in stores[:3]] == ["$s$0", "$s$1", "7bv32"]
    assert _houdini_alive(prog) == {"_b1"}


def _stores_of_s0(text: str) -> list:
    prog = parse_program(text)
    k = dyn.bind_initial_maps(prog, prog.kernel())
    return [c for c in k.body()[0].cmds[:4] if isinstance(c, il.Assign) and c.lhss[0] == il.MapLhs("$$s", il.BvLit(0, 32))]


@pytest.mark.parametrize("before", [
    "    $$s[0bv32] := 1bv32;\n",    # written: it no longer holds the initial value
    "    $$s := $$s[0bv32 := 1bv32];\n",
    "    havoc $$s;\n",
    "    $s$0 := 3bv32;\n"])          # the bound value is not the one at the start
def test_bind_initial_maps_only_while_the_map_holds_its_initial_value(before):
    """No store once the map was written or the bound value's variables assigned (the
    store, at the start, would not give the assume's cell its value); the runs stay
    infeasible (nothing refuted) instead of wrong.  A read before is fine: the store
    comes first, so the run reads the chosen initial value."""
    assert _stores_of_s0(BY_VALUE.replace("  $entry:\n", "  $entry:\n" + before, 1)) == []
    assert _stores_of_s0(BY_VALUE.replace("  $entry:\n", "  $entry:\n    $x := $$s[0bv32];\n", 1)) != []


def test_bind_initial_maps_leaves_maps_a_precondition_constrains():
    prog = parse_program(BY_VALUE.replace("procedure {:kernel}", "axiom $$tab$1[1bv32] == 2bv32;\nprocedure {:kernel}"))
    k = dyn.bind_initial_maps(prog, prog.kernel())
    assert not [c for c in k.body()[0].cmds if isinstance(c, il.Assign) and c.lhss[0].name == "$$tab$1"]


# ``__assume(s.n == 20)`` on a struct passed by value: the assume reads a parameter
# through the struct's local map; _b0 fails on every run past it, _b1 holds.
ASSUMED_FIELD = kernel(candidate_loop("""\
    assume $$s[0bv32] == $s$0;
    assume $$s[1bv32] == $s$1;
    $n := $$s[1bv32];
    $c := $n == 20bv32;
    assume $c;
    $x := 0bv32;
""", """\
    assert {:candidate "r1"} _b0 ==> BV32_ULT($x, 2bv32);
    assert {:candidate "r2"} _b1 ==> BV32_ULE($x, $s$1);
""", "$n", locals_="""\
  var $$s: [bv32]bv32;
  var $n: bv32;
  var $c: bool;
  var $x: bv32;
"""), params="$s$0: bv32, $s$1: bv32", decls=GUARDS)


def test_dyn_runs_meet_assumes_on_parameters_as_preconditions():
    """``dyn.lift_start_assumes``: the assume, a function of a parameter once the
    assignments before it are substituted, becomes a precondition the input chooser
    meets (``$s$1 == 20``); before, random draws never did and DYN refuted nothing
    (rodinia heartwall)."""
    prog = parse_program(ASSUMED_FIELD)
    k = dyn.lift_start_assumes(prog, dyn.bind_initial_maps(prog, prog.kernel()))
    lifted = [il.printer.expr_str(s.expr) for s in k.specs]
    assert lifted == ["$s$1 == 20bv32"]
    assert _refuted(dyn.dyn, prog) == {"_b0"}
    assert _houdini_alive(prog) == {"_b1"}


@pytest.mark.parametrize("change", [
    ("    $c := $n == 20bv32;\n", "    havoc $n;\n    $c := $n == 20bv32;\n"),  # a havoc: not an input
    ("    $n := $$s[1bv32];\n", "    $n := $$s[2bv32];\n"),   # an unbound cell of a local map
    ("    $n := $$s[1bv32];\n", "    $n := $x;\n"),           # an uninitialised local
    ("  $entry:\n", "  $entry:\n    goto $entry2;\n  $entry2:\n    goto $entry3;\n  $entry3:\n"
     "    goto $entry2, $entry4;\n  $entry4:\n")])            # not the straight-line start
def test_lift_start_assumes_only_functions_of_the_inputs(change):
    prog = parse_program(ASSUMED_FIELD.replace(*change, 1))
    k = dyn.lift_start_assumes(prog, dyn.bind_initial_maps(prog, prog.kernel()))
    assert "20bv32" not in " ".join(il.printer.expr_str(s.expr) for s in k.specs)
