//pass
//--blockDim=* --gridDim=*

// A CUDA grid-stride loop: clang computes the stride blockDim.x * gridDim.x in the loop's
// latch, a block both threads need not reach together.  The product is a run-time
// constant (vcgen.analysis.uniformity): one shared value, not a predicated copy per
// thread, so it is the term of rule res's facts.
__global__ void shift(unsigned n, int k, const int *in, int *out) {
  __requires(n <= 0x40000000u && gridDim.x <= 65536);
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = in[i] + k;
}
