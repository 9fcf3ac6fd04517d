//pass
//--blockDim=128 --gridDim=16

// y[i] += a * x[i] for any n with a grid-stride loop.
__global__ void axpy_grid_stride(unsigned n, float a, const float *x, float *y) {
  __requires(n <= 0x80000000u && gridDim.x <= 65536);
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] += a * x[i];
}
