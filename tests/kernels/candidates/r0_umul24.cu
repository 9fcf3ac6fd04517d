//pass
//--blockDim=[64,4,1] --gridDim=32

// r0 through CUDA's 24-bit multiply: row threadIdx.y of the output starts at
// __umul24(threadIdx.y, N), and a grid-stride loop fills it.  __umul24 multiplies the
// zero-extended low 24 bits of its operands, which for launch ids and N are the values.
__global__ void rows24(float *out, unsigned int N) {
  __requires(N == 65536);
  unsigned int tid = __umul24(blockDim.x, blockIdx.x) + threadIdx.x;
  unsigned int threads = __umul24(blockDim.x, gridDim.x);
  for (unsigned int pos = tid; pos < N; pos += threads)
    out[__umul24(threadIdx.y, N) + pos] = (float)threadIdx.y;
}
