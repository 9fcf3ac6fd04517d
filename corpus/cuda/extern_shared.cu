//pass
//--blockDim=128 --gridDim=16

// Dynamic shared memory (extern __shared__): reversal within a block.
extern __shared__ float buf[];

__global__ void reverse(float *d) {
  unsigned t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  buf[t] = d[g];
  __syncthreads();
  d[g] = buf[blockDim.x - 1 - t];
}
