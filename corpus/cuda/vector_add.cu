//pass
//--blockDim=128 --gridDim=16

// Element-wise sum of two vectors, one element per thread.
__global__ void vector_add(const float *a, const float *b, float *c) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  c[i] = a[i] + b[i];
}
