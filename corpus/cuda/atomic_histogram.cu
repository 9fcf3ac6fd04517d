//pass
//--blockDim=128 --gridDim=16

// 32-bin histogram: each thread increments its bin in a shared histogram
// with atomicAdd, then (after __syncthreads) the first 32 threads add the
// block's bins into the global histogram with atomicAdd. Atomics never race
// with each other; the barriers separate them from the plain accesses.
#define BINS 32

__global__ void histogram(const unsigned *in, unsigned *bins) {
  __shared__ unsigned sbins[BINS];
  unsigned t = threadIdx.x;
  if (t < BINS)
    sbins[t] = 0;
  __syncthreads();
  atomicAdd(&sbins[in[blockIdx.x * blockDim.x + t] % BINS], 1u);
  __syncthreads();
  if (t < BINS)
    atomicAdd(&bins[t], sbins[t]);
}
