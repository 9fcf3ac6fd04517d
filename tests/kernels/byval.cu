struct Cfg { int stride; int base; };
__global__ void bv(int *out, Cfg c) {
  __requires(c.stride > 0);
  out[c.base + threadIdx.x * c.stride] = c.base;
}
