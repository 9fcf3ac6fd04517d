//pass
//--blockDim=128 --gridDim=16

// __umul24 / __mul24 are exact on 24-bit operands, so the index arithmetic
// below is precise enough to prove the writes disjoint.
__global__ void index24(int *out) {
  unsigned i = __umul24(blockIdx.x, blockDim.x) + threadIdx.x;
  out[i] = __mul24((int)i, 3);
}
