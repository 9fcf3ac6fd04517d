//xfail:NOT_ALL_VERIFIED
//--blockDim=128 --gridDim=16
//possible (atomic-read|read-atomic) race on block_total
//Atomic by thread
//atomic_sum64_bug_read.cu:15:
//atomic_sum64_bug_read.cu:17:

// atomic_sum64.cu without the second barrier: thread 0 may read the shared
// total while other threads are still adding to it.
__global__ void sum64(const unsigned *in, unsigned long long *total) {
  __shared__ unsigned long long block_total;
  if (threadIdx.x == 0)
    block_total = 0;
  __syncthreads();
  atomicAdd(&block_total, (unsigned long long)in[blockIdx.x * blockDim.x + threadIdx.x]);
  if (threadIdx.x == 0)
    atomicAdd(total, block_total);
}
