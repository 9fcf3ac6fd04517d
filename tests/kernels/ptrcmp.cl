__kernel void count(__global int *c, __global int *d) {
  int x = 1;
  c[x] = c < d;
}
