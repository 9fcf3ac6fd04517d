__kernel void vec(__global int4 *v, __global float *f, __global int *o, int k) {
  unsigned i = get_global_id(0);
  int4 x = v[i];
  int4 y = x.zwxy * (int4)(2, 3, 4, 5);
  y.s1 = k;
  o[i] = y[k & 3] + as_int(f[i]);
  v[i] = y;
  float2 h = vload2(i, f);
  vstore2(h.yx, i, f);
}
