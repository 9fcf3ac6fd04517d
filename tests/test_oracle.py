"""The ground-truth oracle (tests/oracle, issue 9): reference, generator, printer, and the
soundness check of gpuverify on seeded generated kernels.

``test_generated_kernel_is_not_missed`` is the guard: for each seed the reference runs the
generated kernel on every thread of its launch and, when it sees a race, a failing
assertion or barrier divergence, gpuverify must not say Verified.
"""
from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from oracle import reference  # noqa: E402
from oracle.check import check_kernel, check_seed, classify, liven  # noqa: E402
from oracle.generate import Features, generate  # noqa: E402
from oracle.source import _Printer, launch_flags, render  # noqa: E402
from oracle.syntax import (ARITH, COMPARE, LOGIC, MASK, Array, Assert, Atomic, Barrier, Bin, Call,  # noqa: E402
                           Cond, Const, Decl, Eval, For, Function, Id, If, Kernel, Launch, Load, Return,
                           Store, Var)

# Constructs the front end or vcgen are known to get wrong while their fixes are under way
# (issue 9): the seeded run below leaves them out.  Remove a name once its fix is merged;
# test_known_hole_still_open tells when that is.
KNOWN_HOLES = Features()  # constructs left out while a soundness fix is under way (none now)
SEEDS = range(int(os.environ.get("ORACLE_SEEDS", "160")))
SLOW_SEEDS = range(SEEDS.stop, SEEDS.stop + 840)  # `make test-all`; `make fuzz` for thousands

LID, GID, GLOB = Id("lid", 0), Id("gid", 0), Id("glob", 0)
BOTH = frozenset(("local", "global"))


def kernel(body, arrays=(("G", "global", 16), ("L", "shared", 8)), local=(4,), groups=(2,), lang="opencl",
           functions=(), scalars=()) -> Kernel:
    """A kernel of ``body``; ``arrays``: (name, space, size) (shared arrays declared in the kernel)."""
    return Kernel("k", lang, Launch(local, groups), tuple(Array(*a, as_param=False) for a in arrays), scalars,
                  functions, tuple(body))


def observe(k: Kernel, fill: int = 0, schedule: str = "phases", reverse: bool = False) -> reference.Observation:
    mem = {}
    for a in k.arrays:
        for g in ([None] if a.space == "global" else range(k.launch.num_groups)):
            mem[(a.name, g)] = [fill] * a.size
    return reference.run(k, reference.Inputs(mem, {n: 2 for n in k.scalars}), schedule, reverse)


# ---------------------------------------------------------------------- the reference


def test_exchange_through_shared_memory_with_barrier_is_clean():
    k = kernel([Store("L", LID, LID), Barrier(BOTH, 1),
                Store("G", GLOB, Load("L", Bin("%", Bin("+", LID, Const(1)), Const(4))))])
    obs = observe(k)
    assert obs.problems == [] and obs.benign == []
    assert obs.accesses == 3 * 8


def test_exchange_without_barrier_races_within_the_group():
    k = kernel([Store("L", LID, LID), Store("G", GLOB, Load("L", Bin("%", Bin("+", LID, Const(1)), Const(4))))])
    obs = observe(k)
    assert obs.kinds() == {"race"}
    assert all("within a group" in p.text and "L[" in p.text for p in obs.problems)


def test_barrier_does_not_order_threads_of_different_groups():
    # thread 3 of group 0 reads G[4], written by thread 0 of group 1
    k = kernel([Store("G", GLOB, LID), Barrier(BOTH, 1), Store("G", Bin("+", GLOB, Const(8)),
                                                               Load("G", Bin("+", GLOB, Const(1))))])
    texts = [p.text for p in observe(k).problems]
    assert any("G[4] between groups" in t for t in texts)
    assert not any("within a group" in t for t in texts)


def test_shared_arrays_are_separate_storage_per_group():
    k = kernel([Store("L", LID, GID)])
    assert observe(k).problems == []


def test_fence_covers_only_its_memory_space():
    body = lambda fences: [Store("G", GLOB, LID), Barrier(fences, 1),
                           Store("G", Bin("+", GLOB, Const(8)), Load("G", Bin("^", GLOB, Const(1))))]
    assert observe(kernel(body(frozenset(("local",))))).kinds() == {"race"}
    assert observe(kernel(body(frozenset(("global",))))).problems == []
    # CUDA's __syncthreads orders both spaces whatever the AST says
    assert observe(kernel(body(frozenset(("local",))), lang="cuda")).problems == []


