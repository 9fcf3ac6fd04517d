//pass
//--blockDim=128 --gridDim=16

// __constant__ coefficients (read-only) and a __device__ global array written
// at each thread's global index.
__constant__ float coeff[4];
__device__ float result[2048];

__global__ void poly(const float *x) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = x[i];
  result[i] = ((coeff[3] * v + coeff[2]) * v + coeff[1]) * v + coeff[0];
}
