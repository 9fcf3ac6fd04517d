//pass
//--blockDim=32 --gridDim=8

// r2/r3: each block owns the contiguous range [blockIdx.x * n, (blockIdx.x + 1) * n)
// of a global array, n a parameter (a symbolic block size, so r0 does not apply).
__global__ void block_range(int *out, unsigned n) {
  __requires(n <= 4096);
  for (unsigned i = threadIdx.x; i < n; i += blockDim.x)
    out[blockIdx.x * n + i] = threadIdx.x;
}
