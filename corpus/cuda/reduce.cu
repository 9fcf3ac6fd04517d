//pass
//--blockDim=128 --gridDim=16

// Tree reduction of each block's 128 values in shared memory; thread 0 writes
// the block's sum.
__global__ void reduce(const int *in, int *block_sums) {
  __shared__ int sdata[128];
  unsigned tid = threadIdx.x; __requires(blockDim.x == 128);
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    block_sums[blockIdx.x] = sdata[0];
}
