//pass
//--blockDim=128 --gridDim=16

// Thread 0 publishes a per-block value in shared memory; after the barrier
// every thread uses it and writes its own element (global index).
__global__ void publish(const unsigned *offsets, unsigned *out) {
  __shared__ unsigned base;
  if (threadIdx.x == 0)
    base = offsets[blockIdx.x];
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = base + threadIdx.x;
}
