// Mixed-width access to one array: forces byte-level memory for p, element-level for q.
__kernel void bytes(__global int *p, __global short *q) {
  unsigned i = get_global_id(0);
  __global char *c = (__global char *)p;
  c[4 * i + 1] = 7;
  p[i + 64] = (int)q[i];
}
