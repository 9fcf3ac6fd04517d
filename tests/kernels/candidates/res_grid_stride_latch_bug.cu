//xfail:NOT_ALL_VERIFIED
//--blockDim=* --gridDim=*
//possible write-write race on out\[

// res_grid_stride_latch.cu without the bound on n: i += blockDim.x * gridDim.x may wrap
// around 2^32 (for a grid size that is not a power of two) and meet the index of another
// thread.  The stride is a run-time constant computed in the latch; the race is reported.
__global__ void shift(unsigned n, int k, const int *in, int *out) {
  __requires(gridDim.x <= 65536);
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = in[i] + k;
}
