//xfail:NOT_ALL_VERIFIED
//--blockDim=* --gridDim=*
//possible write-write race on (tile|out)\[
//Launch with blockDim = \(\d+, 1, 1\), gridDim = \(\d+, 1, 1\)

// chunk_reverse.cu without its precondition: with more than 128 threads per
// block, thread t + 128 writes tile[t + 128] (and out[base + t + 128]) as
// thread t's second element does; with at most 128 there is no race (the
// grid bound of chunk_reverse.cu is kept: only the block size is left open).
#define HALF 128

__global__ void chunk_reverse(const int *in, int *out) {
  __requires(gridDim.x <= (1u << 24));
  __shared__ int tile[2 * HALF];
  unsigned t = threadIdx.x, base = blockIdx.x * 2 * HALF;
  tile[t] = in[base + t];
  tile[t + HALF] = in[base + t + HALF];
  __syncthreads();
  out[base + t] = tile[2 * HALF - 1 - t];
  out[base + t + HALF] = tile[HALF - 1 - t];
}
