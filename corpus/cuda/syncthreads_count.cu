//pass
//--blockDim=128 --gridDim=16

// __syncthreads_count / __syncthreads_or as barriers: values written before
// are visible after; the counts themselves are not tracked.
__global__ void census(const int *in, int *out) {
  __shared__ int flags[128];
  unsigned t = threadIdx.x;
  flags[t] = in[blockIdx.x * 128 + t] > 0;
  int n = __syncthreads_count(flags[t]);
  int any = __syncthreads_or(flags[(t + 1) % 128]);
  if (t == 0)
    out[blockIdx.x] = n + any;
  __threadfence();
}
