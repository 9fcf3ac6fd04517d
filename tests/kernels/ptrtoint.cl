__kernel void count(__global int *c) {
  int x = 1;
  c[x] = (int)(size_t)c;
}
