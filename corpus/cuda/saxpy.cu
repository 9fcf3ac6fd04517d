//pass
//--blockDim=128 --gridDim=16

// y := alpha * x + y for the first n elements.
__global__ void saxpy(unsigned n, float alpha, const float *x, float *y) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = alpha * x[i] + y[i];
}
