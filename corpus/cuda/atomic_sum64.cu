//pass
//--blockDim=128 --gridDim=16

// 64-bit block sums: threads add into a shared unsigned long long total with
// atomicAdd; after the barrier thread 0 adds the block's total to the global
// one, again atomically. Thread 0 clears the shared total before a barrier.
__global__ void sum64(const unsigned *in, unsigned long long *total) {
  __shared__ unsigned long long block_total;
  if (threadIdx.x == 0)
    block_total = 0;
  __syncthreads();
  atomicAdd(&block_total, (unsigned long long)in[blockIdx.x * blockDim.x + threadIdx.x]);
  __syncthreads();
  if (threadIdx.x == 0)
    atomicAdd(total, block_total);
}
