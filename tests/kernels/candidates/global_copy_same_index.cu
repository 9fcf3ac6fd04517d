//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=2

// Every thread copies the same global input cell into the same shared cell: the
// values are equal, but only a group-shared source gets the equality abstraction
// for a benign same-value write (vcgen/analysis/abstraction.py); this copy stays a
// reported write-write race, as GPUVerify reports it.
__global__ void broadcast(float *out, const float *in) {
  __shared__ float b[8];
  for (int i = 0; i < 8; i++)
    b[i] = in[i];
  __syncthreads();
  out[blockIdx.x * 64 + threadIdx.x] = b[threadIdx.x % 8];
}
