//xfail:NOT_ALL_VERIFIED
//--blockDim=128 --gridDim=16
//possible (write-atomic|atomic-write) race on sbins\[
//Atomic by thread
//atomic_histogram_bug_noinitbarrier.cu:17:
//atomic_histogram_bug_noinitbarrier.cu:18:

// atomic_histogram.cu without the barrier after zeroing the shared bins: a
// thread may increment a bin while its owner is still clearing it (an
// atomic does race with a plain write).
#define BINS 32

__global__ void histogram(const unsigned *in, unsigned *bins) {
  __shared__ unsigned sbins[BINS];
  unsigned t = threadIdx.x;
  if (t < BINS)
    sbins[t] = 0;
  atomicAdd(&sbins[in[blockIdx.x * blockDim.x + t] % BINS], 1u);
  __syncthreads();
  if (t < BINS)
    atomicAdd(&bins[t], sbins[t]);
}
