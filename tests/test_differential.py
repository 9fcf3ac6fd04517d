"""Differential test of ``vcgen lockstep`` (see tests/differential.py for what is compared).

Hand-written one-thread programs (run without clang), every corpus kernel the front end
supports (skipped with the front end's message otherwise), and broken two-thread programs
that the harness must reject.
"""
from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from differential import Differential, Unsupported, load_corpus_kernel, subject_from_text  # noqa: E402
from vcgen import il  # noqa: E402
from vcgen.twothread.options import LaunchConfig  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SEEDS = range(4)  # even seeds: same-group pairs, odd: different groups

PRELUDE = """
function {:bvbuiltin "bvadd"} BV32_ADD(bv32, bv32): bv32;
function {:bvbuiltin "bvmul"} BV32_MUL(bv32, bv32): bv32;
function {:bvbuiltin "bvxor"} BV32_XOR(bv32, bv32): bv32;
function {:bvbuiltin "bvlshr"} BV32_LSHR(bv32, bv32): bv32;
function {:bvbuiltin "bvult"} BV32_ULT(bv32, bv32): bool;
function FADD32(bv32, bv32): bv32;
const {:local_id_x} local_id_x: bv32;
const {:group_id_x} group_id_x: bv32;
const {:group_size_x} group_size_x: bv32;
const {:num_groups_x} num_groups_x: bv32;
var {:source_name "A"} {:global} {:elem_width 32} $$A: [bv32]bv32;
var {:source_name "S"} {:group_shared} {:elem_width 32} $$S: [bv32]bv32;
procedure {:barrier} $bugle_barrier(local_fence: bv1, global_fence: bv1);
"""

# Tree reduction: a uniform loop with a barrier, a divergent branch in it, reads of other
# threads' writes after barriers, and a divergent final write.
TREE = PRELUDE + """
procedure {:kernel} {:source_name "tree"} $tree()
{
  var $v: bv32;
  var $w: bv32;
  var $s: bv32;
  var $gid: bv32;
  $entry:
    $gid := BV32_ADD(BV32_MUL(group_id_x, group_size_x), local_id_x);
    assume {:sourceloc "t.cl", 1, 1} true;
    $v := $$A[$gid];
    assume {:sourceloc "t.cl", 2, 1} true;
    $$S[local_id_x] := $v;
    call {:sourceloc "t.cl", 3, 1} $bugle_barrier(1bv1, 0bv1);
    $s := BV32_LSHR(group_size_x, 1bv32);
    goto $head;
  $head:
    goto $body, $exit;
  $body:
    assume {:partition} BV32_ULT(0bv32, $s);
    goto $then, $skip;
  $then:
    assume {:partition} BV32_ULT(local_id_x, $s);
    assume {:sourceloc "t.cl", 4, 1} true;
    $v := $$S[BV32_ADD(local_id_x, $s)];
    assume {:sourceloc "t.cl", 5, 1} true;
    $w := $$S[local_id_x];
    assume {:sourceloc "t.cl", 6, 1} true;
    $$S[local_id_x] := FADD32($v, $w);
    goto $latch;
  $skip:
    assume {:partition} !BV32_ULT(local_id_x, $s);
    goto $latch;
  $latch:
    call {:sourceloc "t.cl", 7, 1} $bugle_barrier(1bv1, 0bv1);
    $s := BV32_LSHR($s, 1bv32);
    goto $head;
  $exit:
    assume {:partition} !BV32_ULT(0bv32, $s);
    goto $first, $others;
  $first:
    assume {:partition} local_id_x == 0bv32;
    assume {:sourceloc "t.cl", 8, 1} true;
    $v := $$S[0bv32];
    assume {:sourceloc "t.cl", 9, 1} true;
    $$A[group_id_x] := $v;
    goto $end;
  $others:
    assume {:partition} local_id_x != 0bv32;
    goto $end;
  $end:
    return;
}
"""

