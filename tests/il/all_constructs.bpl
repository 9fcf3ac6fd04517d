// Parser sample: every construct of docs/IL.md (not meant to type-check).
type T = bv32;
type {:x} U;
const {:local_id_x} local_id_x: bv32;
const unique a, b: int;
axiom {:foo "s\"q", 3} a == -5;
var {:source_name "p"} {:global} {:elem_width 32} $$p: [bv32]bv32;
function {:bvbuiltin "bvadd"} BV32_ADD(bv32, bv32): bv32;
function f(x: int, y: int): bool { x < y && y < 10 && (false || x > 1 || true) }
procedure {:barrier} $bugle_barrier(local_fence: bv1, global_fence: bv1);
procedure {:kernel} $foo($n: bv32) returns (r: int)
  requires {:sourceloc "k.cl", 3, 1} BV32_ADD($n, 0bv32) == 1bv32;
  free ensures r > 0;
  modifies $$p;
{
  var $i: bv32;
  var m, m2: [int]bool;
  $entry:
    assume {:sourceloc "k.cl", 3, 1} true;
    $i := $$p[0bv32];
    $$p[$i] := 1bv32; // comment
    /* block
    comment */
    r, $i := x-5 * -3 div 2 mod 1, ($i ++ $i)[32:0];
    m := m[1 := !m[2]][3 := (forall q: int, z: bool :: {:a} q == -5 ==> z <==> z)];
    havoc r, m;
    call {:sourceloc "k.cl", 1, 1} $bugle_barrier(1bv1, 0bv1);
    call r := g(old(r), if r > 0 then 1 else 2);
    assert {:user_assert} (exists x: int :: x - -1 >= 0);
    goto $a, $b;
  $a:
    return;
  $b:
    return;
}
function {:bvbuiltin "zero_extend 24"} BV8_ZEXT32(bv8): bv32;
procedure decl_only(a: int) returns (b: int, c: bool);
  requires a > 0;
  modifies $$p, $$q;
  ensures {:x} b == old(a) + 1;
axiom (exists x: [bv32]bv8 :: {:attr} x[0bv32] == 1bv8 && x == x[1bv32 := 2bv8]);
axiom if true then false else true;
