// bugle cc: an OpenCL kernel becomes a spir_kernel function in LLVM IR, the barrier
// stays a call, and -D definitions reach the preprocessor (SCALE is a macro below).
// RUN: %bugle cc %s -D SCALE=3 -o - | %FileCheck %s
// RUN: %bugle cc %s -DSCALE=7 -o - | %FileCheck %s --check-prefix=SEVEN
// Without the definition the #error fires: clang's diagnostic, exit code 2.
// RUN: not %bugle cc %s -o - 2>&1 | %FileCheck %s --check-prefix=NODEF
// CHECK: target triple = "spir-unknown-unknown"
// CHECK: define {{.*}}spir_kernel void @scale(ptr addrspace(1) {{.*}}%p, ptr addrspace(3) {{.*}}%s)
// CHECK: mul {{.*}}i32 {{.*}}, 3
// CHECK: call {{.*}}@_Z7barrierj(i32 {{.*}}1)
// CHECK: ret void
// CHECK: DISubprogram(name: "scale"
// SEVEN: mul {{.*}}i32 {{.*}}, 7
// NODEF: error: SCALE must be defined
#ifndef SCALE
#error SCALE must be defined
#endif
__kernel void scale(__global int *p, __local int *s) {
  unsigned i = get_local_id(0);
  s[i] = p[i] * SCALE;
  barrier(CLK_LOCAL_MEM_FENCE);
  p[i] = s[i + 1];
}