# Nested loops with a break out of the outer loop, a return inside the inner loop, a
# continue-like back edge and a loop with two exits (shapes of tests/lit/lockstep).
NESTED = PRELUDE + """
procedure {:kernel} {:source_name "nested"} $nested($n: bv32)
  requires BV32_ULT($n, 5bv32);
{
  var $i: bv32;
  var $j: bv32;
  var $v: bv32;
  var $base: bv32;
  $entry:
    $base := BV32_MUL(BV32_ADD(BV32_MUL(group_id_x, group_size_x), local_id_x), 64bv32);
    $i := 0bv32;
    goto $outer;
  $outer:
    goto $obody, $oexit;
  $obody:
    assume {:partition} BV32_ULT($i, $n);
    $j := 0bv32;
    goto $inner;
  $inner:
    goto $ibody, $iexit;
  $ibody:
    assume {:partition} BV32_ULT($j, local_id_x);
    goto $brk, $cont;
  $brk:
    assume {:partition} $j == 7bv32;
    goto $after;
  $cont:
    assume {:partition} $j != 7bv32;
    goto $ret, $inc;
  $ret:
    assume {:partition} $j == 3bv32 && $i == 2bv32;
    assume {:sourceloc "n.cl", 1, 1} true;
    $$A[$base] := $i;
    return;
  $inc:
    assume {:partition} !($j == 3bv32 && $i == 2bv32);
    assume {:sourceloc "n.cl", 2, 1} true;
    $$A[BV32_ADD($base, $j)] := BV32_ADD($i, $j);
    $j := BV32_ADD($j, 1bv32);
    goto $inner;
  $iexit:
    assume {:partition} !BV32_ULT($j, local_id_x);
    assume {:sourceloc "n.cl", 3, 1} true;
    $v := $$A[BV32_ADD($base, 1bv32)];
    $i := BV32_ADD($i, 1bv32);
    goto $outer;
  $oexit:
    assume {:partition} !BV32_ULT($i, $n);
    goto $after;
  $after:
    $j := 0bv32;
    goto $two;
  $two:
    goto $tbody, $texit1;
  $tbody:
    assume {:partition} BV32_ULT($j, 4bv32);
    goto $texit2, $tinc;
  $texit2:
    assume {:partition} $j == local_id_x;
    goto $end;
  $tinc:
    assume {:partition} $j != local_id_x;
    $j := BV32_ADD($j, 1bv32);
    goto $two;
  $texit1:
    assume {:partition} !BV32_ULT($j, 4bv32);
    goto $end;
  $end:
    assume {:sourceloc "n.cl", 4, 1} true;
    $$S[local_id_x] := BV32_ADD($i, $j);
    return;
}
"""

# Branches on a group id and on a loaded value, a global-fence barrier after which a
# thread reads its neighbour's global write, a local-fence barrier that does not cover
# the global array, a private array, a uniform branch inside divergent code and a user
# assertion that fails for some threads.
MIXED = PRELUDE + """
procedure {:kernel} {:source_name "mixed"} $mixed($n: bv32)
{
  var $v: bv32;
  var $x: bv32;
  var $gid: bv32;
  var $$priv: [bv32]bv32;
  $entry:
    $gid := BV32_ADD(BV32_MUL(group_id_x, group_size_x), local_id_x);
    $x := 0bv32;
    goto $g0, $g1;
  $g0:
    assume {:partition} group_id_x == 0bv32;
    $x := 5bv32;
    goto $load;
  $g1:
    assume {:partition} group_id_x != 0bv32;
    goto $load;
  $load:
    assume {:sourceloc "m.cl", 1, 1} true;
    $v := $$A[$gid];
    $$priv[$v] := $x;
    goto $l0, $l1;
  $l0:
    assume {:partition} BV32_ULT($v, 8bv32);
    goto $u0, $u1;
  $u0:
    assume {:partition} BV32_ULT($n, 8bv32);
    $x := BV32_ADD($x, $$priv[$v]);
    goto $join;
  $u1:
    assume {:partition} !BV32_ULT($n, 8bv32);
    $x := BV32_ADD($x, 2bv32);
    goto $join;
  $l1:
    assume {:partition} !BV32_ULT($v, 8bv32);
    $x := $v;
    goto $join;
  $join:
    assume {:sourceloc "m.cl", 2, 1} true;
    $$A[$gid] := $x;
    assume {:sourceloc "m.cl", 3, 1} true;
    $$S[local_id_x] := $x;
    call {:sourceloc "m.cl", 4, 1} $bugle_barrier(0bv1, 1bv1);
    assume {:sourceloc "m.cl", 5, 1} true;
    $v := $$A[BV32_XOR($gid, 1bv32)];
    call {:sourceloc "m.cl", 6, 1} $bugle_barrier(1bv1, 0bv1);
    assume {:sourceloc "m.cl", 7, 1} true;
    $x := $$S[BV32_XOR(local_id_x, 1bv32)];
    assert {:sourceloc "m.cl", 8, 1} {:user_assert} BV32_ULT(local_id_x, 3bv32);
    return;
}
"""

HAND_WRITTEN = {
    "tree": (TREE, LaunchConfig((8, 1, 1), (2, 1, 1))),
    "nested": (NESTED, LaunchConfig((16, 1, 1), (2, 1, 1))),
    "mixed": (MIXED, LaunchConfig((4, 1, 1), (3, 1, 1))),
}


def _check_all(d: Differential, seeds) -> list:
    outs = [d.check(s) for s in seeds]
    bad = [o for o in outs if o.status == "disagree"]
    assert not bad, "\n".join(map(str, bad))
    return outs