def test_same_value_write_write_races_are_benign():
    same = observe(kernel([Store("L", Const(0), Const(7))]))
    assert same.problems == [] and len(same.benign) == 2  # one per group's storage
    different = observe(kernel([Store("L", Const(0), LID)]))
    assert different.kinds() == {"race"}


def test_atomics_race_only_with_plain_accesses():
    add = Eval(Atomic("add", "G", Const(0), Const(1)))
    assert observe(kernel([add])).problems == []
    k = kernel([add, Decl("x", Load("G", Const(0)))])
    assert observe(k).kinds() == {"race"}
    # the atomics really happened: 8 increments
    m = reference._Machine(k, reference.Inputs({("G", None): [0] * 16, ("L", 0): [0] * 8, ("L", 1): [0] * 8}, {}),
                           1000)
    th = reference._Thread(k, (0,), (0,))
    for _ in range(8):
        m.ev(Atomic("add", "G", Const(0), Const(1)), th, {})
    assert m.mem[("G", None)][0] == 8


def test_barrier_in_divergent_code_is_divergence():
    k = kernel([If(Bin("<", LID, Const(2)), (Barrier(BOTH, 1),))])
    assert observe(k).kinds() == {"divergence"}
    uniform = kernel([If(Bin("==", GID, Const(0)), (Barrier(BOTH, 1),))])
    assert observe(uniform).problems == []


def test_barrier_in_loop_with_thread_dependent_trip_count_is_divergence():
    k = kernel([For("i", LID, 1, (Barrier(BOTH, 1),))])
    assert observe(k).kinds() == {"divergence"}
    # same static barrier, different iterations: still divergence (lock-step reading)
    k = kernel([For("i", Const(4), 1, (If(Bin("==", Var("i"), LID), (Barrier(BOTH, 1),)),))])
    assert observe(k).kinds() == {"divergence"}
    assert observe(kernel([For("i", Bin("+", GID, Const(1)), 1, (Barrier(BOTH, 1),))])).problems == []


def test_return_ends_the_thread_and_a_later_barrier_diverges():
    k = kernel([If(Bin("==", LID, Const(0)), (Return(),)), Store("L", LID, LID)])
    obs = observe(k)
    assert obs.problems == [] and obs.accesses == 6
    k = kernel([If(Bin("==", LID, Const(0)), (Return(),)), Barrier(BOTH, 1)])
    assert observe(k).kinds() == {"divergence"}
    k = kernel([For("i", Const(3), 1, (If(Bin("==", GID, Const(0)), (Return(),)), Barrier(BOTH, 1)))])
    assert observe(k).problems == []


def test_failing_assertion_names_the_thread():
    obs = observe(kernel([Assert(Bin("!=", LID, Const(3)), 1)]))
    assert obs.kinds() == {"assert"}
    assert [p.text for p in obs.problems] == ["__assert #1 fails for thread 3 of group 0",
                                              "__assert #1 fails for thread 3 of group 1"]
    assert observe(kernel([Assert(Bin("<", LID, Id("lsize", 0)), 1)])).problems == []


def test_short_circuit_skips_reads():
    # only thread 0 reads L[1], which thread 1 writes: a race; with `&&` the others skip the read
    k = kernel([Store("L", LID, LID),
                If(Bin("&&", Bin("==", LID, Const(0)), Bin("==", Load("L", Const(1)), Const(0))),
                   (Store("G", Const(15), Const(1)),))])
    texts = [p.text for p in observe(k).problems]
    assert len(texts) == 2 and all("race on L[1] within a group: read by thread 0" in t for t in texts)
    k = kernel([Store("L", LID, LID),
                If(Bin("&&", Bin("==", LID, Const(9)), Bin("==", Load("L", Const(1)), Const(0))),
                   (Store("G", Const(15), Const(1)),))])
    assert observe(k).problems == []


def test_read_in_called_function_with_unused_result_races():
    f = Function("f", (("p", "ptr:shared"), ("a", "value")), (Decl("r", Load("p", Var("a"))),), Var("r"))
    k = kernel([Eval(Call("f", (Var("L"), Bin("%", Bin("+", LID, Const(1)), Const(4))))), Store("L", LID, LID)],
               functions=(f,))
    obs = observe(k)
    assert obs.kinds() == {"race"} and "read" in obs.problems[0].text


