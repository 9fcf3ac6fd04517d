//pass
//--blockDim=128 --gridDim=16

// Per-block maximum of floats: tree reduction with the comparison written
// out (floats are uninterpreted, the branch is data-dependent).
__global__ void block_max(const float *in, float *res) {
  __shared__ float m[128];
  unsigned tid = threadIdx.x;
  m[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = 64; s >= 1; s /= 2) {
    if (tid < s && m[tid + s] > m[tid])
      m[tid] = m[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    res[blockIdx.x] = m[0];
}
