//pass
//--blockDim=128 --gridDim=16

// Interleave two vectors through shared memory (a0 b0 a1 b1 ...) so that
// the global stores are contiguous: one pair per thread, 256 values per block.
__global__ void interleave(const int *a, const int *b, int *out) {
  __requires(blockDim.x == 128 && gridDim.x <= 65536);
  __shared__ int buf[256];
  unsigned tid = threadIdx.x;
  unsigned gid = blockIdx.x * blockDim.x + tid;
  buf[2 * tid] = a[gid];
  buf[2 * tid + 1] = b[gid];
  __syncthreads();
  out[blockIdx.x * 256 + tid] = buf[tid];
  out[blockIdx.x * 256 + tid + 128] = buf[tid + 128];
}
