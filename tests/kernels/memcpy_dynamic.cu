__global__ void dyn(char *a, const char *b, unsigned n) {
  __builtin_memcpy(a + threadIdx.x * 64, b, n);
}
