__kernel void count(__global int *c) {
  int x = 1;
  atomic_add(c, x);
}
