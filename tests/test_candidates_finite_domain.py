"""Rule fd (finite domains of pointer bases and offsets; an extension, not one of paper
003's rules): vcgen/candidates/finite_domain.py."""
from types import SimpleNamespace

from test_candidates_harness import candidates, check_essential

from vcgen.candidates.finite_domain import domains
from vcgen.il.parser import parse_program


def test_fd_essential_for_pingpong_between_two_buffers():
    check_essential("fd_pingpong.cl", ("fd",))


def test_fd_essential_for_pingpong_between_halves_of_one_buffer():
    check_essential("fd_halves.cl", ("fd",))


def test_shapes_two_buffers():
    fd = {e for r, e in candidates("fd_pingpong.cl") if r == "fd"}
    assert "($src.i.0$base == 3) || ($src.i.0$base == 4)" in fd
    assert "($dst.i.0$base == 3) || ($dst.i.0$base == 4)" in fd
    assert "$dst.i.0$base != $src.i.0$base" in fd
    assert "$src.i.0 == 0bv32" in fd  # the offsets are swapped too, always 0
    # bases are uniform (one copy), and SSA temporaries of the loop get nothing
    assert not any("$1" in e or "arrayidx" in e for e in fd)


def test_shapes_halves():
    fd = {e for r, e in candidates("fd_halves.cl") if r == "fd"}
    assert fd == {"($src.i.0 == 0bv32) || ($src.i.0 == 64bv32)",
                  "($dst.i.0 == 0bv32) || ($dst.i.0 == 64bv32)", "$dst.i.0 != $src.i.0"}


def test_shapes_non_uniform_bases():
    fd = {e for r, e in candidates("fd_divergent_loop.cl") if r == "fd"}
    assert "($src.i.0$base$1 == 3) || ($src.i.0$base$1 == 4)" in fd
    assert "($src.i.0$base$2 == 3) || ($src.i.0$base$2 == 4)" in fd
    assert "$dst.i.0$base$1 != $src.i.0$base$1" in fd
    assert any(e.endswith("==> ($src.i.0$base$1 == $src.i.0$base$2)") and "cur$1 ==" in e for e in fd)


PROC = """
procedure {:kernel} $k($n: bv32) {
  var $p: int; var $q: int; var $t: int; var $u: int; var $h: int; var $o: bv32; var $x: bv32; var $f: bv32;
  $entry:
    $p, $q, $o := 1, 2, 0bv32;
    $t := $p;
    $p, $q := $q, $t;
    $u := if $n == 0bv32 then $p else 7;
    $x := $n;
    $f := BV32_ADD($f, 1bv32);
    $o := if $n == 1bv32 then 16bv32 else $o;
    havoc $h;
    return;
}
"""


def test_domains_closure_over_copies_and_selects():
    from vcgen import il
    proc = parse_program(PROC).kernel()
    ls = SimpleNamespace(kernel=proc, local_types={v.name: v.type for v in proc.locals})
    d = domains(ls)
    ints = lambda *ks: frozenset(il.IntLit(k) for k in ks)
    assert d["$p"] == d["$q"] == d["$t"] == ints(1, 2)
    assert d["$u"] == ints(1, 2, 7)
    assert d["$o"] == frozenset({il.BvLit(0, 32), il.BvLit(16, 32)})
    assert "$x" not in d and "$f" not in d and "$h" not in d  # parameter, arithmetic, havoc
