// bugle translate: a vector kernel parameter passed by value becomes one scalar
// parameter per component ($dims$0, $dims$1); a __requires may read its components.
// RUN: %bugle cc %s -o - | %bugle translate - -o - | %FileCheck %s
// CHECK: {:source_params {{.*}}"dims", "$dims", "uint2"} $k($dims$0: bv32, $dims$1: bv32)
// CHECK: requires {{.*}} BV32_ULE($dims$0, 64bv32)
// CHECK: := $dims$1;
__kernel void k(__global float *out, uint2 dims) {
  __requires(dims.x <= 64);
  out[get_global_id(0)] = dims.y;
}
