; bugle translate on hand-written LLVM IR (no debug info): a branch on a comparison
; becomes edge blocks starting with complementary {:partition} assumes, the phi
; becomes parallel assignments in the edge blocks, a global-memory pointer
; argument becomes a {:global} array indexed in elements.
; RUN: %bugle translate %s -o - | %FileCheck %s
; CHECK: var {:source_name "p"} {:global} {:elem_width 32} {{.*}}$$p: [bv32]bv32;
; CHECK: procedure {:kernel} {:source_name "k"} {:language "opencl"} {{.*}}$k($n: bv32)
; CHECK: $entry:
; CHECK: goto $entry$to$then, $entry$to$join;
; CHECK: $entry$to$then:
; CHECK-NEXT: assume {:partition} $c;
; CHECK: $entry$to$join:
; CHECK-NEXT: assume {:partition} !$c;
; CHECK-NEXT: $v := 0bv32;
; CHECK: $then:
; CHECK: assume {:sourceloc {{.*}}} true;
; CHECK-NEXT: $$p[$idx] := $n;
; CHECK-NEXT: $v := 1bv32;
; CHECK: $join:
; CHECK-NOT: phi
; CHECK: return;
target datalayout = "e-p:32:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-G1"
target triple = "spir-unknown-unknown"

declare spir_func i32 @_Z12get_local_idj(i32)

define spir_kernel void @k(ptr addrspace(1) %p, i32 %n) {
entry:
  %lid = call spir_func i32 @_Z12get_local_idj(i32 0)
  %c = icmp ult i32 %lid, %n
  br i1 %c, label %then, label %join
then:
  %idx = getelementptr inbounds i32, ptr addrspace(1) %p, i32 %lid
  store i32 %n, ptr addrspace(1) %idx, align 4
  br label %join
join:
  %v = phi i32 [ 0, %entry ], [ 1, %then ]
  %last = getelementptr inbounds i32, ptr addrspace(1) %p, i32 %v
  store i32 %v, ptr addrspace(1) %last, align 4
  ret void
}
