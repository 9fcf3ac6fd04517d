__kernel void broken(__global int *p) {
  p[0] = 1
}
