//pass
//--blockDim=128 --gridDim=16

// Per-thread partial sums over a strided row, with the loop invariants written
// at the loop head as separate __invariant calls (GPUVerify's rule: an
// invariant is evaluated at the loop head, before the condition branches).
__global__ void strided_sum(const float *in, float *out, unsigned n) {
  unsigned t = threadIdx.x, b = blockIdx.x; __requires(blockDim.x == 128);
  float acc = 0.0f;
  for (unsigned i = t;
       __invariant(i >= t), __invariant(i % 128 == t),
       i < n; i += 128)
    acc += in[b * n + i];
  out[b * blockDim.x + t] = acc;
}
