"""Global-id abstraction: the launch lemmas' view of an offset, for the case refuter.

With symbolic launch sizes a thread's global id is the product-sum ``group_id$t *
group_size + local_id$t`` (``vcgen.twothread.launch.global_id``), and the launch lemmas
(``launch.global_id_lemmas``) state what the solver needs about it: it is below a number
(the dimension's room) and the two threads' ids differ when their coordinates do.  z3's
rewriter, which every term passes through (``Z3_simplify``, and the solver's own
preprocessing), distributes a literal factor over a sum and flattens products: the offset
``5 * gid + 2`` of a word in an array of 20-byte structs becomes ``5 * local_id + 5 *
group_id * group_size + 2``, in which the lemmas' term no longer occurs.  An offset
comparison of two threads is then a bit-level question about two multipliers, which the
refuter's 50 ms do not settle and which took the final check over 300 s (corpus
``struct_aos.cl`` with ``--local_size=* --num_groups=*``).

The abstraction replaces each global-id term of the axioms by a fresh constant, in the
axioms and in the atom to refute, before the rewriter sees them: ``5 * G1 == 5 * G2 + 4``
with ``G1, G2 < 214748364`` is linear and refuted at once.  Sound for refutation: any
model of the axioms and an atom gives a model of their abstractions (each constant takes
the value of the term it replaces), so an abstracted atom unsatisfiable with the
abstracted axioms is unsatisfiable with the axioms.  The two-thread reduction the lemmas
serve is paper 000, section 4; the rest is arithmetic.
"""
from __future__ import annotations

import re

import z3

_ID = re.compile(r"^(group_id|local_id)_([xyz])\$([12])$")
_SIZE = re.compile(r"^group_size_([xyz])$")


def _name(e: z3.ExprRef) -> str | None:
    """The name of an uninterpreted constant, else None."""
    if z3.is_const(e) and e.decl().kind() == z3.Z3_OP_UNINTERPRETED:
        return e.decl().name()
    return None


def _product_key(e: z3.ExprRef) -> tuple[str, str] | None:
    """``(dim, thread)`` when ``e`` is ``group_id_<dim>$<thread> * group_size_<dim>`` (either
    order), else None."""
    if not (z3.is_app_of(e, z3.Z3_OP_BMUL) and e.num_args() == 2):
        return None
    names = sorted(n for n in (_name(e.arg(0)), _name(e.arg(1))) if n is not None)
    if len(names) != 2:
        return None
    m, s = _ID.match(names[0]), _SIZE.match(names[1])
    if m is None or s is None or m.group(1) != "group_id" or m.group(2) != s.group(1):
        return None
    return m.group(2), m.group(3)


def is_global_id(e: z3.ExprRef) -> bool:
    """Whether ``e`` is a sum with the arguments ``group_id_d$t * group_size_d`` and
    ``local_id_d$t`` (and possibly others: a global offset) for one dimension ``d`` and
    thread ``t``."""
    if not z3.is_app_of(e, z3.Z3_OP_BADD):
        return False
    keys = {_product_key(a) for a in e.children()} - {None}
    locals_ = {(m.group(2), m.group(3)) for a in e.children()
               if (n := _name(a)) is not None and (m := _ID.match(n)) is not None and m.group(1) == "local_id"}
    return bool(keys & locals_)


def global_id_terms(terms: list[z3.ExprRef]) -> list[z3.ExprRef]:
    """The distinct global-id subterms (``is_global_id``) of ``terms``, outermost first
    where they nest, each shared subterm visited once."""
    out, seen, todo = [], set(), list(terms)
    while todo:
        t = todo.pop()
        if t.get_id() in seen:
            continue
        seen.add(t.get_id())
        if is_global_id(t):
            out.append(t)
            continue
        todo.extend(t.children())
    return out


class GlobalIdAbstraction:
    """Fresh constants for the global-id terms of ``axioms`` (z3 Booleans of ``ctx``).
    Terms equal after z3's rewriting (``gid + 0`` and ``gid``) share one constant, so a
    lemma about one form applies to the other.  ``pairs``: (term, constant);
    ``axioms``: the axioms abstracted; ``names``: the constants' names."""

    def __init__(self, ctx: z3.Context, axioms: list[z3.BoolRef]):
        self.ctx = ctx
        consts: dict[int, z3.ExprRef] = {}
        self.pairs: list[tuple[z3.ExprRef, z3.ExprRef]] = []
        self.coordinates: dict[str, tuple[str, str]] = {}  # constant -> (dimension, thread)
        for t in global_id_terms(axioms):
            canonical = z3.simplify(t)
            c = consts.get(canonical.get_id())
            if c is None:
                c = z3.BitVec(f"global_id!{len(consts)}", t.sort().size(), ctx)
                consts[canonical.get_id()] = c
                self.coordinates[str(c)] = _coordinates(t)
            self.pairs.append((t, c))
        self.names = set(self.coordinates)
        self.axioms = [self(a) for a in axioms] if self.pairs else []

    def __call__(self, term: z3.BoolRef) -> z3.BoolRef:
        """``term`` with each global-id term replaced by its constant."""
        return z3.substitute(term, *self.pairs) if self.pairs else term

    def same_coordinates(self, dim: str) -> z3.BoolRef:
        """``group_id_<dim>$1 == group_id_<dim>$2 && local_id_<dim>$1 == local_id_<dim>$2``."""
        def same(name: str) -> z3.BoolRef:
            return z3.BitVec(f"{name}_{dim}$1", 32, self.ctx) == z3.BitVec(f"{name}_{dim}$2", 32, self.ctx)
        return z3.And(same("group_id"), same("local_id"))

    def dimensions_of_both(self, names: set[str]) -> list[str]:
        """The dimensions whose global-id constants of both threads are among ``names``."""
        seen = {self.coordinates[n] for n in names if n in self.coordinates}
        return sorted({d for d, t in seen if (d, "2" if t == "1" else "1") in seen})


def _coordinates(t: z3.ExprRef) -> tuple[str, str]:
    """``(dimension, thread)`` of a global-id term (``is_global_id``)."""
    for a in t.children():
        key = _product_key(a)
        if key is not None:
            return key
    raise ValueError("not a global id")
