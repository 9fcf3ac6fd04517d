"""Assertions over access-log updates are split into the cases of the log choice
(vcgen.vc.encode.LogCaseSplitter): the VC compares offsets case by case instead of
through a chain of if-then-else updates, with the same verdicts."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import z3

from vcgen.il.parser import parse_expr, parse_program
from vcgen.vc import encode as vcmod
from vcgen.vc import passify
from vcgen.vc import query
from vcgen.verify.checker import VerifyOptions, verify_program

from vcgen_progs import kernel

ROOT = Path(__file__).resolve().parent.parent

GID = "BV32_ADD(BV32_MUL(group_id_x${t}, 16bv32), local_id_x${t})"


# a barrier's reset of the log (vcgen.twothread: only a barrier of the same group orders)
RESET = "    _WRITE_HAS_OCCURRED := if group_id_x$1 == group_id_x$2 then false else _WRITE_HAS_OCCURRED;\n"


def _logged_writes(rows: int, check_row: str, start: str = "_WRITE_HAS_OCCURRED := false;",
                   barriers: bool = False) -> str:
    """Thread 1 may log its write ``out[row * 32 + gid]`` for each of ``rows`` rows (one
    nondeterministic choice per write, as vcgen.twothread.logs instruments it); then
    thread 2's write of ``out[check_row + gid]`` is race-checked against the log.
    ``start``: the log's first command (a havoc: any logged access, as at a loop head);
    ``barriers``: a barrier's log reset after each write."""
    steps = []
    for r in range(rows):
        off = f"BV32_ADD({r * 32}bv32, {GID.format(t=1)})"
        steps.append(f"""\
    havoc $log{r};
    _WRITE_HAS_OCCURRED, _WRITE_OFFSET, _WRITE_SOURCE := if $log{r} then true else _WRITE_HAS_OCCURRED, \
if $log{r} then {off} else _WRITE_OFFSET, if $log{r} then {r + 1} else _WRITE_SOURCE;
""" + (RESET if barriers else ""))
    locals_ = "".join(f"  var $log{r}: bool;\n" for r in range(rows))
    idx2 = f"BV32_ADD({check_row}, {GID.format(t=2)})"
    return kernel(f"""{locals_}  $entry:
    {start}
{''.join(steps)}    assert {{:race "write-write", "$$out"}} {{:sourceloc "rows.cl", 9, 5}} {{:check_offset {idx2}}} \
!((group_id_x$1 != group_id_x$2 || local_id_x$1 != local_id_x$2) && _WRITE_HAS_OCCURRED && _WRITE_OFFSET == {idx2});
    assert {{:vacuity_check}} false;
    return;
""", decls="var _WRITE_HAS_OCCURRED: bool;\nvar _WRITE_OFFSET: bv32;\nvar _WRITE_SOURCE: int;\n")


def _race_check(vc: vcmod.VC) -> vcmod.Check:
    return next(c for c in vc.checks if c.has("race"))


def _definition_of(vc: vcmod.VC, name: str) -> z3.ExprRef:
    return next(c.arg(1) for c in vc.constraints if z3.is_eq(c) and str(c.arg(0)) == name)


def _constants(t: z3.ExprRef) -> set[str]:
    return {str(c) for c in vcmod.uninterpreted_constants(t)}


def test_race_check_is_split_over_the_log_updates():
    prog = parse_program(_logged_writes(3, "64bv32"))
    vc = vcmod.build_vc(prog, passify.passify(prog, prog.kernel()))
    check = _race_check(vc)
    tree = _definition_of(vc, f"holds_{check.index}")
    names = _constants(tree)
    # the cases read the log choices and the threads' ids, never a log incarnation
    assert {"$log0@1", "$log1@1", "$log2@1"} <= names
    assert not any(n.startswith("_WRITE_") and "@" in n for n in names)
    # the updates themselves stay in the VC as equations (models read the log from them)
    assert "_WRITE_OFFSET@3" in vc.translator.consts


