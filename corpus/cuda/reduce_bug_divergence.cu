//xfail:NOT_ALL_VERIFIED
//--blockDim=128 --gridDim=16
//reduce_bug_divergence.cu:15:[0-9]+: error: barrier may be reached by non-uniform control flow

// reduce.cu with the __syncthreads() inside "if (tid < s)": threads that
// dropped out of the reduction skip it.
__global__ void reduce(const int *in, int *block_sums) {
  __shared__ int sdata[128];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) {
      sdata[tid] += sdata[tid + s];
      __syncthreads();
    }
  }
  if (tid == 0)
    block_sums[blockIdx.x] = sdata[0];
}
