"""The ``vcgen verify`` stage: final verification of a two-thread program.

``verify_program`` cuts loops with their invariants (running Houdini first on the same
solver instance if candidates remain), checks every real assertion, and turns each
failure into an ``ErrorRecord`` read from the model: kind, source locations, both threads'
ids, the racing element and the kernel's scalar arguments (``counterexample``).  After a proof it checks
vacuity (can the end of the kernel be reached?).  ``--findbugs`` unwinds loops instead
(docs/design.md section 6) and never claims a proof.

Verdicts (``VerificationResult.status``) and exit codes (docs/design.md section 7):
``verified`` 0, ``no_bugs_found`` 0 (findbugs), ``errors`` 6, ``vacuous`` 6, ``unknown`` 6,
``timeout`` 7.  Nothing but all-``unsat`` answers yields ``verified``.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import AbstractSet, NamedTuple

from .. import il
from ..il.errors import ExitCode, ToolError
from ..inference import houdini
from ..report import progress
from ..report.results import ErrorRecord, Launch, VerificationResult
from ..vc import encode as vcmod
from ..vc.passify import PassiveProgram
from ..vc.query import cut_passive, kernel_of, program_vc
from ..vc.slicing import loop_check_groups, offsets_first
from ..vc.solvers.backend import QUANTIFIED_CANDIDATE, Backend, Outcome, Wrapper, query_limit
from ..vc.solvers.select import make_backend
from ..vc.solvers.sliced import SliceProver, slice_prover
from ..vc.solvers.split import SplitLimit, check_split
from .counterexample import ModelReader, error_key, error_record
from .small_launch import LaunchShrinker

DEFAULT_UNWIND = 2

# Seconds each query of the search for further errors may take once one error is found:
# the verdict is settled then, and proving the remaining checks one by one could take the
# full timeout each (corpus struct_aos_bug_neighbour with symbolic sizes: the race in
# 0.2 s, then a single check undecided after 300 s).  Joint queries already split after
# ``split.SPLIT_AFTER`` seconds once a model was found.
FURTHER_ERRORS_LIMIT = 10.0


@dataclass(frozen=True)
class VerifyOptions:
    """Options of the ``vcgen verify`` stage.  ``timeout``: seconds per solver query (None =
    none); ``solver``: a ``--solver`` value (None = z3 in-process); ``findbugs``: unwind
    loops ``loop_unwind`` times (default 2) instead of cutting them; ``source``: the kernel
    source file (``Verified: FILE`` and source lines); ``json``: the report as JSON;
    ``max_errors``: distinct errors reported at most; ``search_dirs``: extra directories
    to find source files in; ``math_int``: bit-vectors as mathematical integers
    (``vcgen.vc.encode.MathIntOps``; unsound for overflow, the report must print
    ``MATH_INT_WARNING``); ``k_induction_depth``: prove loops by k-induction of that depth
    (``loopcut.k_induction``) in the final check, Houdini still using cut loops."""
    timeout: float | None = None
    solver: str | None = None
    findbugs: bool = False
    loop_unwind: int | None = None
    source: str | None = None
    json: bool = False
    max_errors: int = 20
    search_dirs: tuple[str, ...] = ()
    math_int: bool = False
    k_induction_depth: int | None = None


class CappedBackend(Wrapper):
    """``inner`` with every query bounded by ``seconds`` (a query it stops answers
    ``timeout``, as one stopped by the back end's own timeout)."""

    def __init__(self, inner: Backend, seconds: float) -> None:
        self.inner, self.seconds = inner, seconds
        self.name = getattr(inner, "name", type(inner).__name__)  # test doubles may have none
        self.queries = 0

    def check(self, assumptions: list, limit: float | None = None) -> Outcome:
        self.queries += 1
        return self.inner.check(assumptions, query_limit(self.seconds, limit))


class FoundErrors(NamedTuple):
    """``find_errors``'s answer: the errors, the last solver outcome (None if no query
    ran) and the id dimensions to print (1 or 3)."""
    errors: list[ErrorRecord]
    outcome: Outcome | None
    dims: int


def _claims(program: il.Program, language: str) -> list[str]:
    k = program.kernel()
    groups = "thread blocks" if language == "cuda" else "work groups"
    out = []
    if not il.has_attr(k.attrs, "only_divergence"):
        out.append(f"no data races within {groups}")
        if not il.has_attr(k.attrs, "only_intra_group"):
            out.append(f"no data races between {groups}")
    out += ["no barrier divergence", "no assertion failures"]
    if il.has_attr(k.attrs, "check_array_bounds"):
        out.append("no out-of-bounds accesses to arrays of known size")
    return out


def _symbolic_launch(kernel: il.ProcedureDecl) -> Launch | None:
    """The sizes of a launch with symbolic sizes (``{:symbolic_launch}``, None for ``*``);
    None for a concrete launch."""
    a = il.attr(kernel.attrs, "symbolic_launch")
    if a is None or len(a.args) != 6:
        return None
    sizes = tuple(None if str(x) == "*" else int(str(x)) for x in a.args)
    limit = il.attr(kernel.attrs, "max_work_items")
    items = limit.args[0].value if limit is not None and limit.args and isinstance(limit.args[0], il.IntLit) else None
    return Launch(sizes[:3], sizes[3:], items)


def _language(kernel: il.ProcedureDecl) -> str:
    a = il.attr(kernel.attrs, "language")
    return str(a.args[0]) if a is not None and a.args else "opencl"


def _display_file(kernel: il.ProcedureDecl, options: VerifyOptions, filename: str) -> str:
    if options.source:
        return options.source
    a = il.attr(kernel.attrs, "source_file")
    return str(a.args[0]) if a is not None and a.args else filename


def find_errors(program: il.Program, vc: vcmod.VC, backend: Backend, alive: set[str] | None,
                max_errors: int, limit: SplitLimit | None = None,
                prover: SliceProver | None = None) -> FoundErrors:
    """``(errors, last outcome, dims)``: distinct failing real assertions (at most
    ``max_errors``), each read from its own model; a failing check is then switched off
    and the query repeated.  A query the solver does not decide soon is split
    (``split.check_split``; ``limit``: the kernel's ``split.SplitLimit``, None = a fresh
    one), each part asked first over its cone of influence by ``prover`` when given
    (``cone_prover``).  Once an error is found, each query gets
    at most ``FURTHER_ERRORS_LIMIT`` seconds: one undecided ends the search (outcome
    ``timeout``), the errors found stand."""
    reader = ModelReader(program, vc, backend)
    further = CappedBackend(backend, FURTHER_ERRORS_LIMIT)
    real = [c for c in vc.checks if not c.is_candidate and not c.is_vacuity]
    enabled = {c.index for c in real}
    errors: list[ErrorRecord] = []
    seen: set[tuple] = set()
    dims = 1
    out = None
    limit = limit if limit is not None else SplitLimit()
    shrinker = LaunchShrinker(vc, program.kernel(), alive, getattr(backend, "timeout", None)) \
        if vc.symbolic_launch else None
    while enabled and len(errors) < max_errors:
        out = check_split(further if errors else backend, lambda part: vc.assumptions(set(part), alive),
                          sorted(enabled), limit, prover=prover)
        if out.status != "sat":
            break
        on = [c for c in real if c.index in enabled]
        failing = [c for c, v in zip(on, backend.values([c.fail for c in on])) if v is True]
        if not failing and out.reason == QUANTIFIED_CANDIDATE:
            out = Outcome("unknown", "incomplete quantifiers")
            break
        if not failing:
            raise ToolError("internal error: a model fails no assertion", ExitCode.GPUVERIFYVCGEN_ERROR)
        dims = max(dims, reader.dims())
        current = shrinker.values(backend) if shrinker is not None else []
        for c in failing:
            key = error_key(c)
            enabled -= {d.index for d in real if error_key(d) == key}
            if key not in seen and len(errors) < max_errors:
                seen.add(key)
                rec, rec_dims = _record(program, vc, c, reader, shrinker, current)
                errors.append(rec)
                dims = max(dims, rec_dims)
    return FoundErrors(errors, out, dims)


def _record(program: il.Program, vc: vcmod.VC, check: vcmod.Check, reader: ModelReader,
            shrinker: LaunchShrinker | None, current: list[int]) -> tuple[ErrorRecord, int]:
    """The error record of ``check`` and the id dimensions of its model (1 or 3), read
    from a model with small symbolic sizes when ``shrinker`` finds one (``small_launch``),
    else from ``reader``'s."""
    small = shrinker.smaller(check, current) if shrinker is not None else None
    if small is None:
        return error_record(check, reader), reader.dims()
    try:
        smaller = ModelReader(program, vc, small)
        return error_record(check, smaller), smaller.dims()
    finally:
        small.close()


def verify_program(program: il.Program, options: VerifyOptions | None = None,
                   filename: str = "<input>",
                   proved: houdini.ProvedInvariants | None = None) -> VerificationResult:
    """Verify (or, with ``findbugs``, bug-hunt) a two-thread program.

    ``proved``: the record of the invariants the Houdini run that made ``program`` proved
    in this process (``houdini.HoudiniResult.proved``; ``gpuverify`` alone gives it).  The
    final check then first tries the proof with their checks switched off (assumed where
    they stand, not checked: ``_prove_offsets_first``); if that proof does not go
    through, the program is verified again without the record, so errors, models and
    reports are those of ``vcgen verify`` on the same program (tests/test_chaining.py).
    Ignored with ``findbugs`` and ``k_induction_depth`` (they re-prove everything).

    Why the record may be trusted (paper 000 section 5.3: Houdini keeps the largest
    inductive subset of the candidates; Flanagan and Leino 2001): Houdini's fixpoint query
    (``houdini.houdini_fixpoint``, every kept candidate's entry and back-edge checks unsat
    under one alive set) runs on the same cut program, and assumes at most what holds at
    each check on a path where every earlier assertion holds: the kept candidates at the
    loop heads (the cut's ``assume``), the user's invariants there, and the ordinary
    assertions before it (race checks and other invariants not even that,
    ``encode.build_vc``'s ``independent_candidates``).  Take a path of the cut program
    that fails some assertion, and its first failing one.  A recorded invariant: every
    earlier assertion holds, so the path is a model of Houdini's query for it, which was
    unsat.  Any other assertion: the path is a model of this query, which assumes the
    recorded invariants where they stand, and which was unsat.  So no path fails, as if
    every assertion had been checked.  The record names asserts by identity
    (``ProvedInvariants``): a user's ``{:inferred}`` assert read from a file is checked.

    Raises ToolError(GPUVERIFYVCGEN_ERROR) for malformed programs (no kernel, calls,
    irreducible loops, ill-typed expressions) and ToolError(CONFIGURATION_ERROR) for an
    unusable ``--solver``.
    """
    options = options or VerifyOptions()
    start = time.monotonic()
    # the kernel with its loops cut, passive: what every attempt below encodes (findbugs
    # unwinds loops instead); cut and passified once (sync-loop 50: 1.1 s each time)
    passive = None if options.findbugs else cut_passive(program)
    if passive is not None and proved and options.k_induction_depth is None:
        result = _new_result(program, options, filename)
        # its own split limit: the chained run below must start as ``vcgen verify`` does
        if _prove_offsets_first(program, passive, options, result, SplitLimit(), proved):
            result.claims = _claims(program, result.language)
            result.seconds = time.monotonic() - start
            return result
        progress.note("final check: no proof with Houdini's invariants assumed; verifying again "
                      "with every invariant checked")
    return _verify(program, passive, options, filename, start)


def _new_result(program: il.Program, options: VerifyOptions, filename: str) -> VerificationResult:
    """The result before any query: verdict ``unknown``, the file, language and launch."""
    kernel = kernel_of(program)
    return VerificationResult("unknown", _display_file(kernel, options, filename), _language(kernel),
                              findbugs=options.findbugs, timeout=options.timeout,
                              search_dirs=options.search_dirs, launch=_symbolic_launch(kernel),
                              launch_unspecified=il.has_attr(kernel.attrs, "unspecified_launch"))


def _verify(program: il.Program, passive: PassiveProgram | None, options: VerifyOptions, filename: str,
            start: float) -> VerificationResult:
    """``verify_program`` without a record: every real assertion checked; ``passive``: the
    cut passive kernel (``query.cut_passive``), None with findbugs."""
    result = _new_result(program, options, filename)
    lang = result.language
    limit = SplitLimit()  # shared by both attempts: a model of the first is a hint for the second
    if options.findbugs:
        result.unwind = DEFAULT_UNWIND if options.loop_unwind is None else options.loop_unwind
    elif passive is not None and options.k_induction_depth is None and \
            _prove_offsets_first(program, passive, options, result, limit):
        result.claims = _claims(program, lang)
        result.seconds = time.monotonic() - start
        return result
    vc = program_vc(program, result.unwind, options.math_int) if passive is None else \
        vcmod.build_vc(program, passive, math_int=options.math_int)
    backend = make_backend(vc, options.solver, options.timeout)
    prover = cone_prover(vc, options)  # Houdini's and the final check's: the VC printed once
    try:
        alive, stats = _houdini(vc, backend, prover)
        if stats is not None:
            result.houdini = stats
        if options.k_induction_depth is not None and not options.findbugs:
            # candidates Houdini kept are invariants; the final check proves by k-induction
            backend.close()
            if prover is not None:
                prover.close()
            vc = program_vc(program, None, options.math_int, options.k_induction_depth)
            backend = make_backend(vc, options.solver, options.timeout)
            prover = cone_prover(vc, options)
        errors, out, dims = find_errors(program, vc, backend, alive, options.max_errors, limit, prover)
        result.errors, result.dims = errors, dims
        if errors:
            result.status = "errors"
            if out is not None and out.status in ("unknown", "timeout"):
                result.reason = f"the search for further errors stopped: solver {out.status}"
        elif out is not None and out.status != "unsat":
            result.status, result.reason = out.status, out.reason
        elif options.findbugs:
            result.status = "no_bugs_found"
        else:
            _vacuity(vc, backend, alive, result)
    finally:
        backend.close()
        if prover is not None:
            prover.close()
    if result.status == "verified":
        result.claims = _claims(program, lang)
    result.seconds = time.monotonic() - start
    return result


def _houdini(vc: vcmod.VC, backend: Backend, prover: SliceProver | None = None
             ) -> tuple[set[str] | None, houdini.HoudiniStats | None]:
    """``(alive guards, statistics)`` of Houdini over the candidates of ``vc`` (splits'
    one-candidate queries offered to ``prover`` first); ``(None, None)`` when it has none."""
    if not any(c.is_candidate for c in vc.checks):
        return None, None
    stats = houdini.HoudiniStats()
    alive = houdini.houdini_fixpoint(vc, backend, stats, prover=prover)
    houdini.fill_stats(stats, houdini.candidate_rules(vc), alive)
    return alive, stats


def _prove_offsets_first(program: il.Program, passive: PassiveProgram, options: VerifyOptions,
                         result: VerificationResult, limit: SplitLimit,
                         proved: houdini.ProvedInvariants | None = None) -> bool:
    """Try the proof with benign write-write checks strengthened to offsets only and the
    dead value computations sliced away (``vcgen.vc.slicing``): Houdini, every real
    assertion (one query per loop, ``slicing.loop_check_groups``), then end reachability,
    on that smaller VC.  Kernels with no benign check but several loops take this path
    too, unstrengthened, for the per-loop queries.  True (``result`` verified, with its
    Houdini statistics) only if all of it succeeds; otherwise the caller verifies the
    original program from scratch (errors, reports and vacuity come from it), with
    ``limit`` (``split.SplitLimit``) as these queries left it.

    ``proved`` (``verify_program``): the checks of the invariants it records are assumed,
    not checked; every kernel then takes this path (its only proof attempt before the
    chained one), one query per loop when it has several.  ``passive``: the kernel of
    ``program`` cut and passified (``query.cut_passive``; read, never changed)."""
    strong = offsets_first(passive)
    groups = loop_check_groups(strong if strong is not None else passive)
    whole = strong is None and len(groups) < 2  # one group: every check of the kernel
    if proved is None and strong is None and (len(groups) < 2 or houdini.has_candidates(program)):
        return False
    vc = vcmod.build_vc(program, strong if strong is not None else passive, math_int=options.math_int)
    assumed = _recorded_checks(vc, proved)
    if proved is not None:
        progress.note("final check: %d checks of %d invariants Houdini proved in this run assumed, "
                      "not checked again", len(assumed), len(proved))
    backend = make_backend(vc, options.solver, options.timeout)
    prover = cone_prover(vc, options)
    try:
        alive, stats = _houdini(vc, backend, prover)
        if not _all_unsat(vc, backend, groups, alive, limit, prover, assumed, cases=not whole):
            return False
        trial = VerificationResult("unknown", result.file, result.language)
        _vacuity(vc, backend, alive, trial)
        if trial.status != "verified":
            return False
    finally:
        backend.close()
        if prover is not None:
            prover.close()
    result.status = "verified"
    if stats is not None:
        result.houdini = stats
    return True


def cone_prover(vc: vcmod.VC, options: VerifyOptions) -> SliceProver | None:
    """The prover of split parts over their cones (``sliced.slice_prover``: a yices
    process) under ``--solver=auto`` only: a solver the user chose (``z3``, a command line)
    is the only one asked."""
    return slice_prover(vc, options.timeout) if options.solver == "auto" else None


def _recorded_checks(vc: vcmod.VC, proved: houdini.ProvedInvariants | None) -> set[int]:
    """Indices of the checks of ``vc`` that are copies of an invariant ``proved`` records
    (its entry and back-edge checks, ``loopcut.cut_loops``); empty without a record."""
    if not proved:
        return set()
    return {c.index for c in vc.checks
            if c.site is not None and not c.is_candidate and proved.marks_any(c.site.attrs)}


def _all_unsat(vc: vcmod.VC, backend: Backend, groups: list[set[int]], alive: set[str] | None,
               limit: SplitLimit, prover: SliceProver | None = None, assumed: AbstractSet[int] = frozenset(),
               cases: bool = True) -> bool:
    """Whether the real assertions of ``vc`` hold: one query per group of assertions
    (``PassiveAssert.index``), split when undecided (``split.check_split``; the groups
    share ``limit``: a slow group lets the next wait longer; the parts asked first over
    their cones by ``prover`` when given), every one unsat.  A group holding a check with
    cases (``encode.VC.cases``) has its joint query cut at ``limit.first`` (``check_split``'s
    ``cased``), then its cases asked; only here, where a group is one loop's checks: the
    query of ``find_errors`` holds every check of the kernel, and splitting it at once
    for one cased check would ask every other check alone (``cases`` false: a group that
    holds every check).  ``assumed``: checks (VC indices) left out of every query, assumed
    where they stand."""
    real = {c.site.index: c.index for c in vc.checks
            if not c.is_candidate and not c.is_vacuity and c.site is not None and c.index not in assumed}
    for group in groups:
        enabled = sorted(real[a] for a in group if a in real)
        cased = cases and any(k in vc.cases for k in enabled)
        if enabled and check_split(backend, lambda part: vc.assumptions(set(part), alive),
                                   enabled, limit, prover=prover, cased=cased).status != "unsat":
            return False
    return True


def _vacuity(vc: vcmod.VC, backend: Backend, alive: set[str] | None, result: VerificationResult) -> None:
    """Is the end of the kernel reachable under preconditions and launch constraints?"""
    if "Q" in vc.translator.features:
        # quantified axioms (--boogie-file): E-matching may refute them but can never show
        # them consistent, and may loop trying; the user's axioms are trusted, as in
        # GPUVerify (which has no vacuity check)
        result.status = "verified"
        return
    vac = {c.index for c in vc.checks if c.is_vacuity}
    out = backend.check(vc.assumptions(vac, alive))
    if out.status == "sat":
        result.status = "verified"
    elif out.status == "unsat":
        result.status = "vacuous"
    else:
        result.status = out.status
        result.reason = f"vacuity check: {out.reason or out.status}"
