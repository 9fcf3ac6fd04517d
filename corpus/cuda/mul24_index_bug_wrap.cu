//xfail:NOT_ALL_VERIFIED
//--blockDim=128 --gridDim=16
//possible write-write race on .*out\[

// __umul24 keeps only the low 24 bits of its operands: with a block offset of
// 2^24 every block maps to the same indices, and the blocks record different
// values there.
__global__ void index24(int *out) {
  unsigned i = __umul24(blockIdx.x << 24, blockDim.x) + threadIdx.x;
  out[i] = blockIdx.x;
}