def test_two_dimensional_ids():
    k = kernel([Store("G", Bin("+", Bin("*", Id("glob", 1), Const(4)), Id("glob", 0)), Id("lid", 1))],
               local=(2, 2), groups=(2, 1))
    obs = observe(k)
    assert obs.problems == [] and obs.accesses == 8
    k = kernel([Store("G", Id("glob", 0), Id("lid", 1))], local=(2, 2), groups=(2, 1))
    assert observe(k).kinds() == {"race"}  # (x, 0) and (x, 1) write the same element


def test_every_schedule_sees_the_same_race():
    k = kernel([Store("G", GLOB, LID), Decl("x", Load("G", Bin("%", Bin("+", GLOB, Const(1)), Const(8))))])
    for schedule in ("phases", "groups"):
        for reverse in (False, True):
            assert observe(k, schedule=schedule, reverse=reverse).kinds() == {"race"}


def test_out_of_bounds_is_a_generator_bug_not_a_verdict():
    with pytest.raises(reference.ReferenceError, match="out of bounds"):
        observe(kernel([Store("L", Bin("+", LID, Const(6)), Const(0))]))


def test_step_budget():
    k = kernel([For("i", Const(MASK), 1, (Decl("x", Var("i")),))])
    with pytest.raises(reference.Budget):
        reference.run(k, reference.random_inputs(k, random.Random(0)), steps=5000)


# ---------------------------------------------------------------------- generator, printer


def test_generator_is_deterministic():
    for seed in (0, 7, 123):
        assert render(generate(seed)) == render(generate(seed))
    assert render(generate(1)) != render(generate(2))


def test_generated_kernels_stay_in_bounds_and_cover_the_features():
    used = set()
    kinds = set()
    for seed in range(300):
        for features in (Features(), Features.parse("no-dead-reads")):
            k = generate(seed, features)
            used |= k.features
            obs = reference.run(k, reference.random_inputs(k, random.Random(seed)))
            kinds |= obs.kinds()
            if not features.dead_reads:
                assert "unused-call" not in k.features
    assert {"2d", "loop", "divergent-loop", "barrier", "divergent-barrier", "atomic", "call", "unused-call",
            "assert", "benign", "data-branch", "single-thread-groups", "return"} <= used
    assert kinds == {"race", "assert", "divergence"}


def test_liven_keeps_the_accesses_and_makes_every_read_used():
    for seed in range(60):
        k = generate(seed)
        live = liven(k)
        src = render(live)
        assert src.rstrip().endswith("OUT[get_global_id(0)] = acc;\n}") or "OUT[" in src
        threads = k.launch.threads_per_group * k.launch.num_groups
        for run in range(2):
            inputs = reference.random_inputs(k, random.Random(run))
            a = reference.run(k, inputs)
            mem = dict(inputs.memory)
            mem[("OUT", None)] = [0] * threads
            b = reference.run(live, reference.Inputs(mem, inputs.scalars))
            if k.functions:  # their results change, and with them the values stored
                continue
            assert _texts(a) == _texts(b)
            if "return" not in k.features and not a.kinds() & {"divergence"}:
                assert b.accesses == a.accesses + threads  # the OUT stores, nothing else
    f = Function("f", (("p", "ptr:global"), ("a", "value")), (Decl("r", Load("p", Var("a"))),), None)
    k = kernel([Decl("x", Load("G", GLOB)), Eval(Call("f", (Var("G"), LID)))], functions=(f,))
    src = render(liven(k))
    assert "return (0u + r);" in src and "acc = (acc ^ x);" in src and "acc = (acc ^ f(G, get_local_id(0)));" in src


def _texts(obs) -> list:
    """Problem texts without the locals an assertion failure lists (liven adds ``acc``)."""
    return sorted(p.text.split(" (")[0] if p.kind == "assert" else p.text for p in obs.problems)


def test_printed_kernel_shapes():
    k = kernel([Store("L", LID, Bin("<", LID, Const(2))), Barrier(frozenset(("local",)), 1),
                Eval(Atomic("add", "G", Const(0), Const(1)))])
    ocl = render(k)
    assert "__kernel void k(__global unsigned *G) {" in ocl
    assert "__local unsigned L[8];" in ocl
    assert "L[get_local_id(0)] = ((unsigned)(get_local_id(0) < 2u));" in ocl
    assert "barrier(CLK_LOCAL_MEM_FENCE);" in ocl and "atomic_add(&G[0u], 1u);" in ocl
    k.lang = "cuda"
    cu = render(k)
    assert "__global__ void k(unsigned *G) {" in cu and "__shared__ unsigned L[8];" in cu
    assert "__syncthreads();" in cu and "atomicAdd(&G[0u], 1u);" in cu
    assert launch_flags(k) == ["--blockDim=4", "--gridDim=2"]
    k2 = kernel([], local=(2, 2), groups=(2, 1))
    assert launch_flags(k2) == ["--local_size=[2,2]", "--num_groups=[2,1]"]


