target triple = "spir-unknown-unknown"
target datalayout = "e-p:32:32"

define spir_kernel void @u(i32 %a) {
entry:
  %c = icmp eq i32 %a, 0
  br i1 %c, label %bad, label %ok
bad:
  unreachable
ok:
  ret void
}
