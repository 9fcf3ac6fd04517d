"""Interpreter tests: concrete results on small one- and two-thread IL programs."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
import z3
from click.testing import CliRunner

from vcgen import il
from vcgen.interp.interpreter import Interpreter
from vcgen.interp.values import InterpError, MapVal
from vcgen.interp.bvops import bv_builtin as _bv_builtin
from vcgen.interp.cli import run_command
from vcgen.il.parser import parse_file, parse_program

IL_DIR = Path(__file__).parent / "il"


def load(name: str) -> il.Program:
    return parse_file(str(IL_DIR / name))


# ----------------------------------------------------------------- one thread


def test_sum_loop():
    r = Interpreter(load("sum_loop.gbpl"), params={"$n": 10}, consts={"local_id_x": 2}).run()
    assert r.feasible and not r.assert_failures
    assert r.final_locals["$s"] == 45 and r.final_locals["$i"] == 10
    assert r.consts["group_size_x"] == 4  # from the axiom
    kinds = [(e.kind, e.map, e.index) for e in r.events]
    assert kinds == [("write", "$$out", 2), ("barrier", None, None), ("read", "$$out", 0)]
    assert r.events[0].value == 45 and r.events[0].sourceloc == ("sum.cl", 5, 3)
    assert r.events[1].args == (1, 1) and r.events[1].sourceloc == ("sum.cl", 6, 3)
    assert r.events[2].sourceloc == ("sum.cl", 7, 3)
    assert r.final_globals["$$out"].get(2) == 45
    assert r.final_locals["$r"] == r.events[2].value


def test_random_inputs_satisfy_axioms_and_requires():
    p = load("sum_loop.gbpl")
    seen = set()
    for seed in range(30):
        r = Interpreter(p, seed=seed).run()
        lid, n = r.consts["local_id_x"], r.params["$n"]
        assert lid < 4 and n < 20
        assert r.final_locals["$s"] == n * (n - 1) // 2
        seen.add(lid)
    assert len(seen) > 1  # really random


def test_same_seed_same_run():
    p = load("sum_loop.gbpl")
    a, b = Interpreter(p, seed=7).run(), Interpreter(p, seed=7).run()
    assert a.to_json() == b.to_json()


def test_with_inputs_runs_as_a_fresh_interpreter():
    """``with_inputs`` shares the compiled program (DYN runs one program many times) and
    runs exactly as an interpreter built with those inputs; the original is unchanged."""
    p = load("sum_loop.gbpl")
    base = Interpreter(p, seed=1)
    for seed, n in ((7, 5), (8, 12)):
        again = base.with_inputs({"local_id_x": 3}, {"$n": n}, seed).run()
        fresh = Interpreter(p, consts={"local_id_x": 3}, params={"$n": n}, seed=seed).run()
        assert again.to_json() == fresh.to_json()
        assert again.final_locals["$s"] == n * (n - 1) // 2
    assert base.run().to_json() == Interpreter(p, seed=1).run().to_json()


def test_bv_ops():
    r = Interpreter(load("bv_ops.gbpl")).run()
    v = r.final_locals
    assert v["wrap"] == 4                   # 250 + 10 wraps in bv8
    assert v["sdiv"] == 2**32 - 3           # -7 / 2 = -3 (truncating)
    assert v["srem"] == 2**32 - 1           # -7 rem 2 = -1
    assert v["udiv0"] == 2**32 - 1         # x udiv 0 = all ones
    assert v["ashr"] == 2**32 - 1
    assert v["sext"] == 0xFFFFFF80 and v["zext"] == 0x80
    assert v["lo"] == 0x78 and v["cat"] == 0x1234
    assert v["f1"] == v["f2"]               # uninterpreted: same args, same result
    assert v["a"] == 7
    assert (v["m"], v["d"]) == (1, -4)      # Euclidean int mod/div


SMT_OPS = ["bvadd", "bvsub", "bvmul", "bvudiv", "bvsdiv", "bvurem", "bvsrem", "bvsmod",
           "bvand", "bvor", "bvxor", "bvshl", "bvlshr", "bvashr", "bvult", "bvule", "bvugt",
           "bvuge", "bvslt", "bvsle", "bvsgt", "bvsge", "bvnot", "bvneg", "zero_extend 3",
           "sign_extend 5", "extract 2 1", "concat"]
Z3_OPS = {
    "bvadd": lambda a, b: a + b, "bvsub": lambda a, b: a - b, "bvmul": lambda a, b: a * b,
    "bvudiv": z3.UDiv, "bvsdiv": lambda a, b: a / b, "bvurem": z3.URem, "bvsrem": z3.SRem,
    "bvsmod": lambda a, b: a % b, "bvand": lambda a, b: a & b, "bvor": lambda a, b: a | b,
    "bvxor": lambda a, b: a ^ b, "bvshl": lambda a, b: a << b, "bvlshr": z3.LShR,
    "bvashr": lambda a, b: a >> b, "bvult": z3.ULT, "bvule": z3.ULE, "bvugt": z3.UGT,
    "bvuge": z3.UGE, "bvslt": lambda a, b: a < b, "bvsle": lambda a, b: a <= b,
    "bvsgt": lambda a, b: a > b, "bvsge": lambda a, b: a >= b, "bvnot": lambda a: ~a,
    "bvneg": lambda a: -a, "zero_extend 3": lambda a: z3.ZeroExt(3, a),
    "sign_extend 5": lambda a: z3.SignExt(5, a), "extract 2 1": lambda a: z3.Extract(2, 1, a),
    "concat": z3.Concat,
}


@pytest.mark.parametrize("op", SMT_OPS)
def test_bv_builtins_agree_with_z3(op):
    rng = random.Random(op)
    unary = op in ("bvnot", "bvneg") or " " in op
    for w in (3, 8, 32):
        f = _bv_builtin(op, [w] if unary else [w, w], "F")
        specials = [0, 1, (1 << w) - 1, 1 << (w - 1), (1 << (w - 1)) - 1]
        for _ in range(40):
            a = rng.choice(specials + [rng.randrange(1 << w)])
            b = rng.choice(specials + [rng.randrange(1 << w)])
            args = (a,) if unary else (a, b)
            ref = z3.simplify(Z3_OPS[op](*(z3.BitVecVal(x, w) for x in args)))
            want = z3.is_true(ref) if z3.is_bool(ref) else ref.as_long()
            assert f(*args) == want, (op, w, args)


def test_backtracking_goto():
    p = load("backtrack.gbpl")
    r = Interpreter(p, params={"$x": 5}).run()  # $a abandoned, $b taken
    assert r.final_locals["r"] == 2 and r.final_locals["t"] == 10
    # the failure in the abandoned path $a is not reported; the one in $end is
    assert [f.sourceloc for f in r.assert_failures] == [("bt.cl", 9, 5)]
    assert r.assert_failures[0].attrs[0] == il.Attr("user_assert")
    r = Interpreter(p, params={"$x": 4}).run()  # $a and $b abandoned
    assert r.final_locals["r"] == 3 and not r.assert_failures
    r = Interpreter(p, params={"$x": 200}).run()
    assert r.final_locals["r"] == 1 and [f.sourceloc for f in r.assert_failures] == [("bt.cl", 1, 1)]


def test_stop_on_failure():
    r = Interpreter(load("backtrack.gbpl"), params={"$x": 200}, stop_on_failure=True).run()
    assert r.stopped and len(r.assert_failures) == 1 and r.final_locals["t"] == 201
    assert "r" in r.final_locals


def test_no_feasible_path():
    p = parse_program("procedure {:kernel} k(x: int) { A: goto B, C; B: assume x > 0; return; "
                      "C: assume x < 0; return; }")
    assert not Interpreter(p, params={"x": 0}).run().feasible
    assert Interpreter(p, params={"x": 1}).run().feasible


def test_step_bound():
    p = parse_program("procedure {:kernel} k() { A: goto A; }")
    with pytest.raises(InterpError, match="step bound"):
        Interpreter(p, max_steps=1000).run()


def test_axioms_unsatisfiable_and_given_values():
    p = parse_program("const c: int; axiom c == 1; axiom c == 2; procedure {:kernel} k() { A: return; }")
    with pytest.raises(InterpError, match="cannot satisfy"):
        Interpreter(p).run()
    p = parse_program("const c: int; axiom c > 3; procedure {:kernel} k() { A: return; }")
    assert Interpreter(p, seed=1).run().consts["c"] > 3
    with pytest.raises(InterpError, match="c > 3"):
        Interpreter(p, consts={"c": 2}).run()
    with pytest.raises(InterpError, match="no constant"):
        Interpreter(p, consts={"nope": 2}).run()


def test_havoc_policy_and_uninitialised_maps():
    p = parse_program("var m: [int]int; procedure {:kernel} k() returns (a: int, b: int, c: int, d: bool)"
                      "{ A: a := 5; havoc a; b := 7; havoc b; c, d := m[3], m[3] == m[3]; return; }")
    keep_a = lambda name, t, old, rng: old if name == "a" else None
    r = Interpreter(p, havoc_policy=keep_a, seed=2).run()
    assert r.final_locals["a"] == 5 and r.final_locals["d"] is True
    assert Interpreter(p, seed=2).run().final_locals["c"] == r.final_locals["c"]  # deterministic
    r = Interpreter(p, consts={"m": {3: 42}}).run()
    assert r.final_locals["c"] == 42


def test_call_with_body_and_bodyless():
    p = parse_program("""
