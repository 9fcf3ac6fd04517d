//pass
//--blockDim=128 --gridDim=16

// Each block reverses a 256-element chunk: thread t stages elements t and
// t + 128 of its chunk in the tile and, after a barrier, writes the chunk back
// reversed. The kernel is written for blocks of at most 128 threads, and says
// so: with more, thread t + 128 stages its first element in the cell of thread
// t's second one. Chunks are numbered in 32 bits, so it also requires that
// the chunks fit: blockIdx.x * 256 wraps past 2^24 blocks.
#define HALF 128

__global__ void chunk_reverse(const int *in, int *out) {
  __requires(blockDim.x <= HALF && gridDim.x <= (1u << 24));
  __shared__ int tile[2 * HALF];
  unsigned t = threadIdx.x, base = blockIdx.x * 2 * HALF;
  tile[t] = in[base + t];
  tile[t + HALF] = in[base + t + HALF];
  __syncthreads();
  out[base + t] = tile[2 * HALF - 1 - t];
  out[base + t + HALF] = tile[HALF - 1 - t];
}
