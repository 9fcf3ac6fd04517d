"""Houdini: inductive candidates survive, others are dropped, unknown never keeps."""
from __future__ import annotations

import io
import re
import time

from vcgen.vc.query import program_vc
from vcgen.inference import houdini, refutation
from vcgen import il
from vcgen.inference.houdini import HoudiniStats, houdini_fixpoint, run_houdini
from vcgen.il.parser import parse_file, parse_program
from vcgen.il.printer import program_str
from vcgen.vc.solvers import split
from vcgen.vc.solvers.backend import Outcome, Wrapper
from vcgen.vc.solvers.inprocess import Z3Backend
from vcgen.vc.solvers.sliced import slice_prover
from vcgen.report import progress
from vcgen.verify.checker import verify_program

from vcgen_progs import BPL, kernel, twin_counters


def _asserts(prog: il.Program) -> list:
    return [c for b in prog.kernel().blocks for c in b.cmds if isinstance(c, il.Assert)]


def test_inductive_candidate_survives_non_inductive_dropped():
    prog = parse_file(str(BPL / "loop_inductive.bpl"))
    out, stats, _ = run_houdini(prog)
    invs = [c for c in _asserts(out) if il.has_attr(c.attrs, "invariant")]
    assert len(invs) == 1
    assert il.attr(invs[0].attrs, "inferred").args == ("r1",)
    assert not any(il.has_attr(c.attrs, "candidate") for c in _asserts(out))
    assert "_b0" not in out.consts() and "_b1" not in out.consts()
    assert stats.rules["r1"].generated == 1 and stats.rules["r1"].proved == 1
    assert stats.rules["r2"].generated == 1 and stats.rules["r2"].proved == 0
    # the output is valid IL and verifies on its own
    again = parse_program(program_str(out))
    assert again == out
    assert verify_program(again).status == "verified"


MUTUAL = twin_counters({"_b0": "r1: $x == $y", "_b1": "r2: BV32_ULE($x, 100bv32)",
                        "_b2": "r3: $y == 0bv32", "_b3": "r3: $x == 0bv32"},
                       after='    assert {:sourceloc "m.cl", 9, 3} {:user_assert} $y == 100bv32;\n')


def test_maximal_inductive_subset_and_verification():
    prog = parse_program(MUTUAL)
    out, stats, _ = run_houdini(prog)
    inferred = sorted(il.attr(c.attrs, "inferred").args[0] for c in _asserts(out)
                      if il.has_attr(c.attrs, "inferred"))
    assert inferred == ["r1", "r2"]
    assert stats.rules["r3"].generated == 2 and stats.rules["r3"].proved == 0
    assert stats.proved == 2 and stats.generated == 4
    assert "r3: generated 2, proved 0" in "\n".join(stats.lines())
    res = verify_program(prog)  # runs Houdini itself on the same solver instance
    assert res.status == "verified" and res.houdini.proved == 2


class _UnknownAfterFirst(Wrapper):
    """A backend that answers the first query truthfully and 'unknown' afterwards."""

    def __init__(self, vc):
        self.inner = Z3Backend(vc)
        self.n = 0

    def check(self, assumptions, limit=None):
        self.n += 1
        return self.inner.check(assumptions) if self.n == 1 else Outcome("unknown", "stub")


class _AlwaysTimeout:
    def check(self, assumptions, limit=None):
        return Outcome("timeout")

    def values(self, terms):
        raise AssertionError("no model after a timeout")


def test_unknown_never_keeps_a_candidate():
    prog = parse_program(MUTUAL)
    vc = program_vc(prog)
    stats = HoudiniStats()
    assert houdini_fixpoint(vc, _AlwaysTimeout(), stats) == set()
    assert stats.dropped_on_unknown == 4
    stats = HoudiniStats()
    alive = houdini_fixpoint(vc, _UnknownAfterFirst(vc), stats)
    assert alive == set() and stats.dropped_on_unknown >= 1


def test_timeout_in_houdini_never_verifies_unprovable_assertion():
    prog = parse_program(MUTUAL)
    vc = program_vc(prog)
    assert houdini_fixpoint(vc, _AlwaysTimeout()) == set()
    out = houdini.apply_invariants(prog, set())
    # without the invariants the final assertion y == 100 cannot be proved
    assert verify_program(out).status == "errors"


