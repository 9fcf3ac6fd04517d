//xfail:NOT_ALL_VERIFIED
//--blockDim=* --gridDim=*
//possible (read-write|write-read|write-write) race on v\[
//block_normalize_bug_grid.cu:15:
//Launch with blockDim = \(\d+, 1, 1\), gridDim = \(\d+, 1, 1\)

// block_normalize.cu without its precondition: launched with two blocks or
// more, thread t of every block scales the same element v[t], so the blocks'
// reads and writes of v conflict (a race no single-block launch has).
__global__ void block_normalize(float *v, const float *norm) {
  __shared__ float inv;
  if (threadIdx.x == 0)
    inv = 1.0f / norm[0];
  __syncthreads();
  v[threadIdx.x] *= inv;
}
