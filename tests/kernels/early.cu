__global__ void early(float *v, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  v[i] = 0.0f;
}
