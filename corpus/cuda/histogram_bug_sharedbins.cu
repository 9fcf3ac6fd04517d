//xfail:NOT_ALL_VERIFIED
//--blockDim=128 --gridDim=16
//possible [a-z]+-[a-z]+ race on .*bins\[
//histogram_bug_sharedbins.cu:21:

// The usual shared-memory histogram written without atomics: each thread
// adds its bytes into one shared set of bins, so two threads that see bytes
// with the same low six bits update the same bin concurrently.
#define BINS 64
#define CHUNK 4096

__global__ void histogram(const unsigned char *data, unsigned *hist) {
  __shared__ unsigned bins[BINS];
  unsigned t = threadIdx.x;
  const unsigned char *chunk = data + blockIdx.x * CHUNK;
  if (t < BINS)
    bins[t] = 0;
  __syncthreads();
  for (unsigned i = t; i < CHUNK; i += blockDim.x) {
    unsigned b = chunk[i] & (BINS - 1);
    bins[b] = bins[b] + 1;
  }
  __syncthreads();
  if (t < BINS)
    hist[blockIdx.x * BINS + t] = bins[t];
}
