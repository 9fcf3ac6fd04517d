//pass
//--gridDim=4 --blockDim=32

// Tree reduction, then every thread of the block publishes the block's sum: a
// same-value write of out[blockIdx.x].  s gets the equality abstraction (its value
// is written at an index that does not depend on the thread), and rule copies keeps
// the two threads' copies of s equal at the head of the barrier loop.
__global__ void block_sum(unsigned *out, const unsigned *in) {
  __shared__ unsigned s[32];
  s[threadIdx.x] = in[blockIdx.x * 32 + threadIdx.x];
  __syncthreads();
  for (int i = 16; i > 0; i /= 2) {
    if (threadIdx.x < i)
      s[threadIdx.x] += s[threadIdx.x + i];
    __syncthreads();
  }
  out[blockIdx.x] = s[0];
}
