//pass
//--blockDim=64 --gridDim=1

// A 64-bit pointer counter strided by a pinned constant that is not a power of two: no
// r10 remainder (a 64-bit divider); the 32-bit counter t keeps its candidates.
__global__ void fill(float *p, unsigned n) {
  __requires(n == 100);
  float *q = p + threadIdx.x;
  for (unsigned t = 0; t < 8; t++, q += n)
    *q = 0.0f;
}