var g: int;
procedure inc(x: int) returns (y: int)
  requires x >= 0;
  ensures y == x + 1;
{ A: y := x + 1; g := g + 1; return; }
procedure ext() returns (z: int);
  modifies g;
  ensures z > 10 && g == 0;
procedure {:kernel} k() returns (a: int, b: int, c: int)
  requires g == 0;
{ A: call a := inc(1); call b := inc(-1); call c := ext(); return; }
""")
    r = Interpreter(p).run()
    assert r.final_locals["a"] == 2 and r.final_locals["b"] == 0 and r.final_locals["c"] > 10
    assert [f.kind for f in r.assert_failures] == ["requires"]
    assert r.final_globals["g"] == 0


# ------------------------------------------------------------------ two threads


def test_two_thread_race_found_and_not_found():
    p = load("race_pair.bpl")
    r = Interpreter(p, consts={"local_id_x$1": 3, "local_id_x$2": 3}).run()
    assert len(r.assert_failures) == 1
    f = r.assert_failures[0]
    assert f.attr_values["race"] == ["write-write", "$$A"]
    assert f.attr_values["check_offset"] == [3] and f.sourceloc == ("k.cl", 3, 5)
    assert [(e.kind, e.index) for e in r.events] == [("write", 3), ("assert", None), ("write", 3)]
    r = Interpreter(p, consts={"local_id_x$1": 3, "local_id_x$2": 5}).run()
    assert not r.assert_failures
    assert r.final_globals["$$A"].get(5) == 5


def test_map_values():
    m = MapVal(1, il.BV8)
    assert m.get(4) == m.get(4) and 0 <= m.get(4) < 256
    n = m.stored(4, 9)
    assert n.get(4) == 9 and m.entries == {}  # stored() copies
    assert n == m.stored(4, 9) and n.get(5) == m.get(5)
    assert (n == m) == (m.get(4) == 9)
    assert MapVal(2, il.BV8) != m  # different pseudo-random contents


# ------------------------------------------------------------------------ CLI


def test_cli_text_and_json():
    runner = CliRunner()
    res = runner.invoke(run_command, [str(IL_DIR / "race_pair.bpl"), "--set", "local_id_x$1=3",
                                      "--set", "local_id_x$2=0x3"])
    assert res.exit_code == 6, res.output
    assert "write   $$A[3] := 3 at k.cl:3:5" in res.output
    assert 'assertion failed at k.cl:3:5: assert {:race "write-write", "$$A"}' in res.output
    res = runner.invoke(run_command, [str(IL_DIR / "sum_loop.gbpl"), "--set", "$n=3", "--json",
                                      "--set", "$$out[1]=5bv32"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["final_locals"]["$s"] == 3 and data["initial_globals"]["$$out"]["cells"]["1"] == 5


def test_cli_errors(tmp_path):
    runner = CliRunner()
    bad = tmp_path / "bad.gbpl"
    bad.write_text("procedure {:kernel} k() {\n A: x := ; return; }")
    res = runner.invoke(run_command, [str(bad)])
    assert res.exit_code == 5 and "bad.gbpl:2:10: parse error" in res.output
    bad.write_text("const c: int; axiom c == 1 && c == 2; procedure {:kernel} k() { A: return; }")
    res = runner.invoke(run_command, [str(bad)])
    assert res.exit_code == 5 and "cannot satisfy" in res.output
    bad.write_text("procedure {:kernel} k() { A: assume false; return; }")
    res = runner.invoke(run_command, [str(bad)])
    assert res.exit_code == 5 and "no feasible path" in res.output
    res = runner.invoke(run_command, [str(tmp_path / "missing.gbpl")])
    assert res.exit_code == 1 and "not found" in res.output
    assert "Traceback" not in res.output
