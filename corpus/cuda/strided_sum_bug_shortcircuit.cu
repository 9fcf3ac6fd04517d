//xfail:GPUVERIFYVCGEN_ERROR
//--blockDim=128 --gridDim=16
//strided_sum_bug_shortcircuit.cu:13:8:[\s]+user-specified invariant does not appear at loop head

// strided_sum.cu with the two invariants joined by &&: C evaluates the right
// operand only when the left one holds, so the invariant is evaluated through
// a branch after the loop head, not at it.  GPUVerify rejects such an
// invariant (write two __invariant calls, or use & / __implies).
__global__ void strided_sum(const float *in, float *out, unsigned n) {
  unsigned t = threadIdx.x, b = blockIdx.x;
  float acc = 0.0f;
  for (unsigned i = t;
       __invariant(i >= t && i % 128 == t),
       i < n; i += 128)
    acc += in[b * n + i];
  out[b * blockDim.x + t] = acc;
}
