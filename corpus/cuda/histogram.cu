//pass
//--blockDim=128 --gridDim=16

// 64-bin histogram of bytes (low six bits), one block per 4096-byte chunk,
// without atomics: thread t owns bin t % 64 of half t / 64 of the chunk and
// counts the matching bytes there; after a barrier threads 0..63 add the halves.
#define BINS 64
#define CHUNK 4096

__global__ void histogram(const unsigned char *data, unsigned *hist) {
  __requires(blockDim.x == 2 * BINS && gridDim.x <= 65536);
  __shared__ unsigned partial[2 * BINS];
  unsigned t = threadIdx.x;
  unsigned bin = t % BINS;
  const unsigned char *half = data + blockIdx.x * CHUNK + (t / BINS) * (CHUNK / 2);
  unsigned count = 0;
  for (unsigned i = 0; i < CHUNK / 2; i++)
    if ((half[i] & (BINS - 1)) == bin)
      count++;
  partial[t] = count;
  __syncthreads();
  if (t < BINS)
    hist[blockIdx.x * BINS + t] = partial[t] + partial[t + BINS];
}
