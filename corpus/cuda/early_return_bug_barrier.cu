//xfail:NOT_ALL_VERIFIED
//--blockDim=128 --gridDim=16
//early_return_bug_barrier.cu:14:[0-9]+: error: barrier may be reached by non-uniform control flow

// Block-wise reversal that returns early for threads past n before the
// __syncthreads(): unless n is a multiple of 128, part of a block skips it.
__global__ void reverse_blocks(const int *in, int *out, unsigned n) {
  __shared__ int buf[128];
  unsigned tid = threadIdx.x;
  unsigned gid = blockIdx.x * blockDim.x + tid;
  if (gid >= n)
    return;
  buf[tid] = in[gid];
  __syncthreads();
  out[gid] = buf[127 - tid];
}
