//pass
//--blockDim=128 --gridDim=16

// Grid-stride scaling.  The user offers guesses about the loop; candidates are never
// trusted: Houdini keeps those it proves (the stride pattern of the index) and drops the
// wrong one (i == tid holds only before the first iteration).
__global__ void scale(float *data, float factor, unsigned n) {
  unsigned tid = blockIdx.x * blockDim.x + threadIdx.x; __requires(n <= 0x80000000u && gridDim.x <= 65536);
  unsigned stride = gridDim.x * blockDim.x;
  for (unsigned i = tid;
       __candidate_invariant(i % stride == tid),
       __candidate_invariant(i == tid),
       i < n; i += stride) {
    data[i] = factor * data[i];
  }
}