def _random_expr(rng: random.Random, depth: int):
    if depth == 0 or rng.random() < 0.25:
        return rng.choice((Var("x"), Var("y"), Const(rng.choice((0, 1, 3, 31, 0x80000000, MASK)))))
    r = rng.random()
    if r < 0.1:
        return Cond(_random_expr(rng, depth - 1), _random_expr(rng, depth - 1), _random_expr(rng, depth - 1))
    op = rng.choice(ARITH + COMPARE + LOGIC)
    if op in ("/", "%"):
        return Bin(op, _random_expr(rng, depth - 1), Const(rng.randrange(1, 9)))
    if op in ("<<", ">>"):
        return Bin(op, _random_expr(rng, depth - 1), Const(rng.randrange(32)))
    return Bin(op, _random_expr(rng, depth - 1), _random_expr(rng, depth - 1))


def test_printed_expressions_mean_what_the_reference_computes(tmp_path):
    """The reference's 32-bit unsigned semantics against C's: the printed expressions
    compiled by clang and run natively give the reference's values (signed comparison
    results, shifts and conversions would otherwise differ)."""
    rng = random.Random(5)
    k = kernel([])
    printer = _Printer(k, "opencl")
    exprs = [_random_expr(rng, 4) for _ in range(150)]
    inputs = [(0, 0), (1, MASK), (0x80000000, 7), (123456789, 3)]
    src = ["#include <stdio.h>", "int main(void) {", "  unsigned xs[] = {" +
           ", ".join(f"{x}u" for x, _ in inputs) + "};",
           "  unsigned ys[] = {" + ", ".join(f"{y}u" for _, y in inputs) + "};",
           f"  for (int k = 0; k < {len(inputs)}; k++) {{", "    unsigned x = xs[k], y = ys[k];"]
    src += [f"    printf(\"%u\\n\", (unsigned)({printer.value(e)}));" for e in exprs]
    src += ["  }", "  return 0;", "}"]
    (tmp_path / "e.c").write_text("\n".join(src) + "\n")
    exe = tmp_path / "e"
    subprocess.run([sys.executable, "-m", "ziglang", "cc", "-O0", "-w", "-o", str(exe), str(tmp_path / "e.c")],
                   check=True, capture_output=True)
    got = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout.split()
    m = reference._Machine(k, reference.Inputs({("G", None): [0] * 16, ("L", 0): [0] * 8, ("L", 1): [0] * 8}, {}),
                           10 ** 9)
    th = reference._Thread(k, (0,), (0,))
    want = [str(m.ev(e, th, {"x": x, "y": y})) for x, y in inputs for e in exprs]
    assert got == want


# ---------------------------------------------------------------------- the check


def test_classification():
    assert classify(True, 0) == "miss" and classify(False, 0) == "verified"
    assert classify(True, 6) == "caught" and classify(False, 6) == "false-alarm"
    assert classify(True, 4) == "error" and classify(False, 7) == "timeout" and classify(True, None) == "timeout"


@pytest.mark.parametrize("seed", SEEDS)
def test_generated_kernel_is_not_missed(seed):
    r = check_seed(seed, KNOWN_HOLES)
    assert r.cls not in ("miss", "generator-bug", "error"), r.report()


@pytest.mark.slow
@pytest.mark.parametrize("seed", SLOW_SEEDS)
def test_more_generated_kernels_are_not_missed(seed):
    r = check_seed(seed, KNOWN_HOLES)
    assert r.cls not in ("miss", "generator-bug", "error"), r.report()


# A read whose value is unused races like any other (issue 9 cause 1: the front end's
# DCE used to delete it).
def test_dead_read_is_caught():
    k = kernel([Decl("x", Load("G", Bin("%", Bin("+", GLOB, Const(1)), Const(8)))), Store("G", GLOB, LID)])
    r = check_kernel(k, 0)
    assert r.problems and "read" in r.problems[0]
    assert r.cls == "caught", r.report()
