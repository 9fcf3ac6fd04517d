// --kernel-args fixes scalar arguments in source order (pointers take *): the strided
// scatter races for an arbitrary stride and is race-free for stride 1. Bad values are
// one-line command-line errors (exit 1).
// RUN: %python %S/../verify/Inputs/expect_exit.py 6 %gpuverify --local_size=32 --num_groups=2 %s | %FileCheck --check-prefix=FREE %s
// RUN: %gpuverify --local_size=32 --num_groups=2 --kernel-args=scatter,*,*,1 %s | %FileCheck --check-prefix=FIXED %s
// RUN: %python %S/../verify/Inputs/expect_exit.py 1 %gpuverify --local_size=32 --num_groups=2 --kernel-args=scatter,*,*,-1 %s 2>&1 | %FileCheck --check-prefix=RANGE %s
// RUN: %python %S/../verify/Inputs/expect_exit.py 1 %gpuverify --local_size=32 --num_groups=2 --kernel-args=scatter,1,*,1 %s 2>&1 | %FileCheck --check-prefix=PTR %s
// RUN: %python %S/../verify/Inputs/expect_exit.py 1 %gpuverify --local_size=32 --num_groups=2 --kernel-args=gather,*,*,1 %s 2>&1 | %FileCheck --check-prefix=NAME %s
// FREE: error: possible write-write race on out[
// FREE: Kernel arguments: stride = {{[0-9]+}}
// FIXED: Verified: {{.*}}kernel_args.cl
// RANGE: error: --kernel-args: value -1 for stride is out of range for a 32-bit uint argument (0..4294967295)
// PTR: error: --kernel-args: parameter in is a pointer: its value must be *
// NAME: error: --kernel-args: no kernel named gather in {{.*}}kernel_args.cl
__kernel void scatter(__global const float *in, __global float *out, uint stride) {
  out[get_global_id(0) * stride] = in[get_global_id(0)];
}
