//pass
//--blockDim=128 --gridDim=5

// A grid-stride loop under concrete sizes whose product, 640, is not a power of two: the
// remainder by it is a bit-vector divider the solver bit-blasts (CUDA BlackScholes,
// 61440; MC_SingleAsianOptionP generatePaths, 24960), so rule res states it instead of
// r1 and r10.
__global__ void scale(unsigned n, float *a) {
  __requires(n <= 0x40000000u);
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    a[i] = 2.0f * a[i];
}
