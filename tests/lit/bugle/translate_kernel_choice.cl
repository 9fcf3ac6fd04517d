// bugle translate with several kernels in one module: --kernel picks one by its source
// name; without it (or with an unknown name) translation fails with exit code 4
// (BUGLE_ERROR) and a message listing the kernels.  The driver verifies every kernel of
// the file unless --kernel names one.
// RUN: %bugle cc %s -o %t.ll
// RUN: %bugle translate %t.ll --kernel=second -o - | %FileCheck %s
// RUN: %python %S/../verify/Inputs/expect_exit.py 4 %bugle translate %t.ll -o - 2>&1 | %FileCheck %s --check-prefix=MANY
// RUN: %python %S/../verify/Inputs/expect_exit.py 4 %bugle translate %t.ll --kernel=third -o - 2>&1 | %FileCheck %s --check-prefix=NONE
// RUN: %gpuverify --local_size=4 --num_groups=2 %s | %FileCheck %s --check-prefix=ALL
// RUN: %gpuverify --local_size=4 --num_groups=2 --kernel=first %s | %FileCheck %s --check-prefix=FIRST
// CHECK: var {:source_name "q"} {:global}
// CHECK-NOT: $$p
// CHECK: procedure {:kernel} {:source_name "second"}
// MANY: error: several kernels {{.*}}--kernel: first, second
// NONE: error: no kernel named third
// ALL: Verified: {{.*}}translate_kernel_choice.cl
// ALL: for every kernel of the file: first, second
// FIRST: Verified: {{.*}}translate_kernel_choice.cl
__kernel void first(__global int *p) { p[get_global_id(0)] = 1; }
__kernel void second(__global int *q) { q[0] = 2; }
