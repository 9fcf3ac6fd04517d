; bugle translate: a volatile load or store (bugle.keep_accesses marks every access to
; non-private memory volatile) is translated exactly like a plain one, also when its
; value is unused; `undef`, `poison` and `freeze` of them are havocked variables, one per
; use for undef/poison and one per freeze, never constants; an undef pointer has an
; arbitrary base and offset (so `p == null` is not folded to true).
; RUN: %bugle translate %s -o - | %FileCheck %s
; RUN: %bugle translate %s -o %t.gbpl
; RUN: %vcgen lockstep %t.gbpl -o - --local_size=4 --num_groups=1 | %FileCheck %s --check-prefix=TWO
; CHECK: procedure {:kernel} {{.*}}$k()
; CHECK: $entry:
; CHECK-NEXT: $lid := local_id_x;
; CHECK-NEXT: $at := $lid;
; CHECK-NEXT: assume {:sourceloc {{.*}}} true;
; CHECK-NEXT: $dead := $$p[$at];
; CHECK-NEXT: assume {:sourceloc {{.*}}} true;
; CHECK-NEXT: $plain := $$p[$at];
; CHECK-NEXT: assume {:sourceloc {{.*}}} true;
; CHECK-NEXT: $$p[$at] := 7bv32;
; CHECK-NEXT: havoc $undef$1;
; CHECK-NEXT: $f := $undef$1;
; CHECK-NEXT: $same := $f == $f;
; CHECK-NEXT: havoc $undef$2;
; CHECK-NEXT: $g := BV32_ADD($undef$2, 1bv32);
; CHECK-NEXT: havoc $undef$3;
; CHECK-NEXT: havoc $undef$4;
; CHECK-NEXT: $isnull := ($undef$3 == 0) && ($undef$4 == 0bv32);
; CHECK-NEXT: return;
; The dead read is logged for thread 1 and checked for thread 2 like the plain one;
; each thread havocs its own copy of an undefined value.
; TWO: $at$1, $at$2 := $lid$1, $lid$2;
; TWO-NEXT: havoc _log$1;
; TWO-NEXT: _READ_HAS_OCCURRED_$$p, _READ_OFFSET_$$p, _READ_SOURCE_$$p := if _log$1 then true
; TWO-NEXT: assert {:race "write-read", "$$p"}
; TWO: $dead$1 :=
; TWO: havoc $undef$1$1;
; TWO-NEXT: havoc $undef$1$2;
target datalayout = "e-p:32:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-G1"
target triple = "spir-unknown-unknown"

declare spir_func i32 @_Z12get_local_idj(i32)

define spir_kernel void @k(ptr addrspace(1) %p) {
entry:
  %lid = call spir_func i32 @_Z12get_local_idj(i32 0)
  %at = getelementptr inbounds i32, ptr addrspace(1) %p, i32 %lid
  %dead = load volatile i32, ptr addrspace(1) %at, align 4
  %plain = load i32, ptr addrspace(1) %at, align 4
  store volatile i32 7, ptr addrspace(1) %at, align 4
  %f = freeze i32 undef
  %same = icmp eq i32 %f, %f
  %g = add i32 poison, 1
  %isnull = icmp eq ptr addrspace(1) undef, null
  ret void
}
