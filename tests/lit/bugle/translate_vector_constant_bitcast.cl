// bugle translate: a constant bitcast of a float vector literal to bytes (clang's
// form for a vector literal whose bytes are read through a char pointer) is folded
// to the byte literals, little-endian per lane: 1.0f = 0x3f800000 gives the bytes
// 0, 0, 128, 63.
// RUN: %bugle cc %s -o - | %FileCheck --check-prefix=IR %s
// RUN: %bugle cc %s -o - | %bugle translate - -o - | %FileCheck %s
// IR: bitcast (<4 x float> splat (float 1.000000e+00) to <16 x i8>)
// CHECK: (63bv8 ++ 128bv8) ++ 0bv8
__attribute__((always_inline)) inline bool same_bytes(float *p, float *q) {
  char *cp = (char *)p, *cq = (char *)q;
  return cp[0] == cq[0] && cp[1] == cq[1] && cp[2] == cq[2] && cp[3] == cq[3];
}

__kernel void k(__global int *out) {
  float4 acc = (float4)(1, 1, 1, 1);
  float4 r = (float4)(1, 2, 3, 4);
  acc += r * 2;
  float five = 5;
  out[get_global_id(0)] = same_bytes((float *)&acc + 2, &five);
}