def _count_ites(t: z3.ExprRef) -> int:
    """The distinct if-then-else nodes of ``t`` (a DAG)."""
    seen: dict[int, z3.ExprRef] = {}
    todo = [t]
    while todo:
        x = todo.pop()
        if x.get_id() not in seen:
            seen[x.get_id()] = x
            todo.extend(x.children())
    return sum(1 for x in seen.values() if z3.is_app_of(x, z3.Z3_OP_ITE))


def test_split_after_barriers_is_linear_in_the_chain():
    """Straight-line code with a barrier after each of n writes: the check reads a chain
    of n log choices and n resets, all under the one condition ``same group``.  A reset's
    "logged" case (``false``) is a leaf, not a tree over the offsets' chain, and below a
    reset's "not reset" case the later resets are decided: the tree has a node per write
    and one for the condition (it had one per reset per write, cubic over the kernel)."""
    rows = 12
    prog = parse_program(_logged_writes(rows, "1bv32", barriers=True))
    vc = vcmod.build_vc(prog, passify.passify(prog, prog.kernel()))
    tree = _definition_of(vc, f"holds_{_race_check(vc).index}")
    assert _count_ites(tree) <= rows + 1
    assert not any(n.startswith("_WRITE_") and "@" in n for n in _constants(tree))


@pytest.mark.parametrize("check_row, status", [
    ("1bv32", "errors"),    # row 0 shifted: the write of thread gid+1, of the next group at
                            # the group's end, which no barrier orders
    ("352bv32", "verified"),  # row 11, its own cell
    ("353bv32", "errors"),  # row 11 shifted: the last write, before its barrier
])
def test_split_after_barriers_keeps_verdicts(check_row, status):
    res = verify_program(parse_program(_logged_writes(12, check_row, barriers=True)))
    assert res.status == status
    if status == "errors":
        assert [e.kind for e in res.errors] == ["race"]


def test_case_budget_keeps_the_rest_of_the_chain_named(monkeypatch):
    monkeypatch.setattr(vcmod, "SPLIT_MAX_CASES", 2)
    prog = parse_program(_logged_writes(4, "1bv32"))
    vc = vcmod.build_vc(prog, passify.passify(prog, prog.kernel()))
    names = _constants(_definition_of(vc, f"holds_{_race_check(vc).index}"))
    # the two latest updates are cases; below them the older incarnations are read
    assert {"$log3@1", "$log2@1"} <= names and "$log0@1" not in names
    assert {"_WRITE_HAS_OCCURRED@3", "_WRITE_OFFSET@2"} <= names
    # the race is with row 0, below the budget: the named rest of the chain still finds it
    assert verify_program(prog).status == "errors"


@pytest.mark.parametrize("rows, check_row, status", [
    (3, "96bv32", "verified"),   # thread 2 writes row 3: no logged write is there
    (3, "64bv32", "verified"),   # row 2, its own cell: other threads logged other cells
    (3, "65bv32", "errors"),     # row 2 shifted by one: the write of thread gid+1
    (3, "1bv32", "errors"),      # row 0 shifted: the oldest update of the chain
    (12, "352bv32", "verified"),
    (12, "321bv32", "errors"),
])
def test_split_keeps_verdicts(rows, check_row, status):
    res = verify_program(parse_program(_logged_writes(rows, check_row)))
    assert res.status == status
    if status == "errors":
        assert [e.kind for e in res.errors] == ["race"]


ROWS_CL = """// each work item scales its column of a row-major table, row by row
__kernel void scale_rows(__global float *rates, __global const float *conc) {{
  size_t i = get_global_id(0);
{rows}}}
"""


def _rows_kernel(rows: int, shifted: int | None = None) -> str:
    lines = []
    for r in range(rows):
        dst = f"rates[{r} * 256 + i{' + 1' if r == shifted else ''}]"
        lines.append(f"  {dst} = rates[{r} * 256 + i] * conc[{(r * 7) % rows} * 256 + i];\n")
    return ROWS_CL.format(rows="".join(lines))


