//pass
//--blockDim=128 --gridDim=16 --check-array-bounds

// Shift a block's elements right by one through shared memory (the step that
// turns an inclusive scan into an exclusive one). Thread 0 has no left
// neighbour and writes the identity; every shared index stays in 0..127.
#define BLOCK 128
__global__ void shift_right(const int *in, int *out) {
  __shared__ int s[BLOCK];
  unsigned tid = threadIdx.x; __requires(blockDim.x == BLOCK);
  unsigned i = blockIdx.x * BLOCK + tid;
  s[tid] = in[i];
  __syncthreads();
  out[i] = tid > 0 ? s[tid - 1] : 0;
}
