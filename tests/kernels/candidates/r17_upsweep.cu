//pass
//--blockDim=32 --gridDim=1

// r17 (relationalPow2): Blelloch up-sweep; d halves while offset doubles, so
// d * offset == 32 keeps offset * (2 * tid + 2) - 1 below 64 for tid < d.
__global__ void upsweep(int *data) {
  __shared__ int temp[64];
  unsigned tid = threadIdx.x;
  unsigned offset = 1;
  for (unsigned d = 32; d > 0; d >>= 1) {
    __syncthreads();
    if (tid < d) {
      unsigned ai = offset * (2 * tid + 1) - 1;
      unsigned bi = offset * (2 * tid + 2) - 1;
      temp[bi] += temp[ai];
    }
    offset *= 2;
  }
}
