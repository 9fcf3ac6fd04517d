"""The VC as SMT-LIB2 text: the logic, declarations and assertions, standalone scripts
(``vcgen smt``), and the rewriting of ``Int`` as 64-bit bit-vectors for bitwuzla.

bitwuzla has no integers.  Our VCs use ``Int`` only for program counters ``cur$t``,
log sources and source-location ids, with ``=``, ``distinct``, ``ite``, arrays and
uninterpreted functions but no arithmetic or ordering; for bitwuzla the SMT-LIB text is
rewritten with ``Int`` as ``(_ BitVec 64)`` (``ints_as_bv``), which preserves
satisfiability: in equality logic with uninterpreted functions and arrays a formula with
n terms is satisfiable over an infinite domain iff it is over any domain of at least n
elements in which its (distinct) literals stay distinct, and 2^64 exceeds any n.

The log's source ids are also ordered (``(<= 1 _READ_SOURCE_$$a)``, bounds of the
source-location ids), so the orderings ``< <= > >=`` become the *signed* comparisons
``bvslt bvsle bvsgt bvsge``, numerals below 2^63: a model over the integers of a formula
whose terms are only compared (never added or multiplied) keeps its truth value under any
order-preserving injective map of the values of its n terms that fixes its numerals, and
one into [-2^63, 2^63) exists when fewer than 2^62 values lie below the smallest numeral
or above the largest (any VC); the signed reading of a bit-vector model is an integer
model.  So bitwuzla's unsat is the integer formula's unsat.  A VC that does use integer
arithmetic (e.g. ``--math-int``) is refused for bitwuzla with a configuration error
(exit 9) instead.
"""
from __future__ import annotations

import re

import z3

from ...il.errors import ExitCode, ToolError
from ...il.printer import attrs_str
from ..encode import MATH_INT_WARNING, VC, Check


_LOGICS = {"QF_UF", "QF_BV", "QF_ABV", "QF_UFBV", "QF_AUFBV", "QF_AX", "QF_LIA", "QF_ALIA",
           "QF_UFLIA", "QF_AUFLIA", "QF_NIA", "QF_UFNIA", "QF_ANIA", "QF_AUFNIA",
           "BV", "UFBV", "ABV", "AUFBV", "LIA", "ALIA", "UFLIA", "AUFLIA", "NIA", "UFNIA",
           "AUFNIRA", "UF"}


def logic_of(features: set) -> str:
    """The smallest standard SMT-LIB logic covering ``features`` (subset of Q A UF BV LIA
    NIA), else ``ALL`` (e.g. bit-vectors mixed with integers)."""
    f = features
    if "BV" in f and ("LIA" in f or "NIA" in f):
        return "ALL"
    arith = "NIA" if "NIA" in f else "LIA" if "LIA" in f else "BV" if "BV" in f else ""
    q, a, uf = ("" if "Q" in f else "QF_"), ("A" if "A" in f else ""), ("UF" if "UF" in f else "")
    if arith:
        name = q + a + uf + arith
    else:
        name = q + ("AX" if a and not uf else "UF" if not a else "AUF")
    return name if name in _LOGICS else "ALL"


def smt_logic(vc: VC) -> str:
    """The SMT-LIB logic of the VC (``logic_of`` its features)."""
    return logic_of(vc.translator.features)


def script(logic: str, body: str, options: tuple[str, ...] = ()) -> str:
    """The start of a solver process's input: success messages off, the Boolean
    ``options`` set true (e.g. ``produce-models``), ``(set-logic logic)``, then ``body``
    (declarations and assertions, SMT-LIB2 text ending in a newline)."""
    flags = "".join(f"(set-option :{o} true)\n" for o in options)
    return f"(set-option :print-success false)\n{flags}(set-logic {logic})\n{body}"


def smt_body(vc: VC) -> str:
    """Declarations and assertions (constraints + goal, in that order, one ``assert`` each)
    of the VC, SMT-LIB2 text; printed on the first call and kept (``VC.printed``): the
    portfolio's processes and the cone prover (``sliced.SliceProver``) of one VC share it
    (AMD AESEncryptDecrypt kernel1: 2.2 MB of text, about 0.3 s to print)."""
    if vc.printed is None:
        vc.printed = smt_assertions(vc.ctx, [*vc.constraints, vc.goal])
    return vc.printed


def smt_assertions(ctx: z3.Context, terms: list) -> str:
    """The declarations of the symbols of the Boolean z3 ``terms`` and one ``(assert ...)``
    command per term, in order (each with its own ``let``s), SMT-LIB2 text.

    Printed by z3's benchmark printer (``Z3_benchmark_to_smtlib_string``) without its
    header and ``(check-sat)``, not by ``Solver.sexpr``: that pretty printer took 14 s
    on CUDA postProcessGL's VC (6.9 MB of text) and 5.7 s on AMD AESEncryptDecrypt
    kernel1's, this one 0.3 s (4.4 MB, 2.2 MB); the portfolio pays it before its first
    race (``process.ProcessBackend``), and ``sliced`` before its first cone query."""
    if not terms:
        return ""
    *rest, last = terms
    arr = (z3.Ast * len(rest))(*[t.as_ast() for t in rest])
    text = z3.Z3_benchmark_to_smtlib_string(ctx.ref(), "", "", "unknown", "", len(rest), arr,
                                             last.as_ast())
    head = _BENCHMARK_HEAD.match(text)
    text = text[head.end():] if head else text
    return text.removesuffix("\n").removesuffix("(check-sat)").rstrip("\n") + "\n"


