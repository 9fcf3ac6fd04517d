//pass
//--blockDim=64 --gridDim=16

// r0 with a global id: each thread fills its own chunk A[gid * 256 .. gid * 256 + 255];
// gid = threadIdx.x + blockIdx.x * blockDim.x, and the fixed block size makes the
// coefficient of blockIdx.x a literal (64 * 256), so the offset breaks into both ids.
__global__ void chunks(unsigned int *A) {
  unsigned gid = threadIdx.x + blockIdx.x * blockDim.x;
  for (unsigned int i = 0; i < 256; i++)
    A[i + gid * 256] = gid;
}
