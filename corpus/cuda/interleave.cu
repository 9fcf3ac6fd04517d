//pass
//--blockDim=128 --gridDim=16

// Interleave two vectors through shared memory (a0 b0 a1 b1 ...) so that
// the global stores are contiguous: each thread stages one pair, then the
// block writes its 256 staged values back in order.
__global__ void interleave(const int *a, const int *b, int *out) {
  __shared__ int buf[256];
  unsigned tid = threadIdx.x;
  unsigned gid = blockIdx.x * blockDim.x + tid;
  buf[2 * tid] = a[gid];
  buf[2 * tid + 1] = b[gid];
  __syncthreads();
  out[blockIdx.x * 256 + tid] = buf[tid];
  out[blockIdx.x * 256 + tid + 128] = buf[tid + 128];
}
