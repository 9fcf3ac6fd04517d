//pass
//--blockDim=32 --gridDim=4

// r18 without --warp-sync: a loop calling __syncwarp gets the same-warp candidates.
__global__ void warp_sum(const int *in, int *out) {
  __shared__ int s[64];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * 32 + t];
  s[t + 32] = 0;
  __syncwarp();
  int v = s[t];
  for (unsigned offset = 16; offset > 0; offset >>= 1) {
    v += s[t + offset];
    __syncwarp();
    s[t] = v;
    __syncwarp();
  }
  if (t == 0)
    out[blockIdx.x] = v;
}
