//xfail:NOT_ALL_VERIFIED
//--blockDim=256 --gridDim=64
//preconditions or launch constraints are contradictory

// Bug: the axiom contradicts the launch (256 threads per block), so every property would
// hold vacuously; the verifier says so instead of reporting Verified.
__axiom(blockDim.x == 128);

__global__ void fill(int *out) {
  out[0] = threadIdx.x;
}