@pytest.mark.parametrize("name", sorted(HAND_WRITTEN))
def test_hand_written(name):
    text, launch = HAND_WRITTEN[name]
    d = Differential(subject_from_text(name + ".gbpl", text, launch))
    outs = _check_all(d, range(12))
    assert sum(o.status == "agree" for o in outs) >= 10, "\n".join(map(str, outs))


def test_tree_reads_other_threads_writes():
    """The reference really shares memory: thread 1 reads the sum its partner wrote."""
    d = Differential(subject_from_text("tree.gbpl", TREE, LaunchConfig((2, 1, 1), (1, 1, 1))))
    o = d.check(0)
    assert o.status == "agree", str(o)


# ----------------------------------------------------------------- the harness can fail


def _mutate(prog: il.Program, fn) -> il.Program:
    """``prog`` with the kernel's commands rewritten by ``fn(cmd) -> cmd | None`` (None
    deletes); ``fn`` sees commands in order and may change only the first match."""
    k = prog.kernel()
    blocks = []
    for b in k.blocks:
        cmds = tuple(c2 for c2 in (fn(c) for c in b.cmds) if c2 is not None)
        blocks.append(replace(b, cmds=cmds))
    return prog.replace_decl(k, replace(k, blocks=tuple(blocks)))


def _once(pred, change):
    done = []

    def fn(c):
        if not done and pred(c):
            done.append(c)
            return change(c)
        return c
    return fn


def _writes(name):
    return lambda c: isinstance(c, il.Assign) and any(isinstance(l, il.MapLhs) and l.name == name
                                                      for l in c.lhss)


def _disagrees(d: Differential, seeds=range(8)) -> bool:
    return any(d.check(s).status == "disagree" for s in seeds)


def _tree():
    return Differential(subject_from_text("tree.gbpl", TREE, LaunchConfig((4, 1, 1), (2, 1, 1))))


def test_harness_notices_a_lost_write():
    d = _tree()
    d.two = _mutate(d.two, _once(_writes("$$S$2"), lambda c: None))
    assert _disagrees(d)


def test_harness_notices_a_wrong_predicate():
    d = _tree()
    swap = {"p$1": il.Var("p$2")}
    d.two = _mutate(d.two, _once(lambda c: _writes("$$S$1")(c) and "p$1" in il.free_vars(c.rhss[0]),
                                 lambda c: il.Assign(c.lhss, tuple(il.substitute(r, swap) for r in c.rhss))))
    assert _disagrees(d)


def test_harness_notices_unequal_copies_after_a_barrier():
    """Thread 2 taking its own havoc at a same-group barrier (copies not made equal)."""
    d = _tree()

    def is_barrier_copy(c):
        return isinstance(c, il.Assign) and [l.name for l in c.lhss] == ["$$S$1", "$$S$2"]

    def own_havoc(c):
        own = {"_HAVOC_$$S$1": il.Var("_HAVOC_$$S$2")}
        return il.Assign(c.lhss, (c.rhss[0], il.substitute(c.rhss[1], own)))
    d.two = _mutate(d.two, lambda c: own_havoc(c) if is_barrier_copy(c) else c)
    assert _disagrees(d)


def test_harness_notices_a_wrong_uniformity_verdict():
    """Thread 2 using thread 1's copy of a variable (as if it were uniform)."""
    d = Differential(subject_from_text("nested.gbpl", NESTED, LaunchConfig((16, 1, 1), (2, 1, 1))))
    same = {"$j$2": il.Var("$j$1")}
    d.two = _mutate(d.two, lambda c: il.Assign(c.lhss, tuple(il.substitute(r, same) for r in c.rhss))
                    if isinstance(c, il.Assign) and [l.name for l in c.lhss] != ["$j$2"] else c)
    assert _disagrees(d)


# ----------------------------------------------------------------------- corpus


CORPUS = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "corpus").glob("*/*.c[lu]"))


@pytest.mark.parametrize("path", CORPUS)
def test_corpus_kernel(path, monkeypatch):
    monkeypatch.chdir(ROOT)
    try:
        d = Differential(load_corpus_kernel(path))
    except Unsupported as e:
        pytest.skip(str(e))
    lc = d.subject.launch
    if lc.local_size[0] * lc.local_size[1] * lc.local_size[2] * lc.num_groups[0] * lc.num_groups[1] \
            * lc.num_groups[2] == 1:
        pytest.skip("a one-thread launch: the two-thread program runs that thread twice, no pair to compare")
    outs = _check_all(d, SEEDS)
    if "preconditions or launch constraints are contradictory" in (ROOT / path).read_text().split("\n\n")[0]:
        # a kernel written to be vacuous (its header expects the vacuity warning): no input
        # satisfies its preconditions, so there is no run to compare
        assert not any(o.status == "agree" for o in outs)
        pytest.skip("contradictory preconditions by design: no input to run")
    assert any(o.status == "agree" for o in outs), "\n".join(map(str, outs))
