//xfail:NOT_ALL_VERIFIED
//--blockDim=128 --gridDim=16
//possible [a-z]+-[a-z]+ race on .*y\[
//grid_stride_bug_stride.cu:11:

// grid_stride.cu striding by gridDim.x instead of blockDim.x * gridDim.x:
// thread 0 of block 1 (i = 128) and thread 0 of block 0 (i = 0, 16, ...,
// 128 in its ninth iteration) update the same element.
__global__ void axpy_grid_stride(unsigned n, float a, const float *x, float *y) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x)
    y[i] += a * x[i];
}
