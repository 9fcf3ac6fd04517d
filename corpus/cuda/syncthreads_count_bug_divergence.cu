//xfail:NOT_ALL_VERIFIED
//--blockDim=128 --gridDim=16
//syncthreads_count_bug_divergence.cu:12:[0-9]+: error: barrier may be reached by non-uniform control flow

// syncthreads_count.cu calling __syncthreads_count only in positive threads:
// it is a barrier, so the call diverges.
__global__ void census(const int *in, int *out) {
  __shared__ int flags[128];
  unsigned t = threadIdx.x;
  flags[t] = in[blockIdx.x * 128 + t] > 0;
  if (flags[t]) {
    int n = __syncthreads_count(1);
    out[blockIdx.x * 128 + t] = n;
  }
}
