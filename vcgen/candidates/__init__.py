"""Candidate invariants at two-thread loop heads (paper 003 appendix A; paper 000 section 5.3).

Every candidate is an ``assert {:candidate "rN"} _bK ==> e;`` guarded by an existential
constant ``_bK``; nothing here is trusted: Houdini (``vcgen.inference.houdini``) keeps only those it
proves inductive, so a wrong candidate costs time, never soundness.  Each rule family of
paper 003 appendix A has its own module (numbers and names as in the appendix):

==========  ==========================================  =====================
rule        name (paper 003 appendix A)                 module
==========  ==========================================  =====================
r0          accessBreak (A.1)                           ``access_breaking``
r1, r10     accessedOffsetsSatisfyPredicates,           ``strided``
            loopCounterIsStrided (A.2, A.10)
r2, r3      accessLowerBoundBlock,                      ``contiguous``
            accessUpperBoundBlock (A.3)
r4, r5, r6  accessOnlyIfEnabledInEnclosingScopes,       ``enabledness``
            conditionsImpliesEnabledness,
            disabledMaintainsInstrumentation (A.4-A.6)
r7          guardMinusInitialsUniform (A.7)             ``uniform_guard``
r8, r9      guardNonNeg, loopBound (A.8, A.9)           ``loop_bound``
r11, r16    loopPredicateEquality,                      ``predicate_equality``
            predicatedEquality (A.11, A.14)
r12, r13    noread, nowrite (A.12)                      ``no_access``
r14, r15    pow2, pow2NotZero (A.13)                    ``pow2``
r17         relationalPow2 (A.15)                       ``relational_pow2``
r18         sameWarpNoaccess (A.16)                     ``same_warp``
id          access at thread id plus offset             ``access_id``
            (paper 000 section 5.3)
src         logged source precedes the head             ``source``
log         unfilled logs only shrink                   ``log_ghost``
first       pre-loop accesses only logged in the        ``first_iteration``
            first iteration of a barrier loop
fd          finite domains of pointer bases/offsets     ``finite_domain``
            (extension; paper 000 section 5.1)
res         residues modulo a symbolic stride (or a     ``symbolic_stride``
            constant not a power of two), over an
            uninterpreted RESIDUEw (A.2/A.10 form)
val         logged write values of benign races         ``write_value``
            (paper 000 section 5)
copies      equality copies equal at barrier loop       ``equal_copies``
            heads (paper 000 section 5.2)
range       one thread's loop covers a contiguous       ``contiguous``
            range (the form of A.3, per thread)
moved       a loop's log holds an access only once a    ``counter_moved``
            counter left its initial value (extension)
==========  ==========================================  =====================

r18 is generated under ``--warp-sync`` (warp-mates' logs are cleared after each
instruction) and in loops calling ``__syncwarp``.
"""
from __future__ import annotations

from .. import il
from ..analysis.loops import Loop
from ..twothread.parts import Parts
from . import (access_breaking, access_id, contiguous, counter_moved, enabledness, equal_copies, finite_domain, first_iteration, log_ghost, loop_bound,
               no_access, pow2, predicate_equality, relational_pow2, same_warp, source, strided, symbolic_stride, uniform_guard,
               write_value)
from .bvexpr import SMT, op_of
from .context import Candidate, KernelFacts, LogRule, LoopContext, LoopFacts, LoopRule

__all__ = ["CandidateFactory", "LoopFacts", "ALL_RULES"]

# Loop-level generators, in candidate order.
LOOP_RULES: tuple[LoopRule, ...] = (predicate_equality.variable_equality, uniform_guard.candidates, loop_bound.guard_bounds,
              strided.counters, symbolic_stride.counters, loop_bound.initial_bounds, loop_bound.shrinking_bounds,
              pow2.candidates, relational_pow2.candidates,
              log_ghost.candidates, enabledness.loop_candidates, finite_domain.candidates,
              first_iteration.loop_candidates, equal_copies.candidates)
# Generators per log (array, kind) the loop fills, in candidate order.
LOG_RULES: tuple[LogRule, ...] = (source.log_candidates, no_access.log_candidates, same_warp.log_candidates, strided.accesses,
             symbolic_stride.accesses,
             access_id.log_candidates,
             access_breaking.log_candidates, contiguous.log_candidates, enabledness.log_candidates,
             first_iteration.log_candidates, write_value.log_candidates, counter_moved.log_candidates)
