// A pointer that may point to either of two arrays (Steensgaard class {a, b}).
__kernel void pick(__global float *a, __global float *b, int flag) {
  unsigned i = get_global_id(0);
  __global float *p = flag ? a : b;
  __global float *q = a;
  for (int k = 0; k < 4; k++) {
    if (k == 2) q = b;
  }
  p[i] = q[i] + 1.0f;
}
