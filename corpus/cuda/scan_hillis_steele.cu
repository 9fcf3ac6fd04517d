//pass
//--blockDim=128 --gridDim=16

// In-place inclusive Hillis-Steele scan of each block's 128 values. Every
// step first reads the partner value into a register, synchronizes, then
// updates its own element and synchronizes again.
__global__ void scan(const int *in, int *out) {
  __shared__ int buf[128];
  unsigned tid = threadIdx.x;
  unsigned gid = blockIdx.x * blockDim.x + tid;
  buf[tid] = in[gid];
  __syncthreads();
  for (unsigned off = 1; off < blockDim.x; off *= 2) {
    int t = tid >= off ? buf[tid - off] : 0;
    __syncthreads();
    buf[tid] += t;
    __syncthreads();
  }
  out[gid] = buf[tid];
}
