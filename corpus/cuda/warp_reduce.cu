//pass
//--blockDim=64 --gridDim=4 --warp-sync=32

// Warp-synchronous final steps of a reduction (pre-Volta style): the first
// warp folds s[16..31] and s[8..23] into s[0..15] without __syncthreads,
// relying on the 32 threads of a warp running in lock-step.
__global__ void warp_reduce(int *out) {
  __shared__ volatile int s[64];
  unsigned t = threadIdx.x;
  s[t] = t;
  if (t < 16) {
    s[t] += s[t + 16];
    s[t] += s[t + 8];
  }
  if (t == 0)
    out[blockIdx.x] = s[0];
}