ALL_RULES = tuple(r for m in (access_breaking, strided, contiguous, enabledness, uniform_guard, loop_bound,
                              predicate_equality, no_access, pow2, relational_pow2, access_id, source,
                              log_ghost, same_warp, finite_domain, first_iteration, write_value, equal_copies,
                              counter_moved, symbolic_stride)
                  for r in m.RULES)


class CandidateFactory:
    """Generates candidates for the loops of one lock-step transformation."""

    def __init__(self, parts: Parts):
        self.parts = parts
        self.count = 0
        self.rules: list[str] = []
        self.kf = KernelFacts(parts)

    def declarations(self) -> list[il.ConstDecl]:
        """``const {:existential true} _bK: bool`` for every candidate made."""
        return [il.ConstDecl(f"_b{i + 1}", il.BOOL, attrs=(il.Attr("existential", (il.TRUE,)),))
                for i in range(self.count)]

    def log_ghosts(self, lp: Loop) -> list[tuple[str, il.Type, il.Expr]]:
        """(ghost name, type, expression) triples the lock-step assigns before entering ``lp``."""
        ctx = self.kf.loop_context(lp)
        return log_ghost.ghosts(ctx) + enabledness.ghosts(ctx)

    def first_iteration_ghost(self, lp: Loop) -> str | None:
        """Name of the ``bool`` ghost the lock-step sets to ``true`` on entering ``lp`` and
        to ``false`` at the end of each iteration, when rule ``first`` needs it."""
        return first_iteration.ghost(self.kf.loop_context(lp))

    def at_loop_head(self, f: LoopFacts) -> list[il.Assert]:
        """The candidate asserts for the head of loop ``f.loop``."""
        ctx = LoopContext(self.kf, f)
        out: list[Candidate] = []
        for rule in LOOP_RULES:
            out += rule(ctx)
        for name, a, kind in ctx.logs():
            for log_rule in LOG_RULES:
                out += log_rule(ctx, name, a, kind)
        out += predicate_equality.loop_predicate(ctx)
        out = [c for c in out if not symbolic_stride.superseded(ctx, c[1])]
        return self._dedupe(out)

    def head_facts(self, f: LoopFacts) -> list[il.Assume]:
        """Assumptions for the head of loop ``f.loop``, after its candidates: facts true of
        every execution that the candidates' proofs need (``symbolic_stride.head_facts``)."""
        return symbolic_stride.head_facts(LoopContext(self.kf, f))

    def user_candidate(self, e: il.Expr, attrs: il.Attrs, f: LoopFacts) -> il.Assert:
        """A user's candidate invariant (``__candidate_invariant``, or any invariant under
        ``--invariants-as-candidates``) at the head of loop ``f.loop`` as a Houdini
        candidate of rule ``user``; ``attrs`` (its source location) are kept, minus those
        marking a checked invariant.  Under symbolic sizes a remainder modulo a product of
        two symbolic sizes is stated over the residue (``symbolic_stride.residue_form``)."""
        if self.parts.options.launch.symbolic:
            e = symbolic_stride.residue_form(LoopContext(self.kf, f), e)
        cand = self._make("user", e)
        keep = tuple(a for a in attrs if a.name not in ("user_invariant", "candidate_invariant"))
        return il.Assert(cand.expr, cand.attrs + keep)

    def _make(self, rule: str, e: il.Expr) -> il.Assert:
        for x in il.subexprs(e):  # operations built by bvexpr.fold must be declared
            op = op_of(x)
            if op and op[1] in SMT:
                self.parts.builder.bvfun(op[1], op[0])
        self.count += 1
        self.rules.append(rule)
        return il.Assert(il.implies(il.Var(f"_b{self.count}"), e), (il.Attr("candidate", (rule,)),))

    def _dedupe(self, cands: list) -> list:
        """Candidate asserts for (rule, expression) pairs, each expression once."""
        seen, out = set(), []
        for rule, e in cands:
            if e not in seen:
                seen.add(e)
                out.append(self._make(rule, e))
        return out
