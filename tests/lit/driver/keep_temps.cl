// --keep-temps leaves every intermediate file next to the kernel (copied into %t so
// nothing lands in the source tree); without it, nothing is left behind.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/k.cl
// RUN: %gpuverify --local_size=16 --num_groups=2 %t/k.cl > %t/plain.out
// RUN: %FileCheck %s --check-prefix=VERIFIED < %t/plain.out
// RUN: not ls %t/k.ll
// RUN: not ls %t/k.gbpl
// RUN: not ls %t/k.bpl
// RUN: %gpuverify --local_size=16 --num_groups=2 --keep-temps %t/k.cl | %FileCheck %s --check-prefix=VERIFIED
// RUN: %FileCheck %s --check-prefix=LL < %t/k.ll
// RUN: %FileCheck %s --check-prefix=GBPL < %t/k.gbpl
// RUN: %FileCheck %s --check-prefix=BPL < %t/k.bpl
// RUN: %FileCheck %s --check-prefix=INV < %t/k.inv.bpl
// Each kept file is valid input for the next stage command.
// RUN: %vcgen verify %t/k.inv.bpl --source %t/k.cl | %FileCheck %s --check-prefix=VERIFIED
// RUN: %vcgen houdini %t/k.bpl -o %t/again.inv.bpl
// RUN: %vcgen verify %t/again.inv.bpl | %FileCheck %s --check-prefix=VERIFIED
// VERIFIED: Verified
// LL: define {{.*}}spir_kernel void @copy(
// GBPL: procedure {:kernel} {:source_name "copy"}
// GBPL: $$out[{{.*}}] := {{.*}};
// BPL: axiom group_size_x == 16bv32;
// BPL: {:candidate
// BPL: assert {:race "write-write", "$$out"}
// INV: assert {:race "write-write", "$$out"}
// INV-NOT: {:candidate
__kernel void copy(__global int *out, __global const int *in, int n) {
  for (int k = 0; k < n; k++)
    out[get_global_id(0)] = in[get_global_id(0)] + k;
}