@pytest.mark.parametrize("shifted, code", [(None, 0), (17, 6)])
def test_straight_line_kernel_with_many_writes(tmp_path, shifted, code):
    """40 rows written in straight-line code (the SHOC s3d shape): each race check reads a
    chain of 40 log updates of ``rates``; one shifted write races with the next thread."""
    f = tmp_path / "rows.cl"
    f.write_text(_rows_kernel(40, shifted))
    r = subprocess.run([sys.executable, "-m", "vcgen.driver", "--local_size=64", "--num_groups=4", str(f)],
                       capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert r.returncode == code, r.stdout + r.stderr
    if code:
        assert "race on rates[" in r.stdout


def test_predicated_locals_are_not_split():
    """A local's if-then-else is a predicated assignment, not a log update: splitting it
    would multiply the cases of every assertion that reads several of them."""
    prog = parse_program(kernel("""\
  var $p: bool;
  var $x: bv32;
  $entry:
    havoc $p;
    $x := 0bv32;
    $x := if $p then 5bv32 else $x;
    assert {:sourceloc "p.cl", 2, 3} {:user_assert} {:thread 1} $x != 7bv32;
    assert {:vacuity_check} false;
    return;
"""))
    vc = vcmod.build_vc(prog, passify.passify(prog, prog.kernel()))
    assert not any(z3.is_eq(c) and str(c.arg(0)).startswith("holds_") for c in vc.constraints)
    assert verify_program(prog).status == "verified"


def test_case_refuter_decides_launch_only_atoms_under_the_axioms(monkeypatch):
    prog = parse_program(_logged_writes(1, "0bv32"))
    vc = vcmod.build_vc(prog, passify.passify(prog, prog.kernel()))
    monkeypatch.setattr(vcmod, "_REFUTED", {})  # the VC's own refuter asked some of them
    tr = vc.translator
    axioms = [tr.term(d.expr) for d in prog.decls if isinstance(d, vcmod.il.AxiomDecl)]
    refuter = vcmod.CaseRefuter(vc.ctx, axioms, set(prog.consts()))
    gid1, gid2 = (tr.term(parse_expr(GID.format(t=t))) for t in (1, 2))
    row = lambda k: z3.BitVecVal(k, 32, vc.ctx)
    # 32 threads in all: a gid never reaches the next row of 32
    assert z3.is_false(refuter.simplify(z3.And(z3.BoolVal(True, vc.ctx), gid1 + row(0) == gid2 + row(32))))
    # a neighbouring cell of the same row is another thread's: kept
    kept = refuter.simplify(gid1 == gid2 + row(1))
    assert not z3.is_false(kept) and refuter.queries == 2
    # an atom over a program variable is no launch fact: kept without a query
    x = z3.BitVec("$x@1", 32, vc.ctx)
    assert not z3.is_false(refuter.simplify(gid1 == x + row(64))) and refuter.queries == 2
    # decided once: the same atom again asks nothing
    refuter.simplify(gid1 + row(0) == gid2 + row(32))
    assert refuter.queries == 2


def test_case_refuter_verdicts_serve_the_other_vcs_of_the_kernel(monkeypatch):
    """Houdini's, the offsets-first and the final check's VC ask the same atoms under the
    same axioms, each in its own z3 context: asked once per process, not once per VC; a
    different axiom (another launch) asks again."""
    monkeypatch.setattr(vcmod, "_REFUTED", {})

    def refuter(extra: str | None = None):
        prog = parse_program(_logged_writes(1, "0bv32"))
        vc = vcmod.build_vc(prog, passify.passify(prog, prog.kernel()))  # a context of its own
        tr = vc.translator
        axioms = [tr.term(d.expr) for d in prog.decls if isinstance(d, vcmod.il.AxiomDecl)]
        axioms += [tr.term(parse_expr(extra))] if extra else []
        gid1, gid2 = (tr.term(parse_expr(GID.format(t=t))) for t in (1, 2))
        atom = gid1 + z3.BitVecVal(0, 32, vc.ctx) == gid2 + z3.BitVecVal(32, 32, vc.ctx)
        return vcmod.CaseRefuter(vc.ctx, axioms, set(prog.consts())), atom

    first, atom = refuter()
    vcmod._REFUTED.clear()
    assert z3.is_false(first.simplify(atom)) and first.queries == 1
    second, atom = refuter()
    assert z3.is_false(second.simplify(atom)) and second.queries == 0
    other, atom = refuter("BV32_ULE(group_id_x$1, group_id_x$1)")
    other.simplify(atom)
    assert other.queries == 1


def test_split_with_too_many_undecided_cases_is_not_kept(monkeypatch):
    """Row 2's comparison ``64 + gid1 == 65 + gid2`` holds for neighbouring threads, so the
    refuter leaves it undecided: with no undecided case allowed the chain is kept as it was."""
    monkeypatch.setattr(vcmod, "SPLIT_MAX_LIVE", 0)
    prog = parse_program(_logged_writes(3, "65bv32"))
    vc = vcmod.build_vc(prog, passify.passify(prog, prog.kernel()))
    assert not any(z3.is_eq(c) and str(c.arg(0)).startswith("holds_") for c in vc.constraints)
    monkeypatch.setattr(vcmod, "SPLIT_MAX_LIVE", 1)
    vc = vcmod.build_vc(prog, passify.passify(prog, prog.kernel()))
    assert any(z3.is_eq(c) and str(c.arg(0)).startswith("holds_") for c in vc.constraints)


@pytest.mark.parametrize("check_row, kept", [("1bv32", False), ("32bv32", True)])
def test_split_that_decides_no_case_is_not_kept(check_row, kept):
    """With the log arbitrary at the start (a loop head), the bottom of the chain is a
    live case; row 0's ``gid1 == 1 + gid2`` holds for neighbours, so no case is decided
    and the split would only restructure the chain (gpgpu-sim LPS: 4x slower).  Against
    row 1 (``32 + gid2``, beyond the 32 threads) row 0's case is refuted: kept."""
    havoc = "havoc _WRITE_HAS_OCCURRED, _WRITE_OFFSET, _WRITE_SOURCE;"
    prog = parse_program(_logged_writes(1, check_row, start=havoc))
    vc = vcmod.build_vc(prog, passify.passify(prog, prog.kernel()))
    assert any(z3.is_eq(c) and str(c.arg(0)).startswith("holds_") for c in vc.constraints) == kept
    assert verify_program(prog).status == "errors"  # the havocked log may hold any access


# --------------------------------------------- loop invariants over the body's log updates

STRIDED_DECLS = """\
function {:bvbuiltin "bvurem"} BV32_UREM(bv32, bv32): bv32;
function {:bvbuiltin "bvurem"} BV64_UREM(bv64, bv64): bv64;
function {:bvbuiltin "bvudiv"} BV64_UDIV(bv64, bv64): bv64;
function {:bvbuiltin "bvmul"} BV64_MUL(bv64, bv64): bv64;
function {:bvbuiltin "zero_extend 32"} BV32_ZEXT64(bv32): bv64;
var _WRITE_HAS_OCCURRED_$$out: bool;
var _WRITE_OFFSET_$$out: bv64;
"""

OFFSET_INVARIANT = ("_WRITE_HAS_OCCURRED_$$out ==> (BV64_UREM(BV64_UDIV(BV64_MUL(_WRITE_OFFSET_$$out, "
                    "4bv64), 4bv64), 1920bv64) == BV32_ZEXT64({gid}))")


# thread 1's write of ``out[i]``, logged or not (the log's nondeterministic choice)
LOGGED_WRITE = """\
    havoc $log;
    _WRITE_HAS_OCCURRED_$$out, _WRITE_OFFSET_$$out := if $log then true else _WRITE_HAS_OCCURRED_$$out, \
if $log then BV32_ZEXT64($i) else _WRITE_OFFSET_$$out;
"""


def _stride_loop(stride: int, body: str) -> str:
    """``for (i = gid; i < 4000000; i += stride) { body }`` with the user invariants
    ``i % 1920 == gid`` and ``offset_bytes(out)/4 % 1920 == gid`` at the head (64-bit
    offsets, as CUDA's; the BlackScholes grid-stride shape, 1920 threads' worth)."""
    gid = GID.format(t=1)
    return kernel(f"""\
  var $i: bv32;
  var $log: bool;
  $entry:
    $i := {gid};
    _WRITE_HAS_OCCURRED_$$out := false;
    goto $head;
  $head:
    assert {{:sourceloc "gs.cu", 5, 9}} {{:user_invariant}} {{:thread 1}} BV32_UREM($i, 1920bv32) == {gid};
    assert {{:sourceloc "gs.cu", 6, 9}} {{:user_invariant}} {{:thread 1}} {OFFSET_INVARIANT.format(gid=gid)};
    assert {{:sourceloc "gs.cu", 7, 9}} {{:user_invariant}} {{:thread 1}} BV32_ULT($i, 4001920bv32);
    goto $body, $exit;
  $body:
    assume {{:partition}} BV32_ULT($i, 4000000bv32);
{body}    $i := BV32_ADD($i, {stride}bv32);
    goto $head;
  $exit:
    assume {{:partition}} !BV32_ULT($i, 4000000bv32);
    assert {{:vacuity_check}} false;
    return;
""", decls=STRIDED_DECLS)


def _grid_stride_loop(stride: int) -> str:
    """``_stride_loop`` that writes ``out[i]`` in every iteration (thread 1's write logged)."""
    return _stride_loop(stride, LOGGED_WRITE)


def _offset_invariant_checks(vc: vcmod.VC) -> list[vcmod.Check]:
    return [c for c in vc.checks if c.site is not None and c.has("user_invariant")
            and "_WRITE_OFFSET_" in str(c.site.expr)]


def test_loop_invariant_is_split_over_the_body_log_updates():
    """At the back edge the offset invariant reads the log after the body's update; split,
    its "not logged" case is the term the cut point assumes, so the solver need not show
    that two copies of the 64-bit remainder agree on equal offsets."""
    prog = parse_program(_grid_stride_loop(1920))
    vc = query.program_vc(prog)
    entry, back = _offset_invariant_checks(vc)
    assert not any(str(c.arg(0)) == f"holds_{entry.index}" for c in vc.constraints if z3.is_eq(c))
    tree = _definition_of(vc, f"holds_{back.index}")
    assert z3.is_app_of(tree, z3.Z3_OP_ITE)
    assert "_WRITE_OFFSET_$$out@1" in _constants(tree.arg(2))  # the log at the loop head
    assumed = [c for c in vc.constraints if _contains(c, tree.arg(2))]
    assert len(assumed) > 1  # the cut point's assumption shares the "not logged" case


def _contains(t: z3.ExprRef, sub: z3.ExprRef) -> bool:
    seen, todo = set(), [t]
    while todo:
        x = todo.pop()
        if x.get_id() in seen:
            continue
        if x.eq(sub):
            return True
        seen.add(x.get_id())
        todo.extend(x.children())
    return False


def test_loop_invariant_split_case_budget(monkeypatch):
    monkeypatch.setattr(vcmod, "INVARIANT_SPLIT_MAX_CASES", 1)
    vc = query.program_vc(parse_program(_grid_stride_loop(1920)))
    back = _offset_invariant_checks(vc)[1]
    assert not any(z3.is_eq(c) and str(c.arg(0)) == f"holds_{back.index}" for c in vc.constraints)


def _branch_logged_loop(stride: int) -> str:
    """``_grid_stride_loop`` whose write is on one branch of the body only (``if (i % 7 <
    3) out[i] = ...``): at the back edge the log is a join of the logged update and the
    loop head's log (passive form: a join incarnation with one copy per edge)."""
    return _stride_loop(stride, """\
    goto $write, $skip;
  $write:
    assume {:partition} BV32_ULT(BV32_UREM($i, 7bv32), 3bv32);
""" + LOGGED_WRITE + """\
    goto $latch;
  $skip:
    assume {:partition} !BV32_ULT(BV32_UREM($i, 7bv32), 3bv32);
    goto $latch;
  $latch:
""")


def test_loop_invariant_is_split_over_a_joined_log():
    """The back edge reads the join of the body's log: cased over the incarnations copied
    into it (``LogCaseSplitter._split_joins``), the logged one split further, the loop
    head's one the very term the cut point assumes; the Boolean join (HAS_OCCURRED) is
    not cased."""
    vc = query.program_vc(parse_program(_branch_logged_loop(1920)))
    entry, back = _offset_invariant_checks(vc)
    tree = _definition_of(vc, f"holds_{back.index}")
    assert z3.is_app_of(tree, z3.Z3_OP_ITE)
    guards = []
    todo = [tree]
    while todo:
        t = todo.pop()
        if z3.is_app_of(t, z3.Z3_OP_ITE):
            guards.append(t.arg(0))
            todo += [t.arg(1), t.arg(2)]
    joins = {str(g.arg(0)) for g in guards if z3.is_eq(g)}
    assert len(joins) == 1 and joins.pop().startswith("_WRITE_OFFSET_$$out@")
    assert not any("HAS_OCCURRED" in str(g) for g in guards if z3.is_eq(g))
    head_case = next(case for case in _leaves(tree) if "_WRITE_OFFSET_$$out@1" in _constants(case))
    rem = _remainders(head_case)
    assert len(rem) == 1
    # the "loop head's log" case reads the very remainder the cut point assumes
    assert len([c for c in vc.constraints if _contains(c, rem[0])]) > 1


def _remainders(t: z3.ExprRef) -> list[z3.ExprRef]:
    out, todo = [], [t]
    while todo:
        x = todo.pop()
        if z3.is_app_of(x, z3.Z3_OP_BUREM) or z3.is_app_of(x, z3.Z3_OP_BUREM_I):
            out.append(x)
        todo.extend(x.children())
    return out


def _leaves(t: z3.ExprRef) -> list[z3.ExprRef]:
    if z3.is_app_of(t, z3.Z3_OP_ITE):
        return _leaves(t.arg(1)) + _leaves(t.arg(2))
    return [t]


def test_joined_log_split_is_equivalent():
    """Each join case is guarded by its own equation and the last keeps the join itself,
    so under the log update's definition (an equation of every path) the tree equals the
    unsplit invariant for every value of the join: z3 proves ``tree == P(join)``."""
    vc = query.program_vc(parse_program(_branch_logged_loop(1920)))
    back = _offset_invariant_checks(vc)[1]
    tree = _definition_of(vc, f"holds_{back.index}")
    unsplit = _leaves(tree)[-1]  # the default case: the invariant over the join itself
    assert any(n.startswith("_WRITE_OFFSET_$$out@") and n != "_WRITE_OFFSET_$$out@1"
               for n in _constants(unsplit))
    update = next(n for n in _constants(tree) if n.startswith("_WRITE_OFFSET_$$out@")
                  and n not in _constants(unsplit) and n != "_WRITE_OFFSET_$$out@1")
    s = z3.Solver(ctx=vc.ctx)
    definition = next(e for c in vc.constraints if z3.is_eq(c) for e in c.arg(1).children()
                      if z3.is_eq(e) and str(e.arg(0)) == update)  # in its block's conjunction
    s.add(definition, tree != unsplit)
    assert s.check() == z3.unsat


@pytest.mark.parametrize("loop", [_grid_stride_loop, _branch_logged_loop], ids=["body_log", "joined_log"])
@pytest.mark.parametrize("stride, status", [(1920, "verified"), (1919, "errors")])
def test_split_loop_invariant_keeps_verdicts(loop, stride, status):
    """Split over the body's log updates, and over a joined log: the same verdicts."""
    res = verify_program(parse_program(loop(stride)), VerifyOptions(timeout=120))
    assert res.status == status, res.reason
    if status == "errors":
        assert "invariant_maintained" in {e.kind for e in res.errors}
