// CUDA tree reduction with a __shared__ array and __syncthreads.
#define N 256
__global__ void block_sum(const int *in, int *out) {
  __shared__ int buf[N];
  unsigned t = threadIdx.x;
  buf[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s)
      buf[t] += buf[t + s];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = buf[0];
}
