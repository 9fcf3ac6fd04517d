//pass
//--blockDim=128 --gridDim=16

// ReLU over the first n elements; threads past the end return at once.
__global__ void relu(float *v, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  if (v[i] < 0.0f)
    v[i] = 0.0f;
}