def synthetic_program(loops: int = 3, blocks_per_loop: int = 14, candidates: int = 40) -> str:
    """~50 blocks, ``loops`` sequential loops, ``candidates`` candidates spread over them
    (a mix of inductive and non-inductive ones)."""
    body, decls = ["  var $i: bv32;", "  var $s: bv32;", "  $entry:", "    $s := 0bv32;",
                   "    goto $h0;"], []
    k = 0
    for l in range(loops):
        body += [f"  $h{l}:"]
        for c in range(candidates // loops + (1 if l < candidates % loops else 0)):
            e = [f"BV32_ULE($i, {c + 8}bv32)", f"BV32_ULE($s, {c * 64}bv32)",
                 f"$i != {c + 1}bv32", f"BV32_ULE($i, 8bv32)"][c % 4]
            decls.append(f"const {{:existential true}} _b{k}: bool;\n")
            body.append(f'    assert {{:candidate "r{c % 4}"}} _b{k} ==> {e};')
            k += 1
        body += [f"    goto $l{l}b0, $l{l}x;"]
        for b in range(blocks_per_loop - 2):
            body += [f"  $l{l}b{b}:"]
            if b == 0:
                body.append("    assume {:partition} BV32_ULT($i, 8bv32);")
            body += [f"    $s := BV32_ADD($s, {b % 3}bv32);", f"    goto $l{l}b{b + 1};"]
        body += [f"  $l{l}b{blocks_per_loop - 2}:", "    $i := BV32_ADD($i, 1bv32);",
                 f"    goto $h{l};", f"  $l{l}x:", "    assume {:partition} !BV32_ULT($i, 8bv32);",
                 "    $i := 0bv32;", f"    goto {'$h' + str(l + 1) if l + 1 < loops else '$end'};"]
    body += ["  $end:", "    assert {:vacuity_check} false;", "    return;"]
    return kernel("\n".join(body) + "\n", decls="".join(decls))


def test_houdini_50_blocks_3_loops_40_candidates():
    """A larger program (its time is measured by make bench, not asserted here)."""
    prog = parse_program(synthetic_program())
    assert sum(len(b.cmds) >= 0 for b in prog.kernel().blocks) >= 45
    out, stats, _ = run_houdini(prog)
    assert stats.generated == 40
    assert 0 < stats.proved < 40
    # every survivor must really be inductive: verifying the output re-checks them
    assert verify_program(out).status == "verified"


def _counting_loop(head: str, guards: int) -> str:
    """``for (x = 0; x < 100; x++) {}`` with the asserts ``head`` at the loop head and
    ``guards`` existential constants ``_b0`` ... for its candidates."""
    return kernel(f"""\
  var $x: bv32;
  $entry:
    $x := 0bv32;
    goto $head;
  $head:
{head}    goto $body, $exit;
  $body:
    assume {{:partition}} BV32_ULT($x, 100bv32);
    $x := BV32_ADD($x, 1bv32);
    goto $head;
  $exit:
    assume {{:partition}} !BV32_ULT($x, 100bv32);
    assert {{:vacuity_check}} false;
    return;
""", decls="".join(f"const {{:existential true}} _b{k}: bool;\n" for k in range(guards)))


INDEPENDENT = _counting_loop("""\
    assert {:candidate "r1"} _b0 ==> BV32_ULE($x, 100bv32);
    assert {:candidate "r3"} _b1 ==> $x == 0bv32;
    assert {:candidate "r3"} _b2 ==> BV32_ULT($x, 1bv32);
    assert {:candidate "r3"} _b3 ==> $x != 1bv32;
""", 4)


def test_independent_candidate_checks_drop_several_per_model():
    """Houdini's VC does not assume a candidate after checking it, so the model of the
    first round (x == 0 at the head, x == 1 after one iteration) falsifies all three false
    candidates of the head at once; with assert-then-assume only the first of them fails in
    a model (the later ones are past a failed assert).  Both reach the same fixpoint.
    Queries: one model, the loop settled (unsat); without independence three models.
    The settling unsat is the fixpoint (one loop, nothing dropped after it): no
    confirming round."""
    prog = parse_program(INDEPENDENT)
    queries = {}
    for independent in (True, False):
        vc = program_vc(prog, independent_candidates=independent)
        stats = HoudiniStats()
        assert houdini_fixpoint(vc, Z3Backend(vc), stats) == {"_b0"}
        queries[independent] = stats.queries
        assert stats.rounds == 1  # the loop is settled in the first round either way
    assert queries[True] == 2 and queries[False] == 4
    out, stats, _ = run_houdini(prog, houdini.HoudiniOptions(refutation="none"))
    assert stats.queries == 2 and stats.proved == 1
    assert verify_program(out).status == "verified"


class _Recording(Wrapper):
    """Z3 in-process, recording which checks each query enables."""

    def __init__(self, vc):
        self.inner, self.vc, self.enabled = Z3Backend(vc), vc, []

    def check(self, assumptions, limit=None):
        on = {str(a) for a in assumptions}
        self.enabled.append({c.index for c in self.vc.checks if str(c.enable) in on})
        return self.inner.check(assumptions)


def test_houdini_queries_one_loop_at_a_time():
    """Three sequential loops: one slice of candidates per loop; every query enables the
    checks of one slice only, and the survivors are inductive (the output verifies)."""
    prog = parse_program(synthetic_program(loops=3, candidates=12))
    vc = program_vc(prog, independent_candidates=True)
    slices = houdini.loop_slices(vc)
    assert sorted(map(len, slices)) == [4, 4, 4]
    loop_of = {g: k for k, part in enumerate(slices) for g in part}
    rec = _Recording(vc)
    alive = houdini_fixpoint(vc, rec)
    for enabled in rec.enabled:
        assert len({loop_of[vc.checks[i].guard] for i in enabled}) == 1
    assert 0 < len(alive) < 12
    assert verify_program(houdini.apply_invariants(prog, alive)).status == "verified"


class _Limited(Wrapper):
    """z3 in-process, except: a query asked with a ``limit`` (Houdini's joint slice query)
    times out, and so does the one-candidate query of a guard in ``stuck`` (the solver
    never decides it alone)."""

    def __init__(self, vc, stuck=()):
        self.inner, self.vc, self.stuck = Z3Backend(vc), vc, set(stuck)
        self.limits: list = []

    def check(self, assumptions, limit=None):
        self.limits.append(limit)
        on = {str(a) for a in assumptions}
        guards = {c.guard for c in self.vc.checks if str(c.enable) in on}
        if limit is not None or (len(guards) == 1 and guards & self.stuck):
            return Outcome("timeout", "stub")
        return self.inner.check(assumptions)


def test_slice_query_over_the_limit_is_split_per_candidate():
    """The joint query of the loop's four candidates hits Houdini's limit: its candidates
    are asked one by one (no limit) and Houdini reaches the same fixpoint."""
    prog = parse_program(MUTUAL)
    vc = program_vc(prog, independent_candidates=True)
    backend, stats = _Limited(vc), HoudiniStats()
    assert houdini_fixpoint(vc, backend, stats) == {"_b0", "_b1"}
    assert stats.splits >= 1 and stats.dropped_on_unknown == 0
    # no joint query decided yet: the kernel's first limit
    assert backend.limits[0] == houdini.HOUDINI_SPLIT_FIRST
    assert None in backend.limits  # the one-candidate queries have the full timeout
    # the first split ends at a model ($y == 0 fails after one iteration): the joint query
    # was sat, so the slice's next joint query gets twice the time
    assert 2 * houdini.HOUDINI_SPLIT_FIRST in backend.limits
    assert "split into one query per candidate" in "\n".join(stats.lines())


class _Slow(Wrapper):
    """z3 in-process whose joint queries (asked with a ``limit``) take ``seconds`` of wall
    time (a sleep): records each query's limit."""

    def __init__(self, vc, seconds):
        self.inner, self.seconds, self.limits = Z3Backend(vc), seconds, []

    def check(self, assumptions, limit=None):
        self.limits.append(limit)
        if limit is not None:
            time.sleep(self.seconds)
        return self.inner.check(assumptions)


def test_joint_limit_adapts_to_the_kernel():
    """Houdini's joint queries first get ``HOUDINI_SPLIT_FIRST`` seconds (not the 10 s cap,
    which BlackScholes, advectVelocity and gr_base spent waiting for a joint query that
    then timed out); a decided joint query that took t seconds lets the next ones wait
    ``SPLIT_FACTOR * t``, and a model does not raise it to the cap (Houdini's joint
    queries are mostly sat).  Same fixpoint."""
    prog = parse_program(MUTUAL)
    vc = program_vc(prog, independent_candidates=True)
    backend = _Slow(vc, 1.2)
    assert houdini_fixpoint(vc, backend, HoudiniStats()) == {"_b0", "_b1"}
    joint = [lim for lim in backend.limits if lim is not None]
    assert joint[0] == houdini.HOUDINI_SPLIT_FIRST
    assert len(joint) >= 2
    assert all(split.SPLIT_FACTOR * 1.2 <= lim < houdini.SPLIT_AFTER for lim in joint[1:])


class _HardCandidate(Wrapper):
    """z3 in-process, except that a query asked with a ``limit`` that enables a check of
    the guard ``hard`` times out (a candidate that makes every query over it slow: the
    joint queries of its loop and its own first-pass query)."""

    def __init__(self, vc, hard):
        self.inner, self.vc, self.hard = Z3Backend(vc), vc, hard
        self.timeouts = 0

    def check(self, assumptions, limit=None):
        on = {str(a) for a in assumptions}
        if limit is not None and any(str(c.enable) in on for c in self.vc.checks if c.guard == self.hard):
            self.timeouts += 1
            return Outcome("timeout", "stub")
        return self.inner.check(assumptions)


def test_a_slow_candidate_is_asked_alone_not_in_every_joint_query():
    """Once ``_b0`` was over a split's first-pass limit, the joint queries of its loop leave
    it out (they were all timeouts: MC_SingleAsianOptionP computeValue), and it is asked
    alone with the full timeout once the others' joint query drops nothing; same
    fixpoint, ``_b0`` kept on its own unsat."""
    prog = parse_program(MUTUAL)
    vc = program_vc(prog, independent_candidates=True)
    backend, stats = _HardCandidate(vc, "_b0"), HoudiniStats()
    assert houdini_fixpoint(vc, backend, stats) == {"_b0", "_b1"}
    assert "_b0" in stats.slow
    # the first joint query and _b0's own first-pass query; no later joint query over _b0
    assert backend.timeouts == 2


def test_limit_drops_an_undecided_candidate_never_keeps_it():
    """After the split a candidate whose own query is undecided is dropped (sound: a
    weaker invariant), though it is inductive; the others are kept as proved."""
    prog = parse_program(MUTUAL)
    vc = program_vc(prog, independent_candidates=True)
    stats = HoudiniStats()
    alive = houdini_fixpoint(vc, _Limited(vc, stuck={"_b1"}), stats)
    assert "_b1" not in alive and stats.dropped_on_unknown >= 1
    assert alive <= {"_b0"}
    assert verify_program(houdini.apply_invariants(prog, alive)).status == "errors"


class _ConeStub:
    """A split-part prover (``split.PartProver``): unsat for the parts of the candidates
    ``proves``, ``otherwise`` for the rest; records the candidate guards offered."""

    def __init__(self, vc, proves=(), otherwise="sat"):
        self.vc, self.proves, self.otherwise, self.offered = vc, set(proves), otherwise, []

    def prove(self, checks, assumptions, limit=None, assumed=frozenset()):
        guards = {self.vc.checks[k].guard for k in checks}
        self.offered.append(guards)
        return Outcome("unsat" if guards <= self.proves else self.otherwise)

    def race(self, checks, backend, assumptions, limit=None):
        return backend.check(assumptions, limit)

    def reads(self, checks):
        return None  # not known: a proof is kept only while nothing is dropped


def test_split_asks_the_cone_prover_first_and_trusts_only_its_unsat():
    """A split's one-candidate queries go to the prover first: its unsat keeps ``_b1``
    (inductive: MUTUAL's fixpoint is ``_b0``, ``_b1``), which the back end never decides
    alone and drops as undecided without the prover; its sat decides nothing (``_b2``,
    ``_b3`` go to the back end, whose models drop them)."""
    prog = parse_program(MUTUAL)
    vc = program_vc(prog, independent_candidates=True)
    stats = HoudiniStats()
    assert houdini_fixpoint(vc, _Limited(vc, stuck={"_b1"}), stats) == {"_b0"}
    assert stats.dropped_on_unknown == 1
    cones, stats = _ConeStub(vc, proves={"_b1"}), HoudiniStats()
    alive = houdini_fixpoint(vc, _Limited(vc, stuck={"_b1"}), stats, prover=cones)
    assert alive == {"_b0", "_b1"} and stats.cone_proofs >= 1 and stats.dropped_on_unknown == 0
    assert all(len(o) == 1 for o in cones.offered)  # one candidate's checks per part


def test_a_candidate_the_cone_prover_did_not_prove_is_not_offered_again():
    """A cone query that is not unsat (a model, a timeout) hands the candidate to the back
    end, whose model drops what it falsifies; the candidate is not offered again."""
    prog = parse_program(MUTUAL)
    vc = program_vc(prog, independent_candidates=True)
    stub, stats = _ConeStub(vc, otherwise="timeout"), HoudiniStats()
    assert houdini_fixpoint(vc, _Limited(vc), stats, prover=stub) == {"_b0", "_b1"}
    offered = [g for o in stub.offered for g in o]
    assert offered and len(offered) == len(set(offered)) and stats.cone_proofs == 0


class _OneFailure:
    """z3 in-process, but a model names at most one failed check (the first enabled),
    like a solver that stops at the first failure it finds; counts sat answers."""

    def __init__(self, vc):
        self.inner, self.vc, self.sats = Z3Backend(vc), vc, 0
        self.fails = {str(c.fail) for c in vc.checks}

    def check(self, assumptions, limit=None):
        out = self.inner.check(assumptions)
        self.sats += out.status == "sat"
        return out

    def values(self, terms):
        values, seen = self.inner.values(terms), False
        for k, (t, v) in enumerate(zip(terms, values)):
            if str(t) in self.fails and v is True:
                values[k], seen = (False if seen else True), True
        return values


def test_model_guided_run_drops_several_candidates_per_sat_answer():
    """A model failing one candidate drops one; the DYN run from the model's inputs
    (``refutation.dyn.ModelGuide``) drops every candidate failing on the concrete run
    too: one sat answer where the model alone needed three.  Same fixpoint."""
    prog = parse_program(INDEPENDENT)
    for guided, sats in ((False, 3), (True, 1)):
        vc = program_vc(prog, independent_candidates=True)
        backend, stats, refuter = _OneFailure(vc), HoudiniStats(), refutation.Refuter()
        refuter.guide = refutation.dyn.ModelGuide(prog) if guided else None
        assert houdini_fixpoint(vc, backend, stats, refuter) == {"_b0"}
        assert backend.sats == sats
        assert (refutation.GUIDED in stats.refuted_by.values()) == guided


class _Stuck(Wrapper):
    """z3 in-process, except that a query with a ``limit`` times out when it is joint
    or asks a guard of ``stuck`` (decided only with the full timeout); logs (limit,
    status) per query."""

    def __init__(self, vc, stuck):
        self.inner, self.vc, self.stuck, self.log = Z3Backend(vc), vc, set(stuck), []

    def check(self, assumptions, limit=None):
        on = {str(a) for a in assumptions}
        guards = {c.guard for c in self.vc.checks if str(c.enable) in on}
        if limit is not None and (len(guards) > 1 or guards & self.stuck):
            out = Outcome("timeout", "stub")
        else:
            out = self.inner.check(assumptions)
        self.log.append((limit, out.status, guards))
        return out


def test_split_looks_for_a_model_before_giving_any_query_the_full_timeout():
    """A split asks its candidates first with the slice's limit: the hard one (_b0,
    first in order, inductive) waits while _b2's query gives the model; it is proved with
    the full timeout later, and no candidate is dropped as undecided."""
    prog = parse_program(MUTUAL)
    vc = program_vc(prog, independent_candidates=True)
    backend, stats = _Stuck(vc, {"_b0"}), HoudiniStats()
    assert houdini_fixpoint(vc, backend, stats) == {"_b0", "_b1"}
    assert stats.dropped_on_unknown == 0
    first_sat = [s for _, s, _ in backend.log].index("sat")
    first_full = [lim for lim, _, _ in backend.log].index(None)
    assert first_sat < first_full
    # _b0 went past the limit once (``stats.slow``): it is never asked with a limit again
    # (later joint queries leave it out, ``_check_slice``; later splits skip its first pass)
    assert stats.slow == {"_b0"}
    assert sum(lim is not None and g == {"_b0"} for lim, _, g in backend.log) == 1
    assert not any(lim is not None and "_b0" in g for lim, _, g in backend.log[first_sat:])


def two_loops(false_in: int) -> str:
    """Two sequential loops counting ``$i`` to 8, each with two candidates; the loop
    ``false_in`` (0 or 1) has a false one (``$i == 0`` at its head)."""
    return counting_loops({false_in}, 2)


def counting_loops(false_in: set, n: int) -> str:
    """``n`` sequential loops counting ``$i`` to 8, loop ``l`` with the candidates
    ``_b{2l}`` (true) and ``_b{2l+1}``, false (``$i == 0`` at its head) if ``l`` is in
    ``false_in``."""
    body = ["  var $i: bv32;", "  $entry:", "    $i := 0bv32;", "    goto $h0;"]
    for l in range(n):
        wrong = f"$i == 0bv32" if l in false_in else "BV32_ULE($i, 9bv32)"
        body += [f"  $h{l}:", f'    assert {{:candidate "r1"}} _b{2 * l} ==> BV32_ULE($i, 8bv32);',
                 f'    assert {{:candidate "r3"}} _b{2 * l + 1} ==> {wrong};', f"    goto $b{l}, $x{l};",
                 f"  $b{l}:", "    assume {:partition} BV32_ULT($i, 8bv32);", "    $i := BV32_ADD($i, 1bv32);",
                 f"    goto $h{l};", f"  $x{l}:", "    assume {:partition} !BV32_ULT($i, 8bv32);",
                 "    $i := 0bv32;", f"    goto {f'$h{l + 1}' if l + 1 < n else '$end'};"]
    body += ["  $end:", "    assert {:vacuity_check} false;", "    return;"]
    return kernel("\n".join(body) + "\n", decls="".join(f"const {{:existential true}} _b{k}: bool;\n"
                                                         for k in range(2 * n)))


def test_slices_settled_after_the_last_drop_are_not_asked_again():
    """Issue 12 (``make bench-scaling`` loop nests: two rounds of one query per loop when the
    solver dropped a candidate of the outermost loop).  A drop in the first loop: its
    settling and the second loop's unsat already prove the fixpoint (3 queries, one
    round; a confirming round asked both loops again: 5).  A drop in the second loop:
    only the first loop, proved before the drop, is asked again (4 queries, not 5)."""
    for false_in, queries, rounds in ((0, 3, 1), (1, 4, 2)):
        prog = parse_program(two_loops(false_in))
        vc = program_vc(prog, independent_candidates=True)
        rec = _Recording(vc)
        stats = HoudiniStats()
        alive = houdini_fixpoint(vc, rec, stats)
        assert alive == {"_b0", "_b1", "_b2", "_b3"} - {f"_b{2 * false_in + 1}"}
        assert (stats.queries, stats.rounds) == (queries, rounds)
        assert verify_program(houdini.apply_invariants(prog, alive)).status == "verified"


def test_verbose_names_each_loop_and_split_candidate():
    """``--verbose`` (``report.progress``): a line per joint slice query naming its loop
    head, and per one-candidate query of a split naming the candidate and its rule, each
    before its query."""
    prog = parse_program(MUTUAL)
    vc = program_vc(prog, independent_candidates=True)
    out = io.StringIO()
    with progress.writing(stream=out):
        houdini_fixpoint(vc, _Stuck(vc, {"_b0"}), HoudiniStats())
    lines = out.getvalue().splitlines()
    assert any(re.search(r"houdini: loop \$head: 4 of its candidates \(4 alive in all\)$", l) for l in lines), lines
    split = [l for l in lines if "houdini: split: candidate" in l]
    assert any(re.search(r"candidate _b0 \(rule r1\), first pass of [0-9.]+ s$", l) for l in split), split
    assert any(l.endswith("candidate _b0 (rule r1)") for l in split), split  # the full-timeout pass


SLOW_RULE = twin_counters({"_b0": "r1: BV32_ULE($x, 100bv32)", "_b1": "r1: BV32_ULE($y, 100bv32)",
                           "_b2": "r1: $x == $y", "_b3": "r3: $x == 0bv32"})


class _Clocked(Wrapper):
    """z3 in-process on a fake clock: a joint query with a limit times out after it; a
    one-candidate query of rule r1 takes 5 s, others 0.1 s.  Logs the guards asked."""

    def __init__(self, vc):
        self.inner, self.vc, self.now, self.log = Z3Backend(vc), vc, 0.0, []
        self.rule = {c.guard: c.rule for c in vc.checks if c.is_candidate}

    def check(self, assumptions, limit=None):
        on = {str(a) for a in assumptions}
        guards = {c.guard for c in self.vc.checks if str(c.enable) in on and c.is_candidate}
        self.log.append(guards)
        if len(guards) > 1 and limit is not None:
            self.now += limit
            return Outcome("timeout", "stub")
        self.now += 5.0 if any(self.rule[g] == "r1" for g in guards) else 0.1
        return self.inner.check(assumptions)


def test_split_asks_the_cheapest_rule_first(monkeypatch):
    """In a split, once a candidate of rule r1 took 5 s, the candidate of a rule not asked
    yet (r3, false) comes before the other r1 ones: the model after 2 one-candidate
    queries, not 4 (name order).  Same fixpoint."""
    prog = parse_program(SLOW_RULE)
    vc = program_vc(prog, independent_candidates=True)
    backend, stats = _Clocked(vc), HoudiniStats()
    monkeypatch.setattr(houdini.time, "monotonic", lambda: backend.now)
    assert houdini_fixpoint(vc, backend, stats) == {"_b0", "_b1", "_b2"}
    first_split = backend.log[1:backend.log.index({"_b3"}) + 1]
    assert first_split == [{"_b0"}, {"_b3"}]
    assert stats.rule_seconds["r1"][0] >= 5.0


def test_a_slice_whose_split_found_no_model_is_split_at_once_next_time():
    """Issue 12 (PolyBench lu kernel1: joint queries of 10-12 s that time out on every
    re-ask, their splits proving every candidate).  Two loops; the second has a false
    candidate, so the first, settled before that drop, is asked again in round 2.  Its
    joint query timed out in round 1 and its split found no model: round 2 splits it at
    once (one joint query over its candidates in all, not two).  The second loop's
    split found a model: its next joint query is asked (its limit doubled).  Same
    fixpoint, every candidate proved by its own query."""
    prog = parse_program(two_loops(1))
    vc = program_vc(prog, independent_candidates=True)
    backend, stats = _Stuck(vc, ()), HoudiniStats()
    assert houdini_fixpoint(vc, backend, stats) == {"_b0", "_b1", "_b2"}
    assert stats.rounds == 2 and stats.dropped_on_unknown == 0
    joint = [g for lim, _, g in backend.log if lim is not None and len(g) > 1]
    assert joint.count({"_b0", "_b1"}) == 1
    assert stats.joint_skips == 1
    # round 2 proved loop 0 again, one candidate at a time
    assert [s for _, s, g in backend.log if g == {"_b0"}] == ["unsat", "unsat"]


class _StuckJoint(_Stuck):
    """``_Stuck``, but only the joint queries over a guard of ``hard`` time out (with a
    ``limit``); the other joint queries are decided."""

    def __init__(self, vc, hard):
        super().__init__(vc, ())
        self.hard = set(hard)

    def check(self, assumptions, limit=None):
        on = {str(a) for a in assumptions}
        guards = {c.guard for c in self.vc.checks if str(c.enable) in on}
        if limit is not None and len(guards) > 1 and guards & self.hard:
            self.log.append((limit, "timeout", guards))
            return Outcome("timeout", "stub")
        out = self.inner.check(assumptions)
        self.log.append((limit, out.status, guards))
        return out


def test_a_split_is_deferred_while_the_round_drops_candidates():
    """Three loops; the joint queries of the middle one time out, the first and the last
    have a false candidate that a decided joint query drops.  The middle loop's split
    (its one-candidate proofs) waits for a round that has dropped nothing yet: a split
    after the first loop's drop would be undone by the last loop's drop (PolyBench lu
    kernel1: the round-1 splits of three loops, all proofs, undone by a fourth loop's
    drops).  Its candidates are proved once each, not twice; same fixpoint."""
    prog = parse_program(counting_loops({0, 2}, 3))
    vc = program_vc(prog, independent_candidates=True)
    backend, stats = _StuckJoint(vc, {"_b2", "_b3"}), HoudiniStats()
    assert houdini_fixpoint(vc, backend, stats) == {"_b0", "_b2", "_b3", "_b4"}
    assert stats.deferred == 1 and stats.dropped_on_unknown == 0
    # asked jointly in both rounds, split in round 2 only (main: split in both)
    assert [g for _, _, g in backend.log].count({"_b2", "_b3"}) == 2
    for g in ("_b2", "_b3"):
        assert [s for _, s, q in backend.log if q == {g}] == ["unsat"]
    assert verify_program(houdini.apply_invariants(prog, {"_b0", "_b2", "_b3", "_b4"})).status == "verified"


class _OneJoint(_Stuck):
    """z3 in-process, except that every joint query with a ``limit`` after the first one
    times out (a slice whose joint queries turn slow)."""

    def __init__(self, vc):
        super().__init__(vc, ())
        self.joint_left = 1

    def check(self, assumptions, limit=None):
        on = {str(a) for a in assumptions}
        guards = {c.guard for c in self.vc.checks if str(c.enable) in on}
        if limit is not None and len(guards) > 1:
            if self.joint_left == 0:
                self.log.append((limit, "timeout", guards))
                return Outcome("timeout", "stub")
            self.joint_left -= 1
        out = self.inner.check(assumptions)
        self.log.append((limit, out.status, guards))
        return out


def test_a_split_of_a_sat_heavy_slice_goes_on_past_a_model():
    """Issue 12 (rodinia IMGVF: a loop's joint queries sat in 2-10 s each, then over the
    limit, its split ended by the first model and the slice sent back to joint queries,
    over and over).  The loop's first joint query is sat, the next one times out: its
    split asks every candidate, past the model that drops ``$x != 3``, and the slice is
    then split at once (its proofs assumed the dropped candidate).  Same fixpoint, no
    candidate dropped undecided, and no joint query after the timeout."""
    prog = parse_program(twin_counters({"_b0": "r1: $x == $y", "_b1": "r1: BV32_ULE($x, 100bv32)",
                                        "_b2": "r3: $x == 0bv32", "_b3": "r3: $x != 3bv32"}, guards=4))
    vc = program_vc(prog, independent_candidates=True)
    backend, stats = _OneJoint(vc), HoudiniStats()
    assert houdini_fixpoint(vc, backend, stats) == {"_b0", "_b1"}
    assert stats.dropped_on_unknown == 0
    log = backend.log
    first_timeout = next(i for i, (lim, s, g) in enumerate(log) if s == "timeout")
    after = log[first_timeout + 1:]
    assert all(len(g) == 1 for _, _, g in after), log  # split at once from then on
    sat_at = next(i for i, (_, s, _) in enumerate(after) if s == "sat")
    assert len(after) > sat_at + 1, log  # the split went on past its model
    assert stats.joint_skips >= 1
    assert verify_program(houdini.apply_invariants(prog, {"_b0", "_b1"})).status == "verified"


def test_a_split_going_on_past_models_drops_on_a_model_of_the_cone():
    """In such a split a sat cone query (``sliced.SliceProver``, yices over the candidate's
    cone) drops the candidate without asking the back end: a model of the cone extends to
    one of the whole query (``slicing.cone_constraints``).  Same fixpoint as without the
    prover; ``$x != 3`` never reaches the back end alone."""
    prog = parse_program(twin_counters({"_b0": "r1: $x == $y", "_b1": "r1: BV32_ULE($x, 100bv32)",
                                        "_b2": "r3: $x == 0bv32", "_b3": "r3: $x != 3bv32"}, guards=4))
    vc = program_vc(prog, independent_candidates=True)
    prover = slice_prover(vc)
    assert prover is not None
    backend, stats = _OneJoint(vc), HoudiniStats()
    assert houdini_fixpoint(vc, backend, stats, prover=prover) == {"_b0", "_b1"}
    assert stats.cone_models >= 1 and stats.dropped_on_unknown == 0
    first_timeout = next(i for i, (_, s, _) in enumerate(backend.log) if s == "timeout")
    assert not [s for _, s, g in backend.log[first_timeout:] if s == "sat"], backend.log


USER_INVARIANT = _counting_loop("""\
    assert {:sourceloc "k.cl", 3, 5} {:user_invariant} {:thread 1} BV32_ULE($x, 100bv32);
    assert {:candidate "r1"} _b0 ==> BV32_ULT($x, 101bv32);
    assert {:candidate "r3"} _b1 ==> $x == 0bv32;
    assert {:candidate "r3"} _b2 ==> BV32_ULE($x, 50bv32);
""", 3)


def test_houdini_vc_does_not_assume_loop_invariants_it_does_not_check():
    """Houdini's VC checks a user loop invariant nowhere and assumes it only at the cut
    point, not after its entry and back-edge asserts (no ``ok_k`` after them); the
    fixpoint is the one of the assert-then-assume VC, and the output verifies."""
    prog = parse_program(USER_INVARIANT)
    alive = {}
    for independent in (True, False):
        vc = program_vc(prog, independent_candidates=independent)
        user = [c for c in vc.checks if c.has("user_invariant")]
        assert len(user) == 2  # loop entry and back edge
        assert all((f"ok_{c.index}" in vc.definitions) != independent for c in user)
        alive[independent] = houdini_fixpoint(vc, Z3Backend(vc), HoudiniStats())
    assert alive[True] == alive[False] == {"_b0"}
    out, _, _ = run_houdini(prog, houdini.HoudiniOptions(refutation="none"))
    assert verify_program(out).status == "verified"


# ------------------------------------------------ one-candidate proofs kept across drops


class _AliveLog(_OneJoint):
    """``_OneJoint`` that also logs, per one-candidate query, the guard, the alive guards
    its assumptions set true and the answer."""

    def __init__(self, vc):
        super().__init__(vc)
        self.single: list = []

    def check(self, assumptions, limit=None):
        out = super().check(assumptions, limit)
        on = {str(a) for a in assumptions}
        guards = {c.guard for c in self.vc.checks if str(c.enable) in on}
        if len(guards) == 1:
            self.single.append((min(guards), frozenset(g for g in self.vc.guards if g in on), out.status))
        return out


def test_a_proof_under_the_current_alive_set_is_not_asked_again():
    """Issue 12 (PolyBench seidel-2d kernel0: a loop's split in round 3 went on past its
    model, proving 21 candidates under the 63 candidates left; round 4 asked all 21 again
    under the same 63, 61 s).  The split after the sat joint query proves ``_b0``, finds
    the model of ``$x != 3`` and proves ``_b1`` under the smaller alive set; asked again,
    the slice re-proves ``_b0`` (its proof assumed the dropped candidate) but not ``_b1``:
    no one-candidate query is asked twice under one alive set.  Same fixpoint."""
    prog = parse_program(twin_counters({"_b0": "r1: $x == $y", "_b1": "r1: BV32_ULE($x, 100bv32)",
                                        "_b2": "r3: $x == 0bv32", "_b3": "r3: $x != 3bv32"}, guards=4))
    vc = program_vc(prog, independent_candidates=True)
    backend, stats = _AliveLog(vc), HoudiniStats()
    assert houdini_fixpoint(vc, backend, stats) == {"_b0", "_b1"}
    unsat = [(g, alive) for g, alive, status in backend.single if status == "unsat"]
    assert len(unsat) == len(set(unsat)), backend.single
    assert stats.kept_proofs >= 1 and stats.dropped_on_unknown == 0
    assert "not asked again" in "\n".join(stats.lines())


class _NthPollRefuter:
    """A refutation engine (``refutation.Refuter``'s interface) that refutes ``guards`` at
    Houdini's ``n``-th poll (the first is before round 1; the next after its first drop)."""

    def __init__(self, guards, n=2):
        self.guards, self.n, self.guide = set(guards), n, None

    def poll(self):
        self.n -= 1
        return {g: "dyn" for g in self.guards} if self.n == 0 else {}

    def share(self, dropped):
        pass


def _cone_queries(vc):
    """The cone prover of ``vc`` and the list of candidate guards of its cone queries."""
    prover, asked = slice_prover(vc), []
    assert prover is not None
    prove = prover.prove

    def counting(checks, assumptions, limit=None, assumed=frozenset()):
        asked.append(vc.checks[checks[0]].guard)
        return prove(checks, assumptions, limit, assumed)
    prover.prove = counting  # type: ignore[method-assign]
    return prover, asked


def test_cone_reads_the_guards_of_the_loops_before_it_not_after():
    """``SliceProver.reads``: the cone of a loop's candidate reads its own loop's guards and
    those of the loops before it (their heads are on every path to it, their candidates
    assumed there), not those of the loops after it."""
    vc = program_vc(parse_program(counting_loops(set(), 3)), independent_candidates=True)
    prover = slice_prover(vc)
    assert prover is not None
    by_guard: dict = {}
    for c in vc.checks:
        if c.guard is not None:
            by_guard.setdefault(c.guard, []).append(c.index)
    assert prover.reads(by_guard["_b0"]) == {"_b0", "_b1"}
    assert prover.reads(by_guard["_b3"]) == {"_b0", "_b1", "_b2", "_b3"}
    assert prover.reads(by_guard["_b4"]) == {f"_b{k}" for k in range(6)}
    prover.close()


def test_a_cone_proof_is_kept_after_drops_its_cone_does_not_read():
    """Three loops whose joint queries time out (``_Stuck``): each is split, its
    candidates proved over their cones; loop 2's false candidate ``_b5`` is dropped, so
    round 2 asks loops 0 and 1 again.  Their cones do not read ``_b5``: their proofs are
    kept, one cone query per candidate (main: two).  The fixpoint is the same as without
    the prover, and no candidate is dropped undecided."""
    prog = parse_program(counting_loops({2}, 3))
    vc = program_vc(prog, independent_candidates=True)
    prover, asked = _cone_queries(vc)
    stats = HoudiniStats()
    expected = {"_b0", "_b1", "_b2", "_b3", "_b4"}
    try:
        alive = houdini_fixpoint(vc, _Stuck(vc, ()), stats, prover=prover)
    finally:
        prover.close()
    assert alive == expected and stats.dropped_on_unknown == 0
    assert len(asked) == len(set(asked)), asked
    assert stats.kept_proofs >= 4, stats.kept_proofs
    assert houdini_fixpoint(vc, _Stuck(vc, ()), HoudiniStats()) == expected


# ``$y <= 100`` is inductive only with ``$x == $y`` (the loop tests ``$x``)
NEEDS_B0 = twin_counters({"_b0": "r1: $x == $y", "_b1": "r2: BV32_ULE($y, 100bv32)",
                          "_b2": "r2: BV32_ULE($x, 100bv32)", "_b3": "r3: $x != 3bv32"})


def test_a_cone_proof_names_the_candidates_it_needed():
    """The cone query of ``_b1`` (``$y <= 100``) with the alive guards as assumptions:
    unsat, and its core (``Outcome.core``, a subset of the alive guards) names ``_b0``
    (``$x == $y``), which it needs; asserted as facts (no ``assumed``), no core."""
    vc = program_vc(parse_program(NEEDS_B0), independent_candidates=True)
    prover = slice_prover(vc)
    assert prover is not None
    checks = sorted(c.index for c in vc.checks if c.guard == "_b1")
    alive = {"_b0", "_b1", "_b2", "_b3"}
    try:
        out = prover.prove(checks, vc.assumptions(set(checks), alive), None, frozenset(alive))
        assert out.status == "unsat" and out.core is not None
        assert "_b0" in out.core and out.core <= alive
        plain = prover.prove(checks, vc.assumptions(set(checks), alive))
        assert plain.status == "unsat" and plain.core is None
        # without _b0 the query has a model
        assert prover.prove(checks, vc.assumptions(set(checks), alive - {"_b0"}), None,
                            frozenset(alive - {"_b0"})).status == "sat"
    finally:
        prover.close()


def test_a_proof_whose_core_has_a_dropped_candidate_is_asked_again():
    """One loop, joint queries timing out: the split proves ``_b0``, ``_b1``, ``_b2`` over
    their cones and drops ``_b3`` on a model.  Asked again, the slice is proved by the
    kept proofs (``_b3`` is in no core; main: three cone queries again).  When a
    refutation engine drops ``_b0`` right after ``_b3``, the proof of ``_b1``, whose
    core holds ``_b0``, is not kept: ``_b1`` is asked again, and dropped on a model (it is
    not inductive without ``_b0``).  Each time the fixpoint without the prover's."""
    prog = parse_program(NEEDS_B0)
    for refuted, expected, twice in (((), {"_b0", "_b1", "_b2"}, set()), (("_b0",), {"_b2"}, {"_b1"})):
        vc = program_vc(prog, independent_candidates=True)
        prover, asked = _cone_queries(vc)
        stats = HoudiniStats()
        try:
            alive = houdini_fixpoint(vc, _Stuck(vc, ()), stats, _NthPollRefuter(refuted), prover)
        finally:
            prover.close()
        assert alive == expected and stats.dropped_on_unknown == 0
        assert {g for g in asked if asked.count(g) > 1} == twice, asked
        assert houdini_fixpoint(vc, _Stuck(vc, ()), HoudiniStats(), _NthPollRefuter(refuted)) == expected


def test_a_slice_whose_split_ended_at_a_model_goes_through_on_its_next_timeout():
    """Issue 12 (CUDA particles collideD, loop $for.cond.i: joint queries over the limit,
    each split ended at a model in 0.3 s, and the joint query after it timed out again,
    six times).  A split's model is a model of the joint query, so the slice counts as
    sat jointly: the next timeout of its joint query makes its split go on past models
    (``split_through``), instead of one timed-out joint query per false candidate.  Same
    fixpoint, no candidate dropped undecided."""
    prog = parse_program(twin_counters({"_b0": "r1: $x == $y", "_b1": "r1: BV32_ULE($x, 100bv32)",
                                        "_b2": "r3: $x != 1bv32", "_b3": "r3: $x != 2bv32",
                                        "_b4": "r3: $x != 3bv32", "_b5": "r3: $x != 4bv32"}, guards=6))
    vc = program_vc(prog, independent_candidates=True)
    backend, stats = _Stuck(vc, ()), HoudiniStats()
    assert houdini_fixpoint(vc, backend, stats) == {"_b0", "_b1"}
    assert stats.dropped_on_unknown == 0
    joint = [g for lim, _, g in backend.log if len(g) > 1]
    assert len(joint) == 2, backend.log  # main: one per model of a split (5 here)
    assert stats.split_through
    assert verify_program(houdini.apply_invariants(prog, {"_b0", "_b1"})).status == "verified"
