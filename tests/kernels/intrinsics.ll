; Hand-written IR: exact integer intrinsics, overflow arithmetic, floats, i1 values.
target datalayout = "e-p:32:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-G1"
target triple = "spir-unknown-unknown"

define spir_kernel void @intr(ptr addrspace(1) %out, i32 %a, i32 %b, float %f) !dbg !5 {
entry:
  %mx = call i32 @llvm.smax.i32(i32 %a, i32 %b), !dbg !8
  %pc = call i32 @llvm.ctpop.i32(i32 %mx), !dbg !8
  %ov = call { i32, i1 } @llvm.sadd.with.overflow.i32(i32 %a, i32 %b), !dbg !8
  %sum = extractvalue { i32, i1 } %ov, 0
  %flag = extractvalue { i32, i1 } %ov, 1
  %z = zext i1 %flag to i32
  %r = add i32 %sum, %z
  %g = fmul float %f, 2.0
  %lt = fcmp olt float %g, %f
  %s = select i1 %lt, i32 %r, i32 %pc
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %a
  store i32 %s, ptr addrspace(1) %p, align 4, !dbg !9
  ret void
}

declare i32 @llvm.smax.i32(i32, i32)
declare i32 @llvm.ctpop.i32(i32)
declare { i32, i1 } @llvm.sadd.with.overflow.i32(i32, i32)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_OpenCL, file: !1, producer: "hand", isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "intr.cl", directory: "src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "intr", scope: !1, file: !1, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!8 = !DILocation(line: 2, column: 3, scope: !5)
!9 = !DILocation(line: 7, column: 5, scope: !5)