# What z3's benchmark printer writes before the declarations: a comment with the
# benchmark's name and its ``(set-info :status ...)``
_BENCHMARK_HEAD = re.compile(r"(?:;[^\n]*\n|\(set-info [^\n]*\n)*")


def _describe(check: Check) -> str:
    site = check.site
    if site is None:
        return "end of the kernel reachable (vacuity check)"
    return f"block {site.block}: {attrs_str(site.attrs)}".replace("\n", " ")


def smt_script(vc: VC, assumptions: list, title: str = "") -> str:
    """Standalone SMT-LIB2 script: unsat iff no enabled assertion can fail under
    ``assumptions`` (asserted as unit clauses).  Comments name each assertion's label.
    Accepted as is by z3, cvc5 and yices-smt2 (tests/test_solvers.py)."""
    lines = [f"; {title}" if title else "; verification condition"]
    if vc.math_int:
        lines.append("; " + MATH_INT_WARNING)
    lines.append("; assertions:")
    lines += [f";   {c.label}: {_describe(c)}" for c in vc.checks]
    lines += ["(set-info :smt-lib-version 2.6)", f"(set-logic {smt_logic(vc)})",
              smt_body(vc).rstrip()]
    lines += [f"(assert {a.sexpr()})" for a in assumptions]
    lines += ["(check-sat)", "(exit)", ""]
    return "\n".join(lines)


INT_AS_BV_BITS = 64
_TOKEN = re.compile(r'\s+|;[^\n]*|\|[^|]*\||"(?:[^"]|"")*"|[()]|[^\s()|";]+')
_ARITH = {"+", "-", "*", "/", "div", "mod", "abs", "to_real", "to_int", "is_int", "Real"}
# integer orderings as signed bit-vector comparisons (the module docstring says why)
_ORDER = {"<": "bvslt", "<=": "bvsle", ">": "bvsgt", ">=": "bvsge"}


def ints_as_bv(text: str, bits: int = INT_AS_BV_BITS) -> str:
    """SMT-LIB text with sort ``Int`` as ``(_ BitVec bits)`` and numerals as bit-vector
    literals, for solvers without integers (see the module docstring for why this keeps
    satisfiability) and integer orderings as signed bit-vector comparisons.  Raises
    ToolError(CONFIGURATION_ERROR) if the text uses integer arithmetic, or a numeral of
    ``bits - 1`` bits or more (it would be negative under the signed comparisons)."""
    out, frames, head = [], [], False  # frames: is each open "(" an indexed "(_ ..." ?
    for m in _TOKEN.finditer(text):
        tok = m.group()
        if tok == "(":
            frames.append(False)
            head = True
        elif tok == ")":
            if frames:
                frames.pop()
            head = False
        elif tok[0].isspace() or tok[0] in ';|"':
            pass
        else:
            if head and tok == "_":
                frames[-1] = True
            elif head and tok in _ARITH:
                raise ToolError(f"bitwuzla has no integer arithmetic, but the query uses "
                                f"'{tok}' on integers; choose another --solver",
                                ExitCode.CONFIGURATION_ERROR)
            elif head and tok in _ORDER:
                tok = _ORDER[tok]
            elif tok == "Int":
                tok = f"(_ BitVec {bits})"
            elif tok.isdigit() and not (frames and frames[-1]):
                if int(tok) >= 1 << (bits - 1):
                    raise ToolError(f"integer literal {tok} too large for bitwuzla's "
                                    f"{bits}-bit encoding of Int", ExitCode.CONFIGURATION_ERROR)
                tok = f"(_ bv{tok} {bits})"
            head = False
        out.append(tok)
    return "".join(out)


def _tokens(text: str):
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
        elif ch in "()":
            yield ch
            i += 1
        elif ch == "|":
            j = text.index("|", i + 1)
            yield text[i + 1:j]
            i = j + 1
        elif ch == '"':
            j = i + 1
            while j < n and not (text[j] == '"' and (j + 1 >= n or text[j + 1] != '"')):
                j += 2 if text[j] == '"' else 1
            yield text[i:j + 1]
            i = j + 1
        else:
            j = i
            while j < n and not text[j].isspace() and text[j] not in "()":
                j += 1
            yield text[i:j]
            i = j


def parse_sexpr(text: str):
    """Parse one s-expression into nested lists of atom strings."""
    stack: list = [[]]
    for t in _tokens(text):
        if t == "(":
            stack.append([])
        elif t == ")":
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(t)
    return stack[0][0] if stack[0] else None


def smt_value(v):
    """Python value of an SMT-LIB value s-expression (bool, int, or its text)."""
    if v == "true":
        return True
    if v == "false":
        return False
    if isinstance(v, str):
        if v.startswith("#x"):
            return int(v[2:], 16)
        if v.startswith("#b"):
            return int(v[2:], 2)
        if v.isdigit():
            return int(v)
        return v
    if len(v) == 3 and v[0] == "_" and v[1].startswith("bv"):
        return int(v[1][2:])
    if len(v) == 2 and v[0] == "-":
        inner = smt_value(v[1])
        return -inner if isinstance(inner, int) else v
    return str(v)
