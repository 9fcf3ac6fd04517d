"""The interpreter's inputs: constants, global variables and the entry procedure's
parameters chosen so that the axioms and the entry's ``requires`` hold (caller values
first, then equalities ``x == e``, then random draws within bounds such as
``BV32_ULT(x, e)``; up to ``max_tries`` attempts, then ``InterpError``)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import il
from .compiler import RunState
from ..il.printer import expr_str
from ..il.typecheck import TypeEnv
from .values import MISSING, InterpError, coerce, owned, random_value, to_signed

if TYPE_CHECKING:  # the chooser is the interpreter's part; this is for annotations only
    from .interpreter import Interpreter

_UNSIGNED_CMP = {"bvult": "<", "bvule": "<=", "bvugt": ">", "bvuge": ">="}
_SIGNED_CMP = {"bvslt": "<", "bvsle": "<=", "bvsgt": ">", "bvsge": ">="}
_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}


class InputChooser:
    """Chooses constants, global variables and entry parameters so that the axioms and
    the entry's ``requires`` hold (caller values first, then equalities, then bounded
    random draws; ``max_tries`` attempts)."""

    def __init__(self, it: Interpreter):
        self.it = it
        entry = it.entry
        self.param_names = [n for n, _ in entry.decl.params]
        self.unknowns = []  # (key, type); key = ("g", name) or ("p", name)
        for d in it.program.decls:
            if isinstance(d, (il.ConstDecl, il.VarDecl)):
                self.unknowns.append((("g", d.name), it.genv.resolve(d.type)))
        for n in self.param_names:
            self.unknowns.append((("p", n), entry.types[n]))
        self._check_given()
        # constraints: (text, closure, conjunct expr, scope env, local names)
        self.constraints: list[tuple] = []
        for d in it.program.decls:
            if isinstance(d, il.AxiomDecl):
                for cj in il.conjuncts(d.expr):
                    self._add(f"axiom {expr_str(cj)}", cj, it.genv, frozenset())
        for s in entry.decl.specs:
            if s.kind == "requires":
                for cj in il.conjuncts(s.expr):
                    self._add(f"requires {expr_str(cj)}", cj, entry.env, entry.local_names)

    def _check_given(self) -> None:
        names = {k[1] for k, _ in self.unknowns if k[0] == "g"}
        for n in self.it.consts:
            if n not in names:
                raise InterpError(f"--set {n}: no constant or global variable of that name")
        for n in self.it.params:
            if n not in self.param_names:
                raise InterpError(f"--set {n}: {self.it.entry.name} has no parameter of that name")

    def _add(self, text: str, e: il.Expr, env: TypeEnv, local: frozenset) -> None:
        comp = self.it.comp
        f = comp.expr(e, env, local)
        key = lambda name: ("p", name) if name in local else ("g", name)
        eq = bound = None
        sides = None
        if isinstance(e, il.BinOp) and e.op == "==":
            sides = [(e.left, e.right), (e.right, e.left)]
        elif isinstance(e, il.Var):
            eq = [(key(e.name), lambda st, loc: True)]
        elif isinstance(e, il.UnOp) and e.op == "!" and isinstance(e.operand, il.Var):
            eq = [(key(e.operand.name), lambda st, loc: False)]
        if sides:
            eq = [(key(a.name), comp.expr(b, env, local)) for a, b in sides if isinstance(a, il.Var)]
        cmp = self._comparison(e, env)
        if cmp is not None:
            signed, op, a, b = cmp
            bound = []
            for x, y, o in ((a, b, op), (b, a, _FLIP[op])):
                if isinstance(x, il.Var):
                    bound.append((key(x.name), signed, o, comp.expr(y, env, local)))
        self.constraints.append((text, f, eq or [], bound or []))

    def _comparison(self, e: il.Expr, env: TypeEnv):
        """(signed?, op, lhs, rhs) for a bv builtin or int comparison, else None."""
        if isinstance(e, il.FunApp) and len(e.args) == 2:
            f = self.it.genv.functions.get(e.name)
            a = il.attr(f.attrs, "bvbuiltin") if f is not None else None
            if a is not None and a.args and isinstance(a.args[0], str):
                op = a.args[0].strip()
                if op in _UNSIGNED_CMP:
                    return False, _UNSIGNED_CMP[op], e.args[0], e.args[1]
                if op in _SIGNED_CMP:
                    return True, _SIGNED_CMP[op], e.args[0], e.args[1]
        if isinstance(e, il.BinOp) and e.op in _FLIP:
            return True, e.op, e.left, e.right
        return None

    # ------------------------------------------------------------------------

    def choose(self, st: RunState) -> dict[str, Any]:
        it = self.it
        failing: dict = {}
        for attempt in range(it.max_tries):
            g: dict[str, Any] = {}
            p: dict[str, Any] = {}
            for (scope, n), t in self.unknowns:
                given = (it.consts if scope == "g" else it.params).get(n, MISSING)
                if given is not MISSING:
                    (g if scope == "g" else p)[n] = coerce(given, t, n)
            st.g = g
            drew = self._fill(st, g, p)
            bad = self._violated(st, p)
            if bad is None:
                return p
            failing[bad] = failing.get(bad, 0) + 1
            if not drew:
                break
        worst = max(failing, key=lambda k: failing[k])
        tries = "" if not drew else f" after {it.max_tries} random tries"
        raise InterpError(f"cannot satisfy the axioms and preconditions{tries}: "
                          f"{worst[:200]} fails")

    def _fill(self, st: RunState, g: dict, p: dict) -> bool:
        """Give every unknown a value; returns whether any value was drawn at random."""
        drew = False
        self._propagate(st, g, p)
        for key, t in self.unknowns:
            d = g if key[0] == "g" else p
            if key[1] in d:
                continue
            d[key[1]] = self._draw(st, key, t, p)
            drew = True
            self._propagate(st, g, p)
        return drew

    def _propagate(self, st: RunState, g: dict, p: dict) -> None:
        changed = True
        while changed:
            changed = False
            for _, _, eqs, _ in self.constraints:
                for (scope, n), rhs in eqs:
                    d = g if scope == "g" else p
                    if n in d:
                        continue
                    try:
                        d[n] = owned(rhs(st, p))
                    except KeyError:
                        continue
                    changed = True

    def _draw(self, st: RunState, key: tuple, t: il.Type, p: dict):
        rng = self.it.rng
        if not isinstance(t, (il.BvType, il.IntType)):
            return random_value(t, rng)
        lo, hi, signed = self._interval(st, key, t, p)
        if lo is None:
            return random_value(t, rng)
        if hi < lo:
            return random_value(t, rng)
        if hi - lo <= 64:
            v = rng.randint(lo, hi)
        else:
            r = rng.random()
            v = lo + rng.randint(0, 16) if r < 0.5 else hi - rng.randint(0, 16) if r < 0.7 \
                else rng.randint(lo, hi)
        return v & ((1 << t.width) - 1) if isinstance(t, il.BvType) else v

    def _interval(self, st: RunState, key: tuple, t: il.Type, p: dict):
        """Bounds on ``key`` from comparisons with already-known values: (lo, hi, signed),
        or (None, None, None) if unconstrained."""
        is_bv = isinstance(t, il.BvType)
        found, sgn = False, False
        if isinstance(t, il.BvType):
            w = t.width
            ulo, uhi, slo, shi = 0, (1 << w) - 1, -(1 << (w - 1)), (1 << (w - 1)) - 1
        else:
            ulo, uhi = slo, shi = -(2**31), 2**31 - 1
        for _, _, _, bounds in self.constraints:
            for k, signed, op, other in bounds:
                if k != key:
                    continue
                try:
                    b = other(st, p)
                except KeyError:
                    continue
                if is_bv and signed:
                    b = to_signed(b, w)
                found = True
                sgn = sgn or signed or not is_bv
                lo, hi = (slo, shi) if (signed or not is_bv) else (ulo, uhi)
                if op == "<":
                    hi = min(hi, b - 1)
                elif op == "<=":
                    hi = min(hi, b)
                elif op == ">":
                    lo = max(lo, b + 1)
                else:
                    lo = max(lo, b)
                if signed or not is_bv:
                    slo, shi = lo, hi
                else:
                    ulo, uhi = lo, hi
        if not found:
            return None, None, None
        if is_bv and (ulo, uhi) != (0, (1 << w) - 1):
            return ulo, uhi, False
        return slo, shi, sgn

    def _violated(self, st: RunState, p: dict):
        for text, f, _, _ in self.constraints:
            try:
                if not f(st, p):
                    return text
            except KeyError as e:
                return f"{text} (no value for {e.args[0]})"
        return None
