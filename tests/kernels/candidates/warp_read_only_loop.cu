//pass
//--gridDim=4 --blockDim=64 --warp-sync=32

// Under --warp-sync the logs of warp-mates are cleared after each instruction; the
// write log of `in`, which the kernel only reads, is never filled, and clearing it
// must not make it look modified by the grid-stride loop (havocked at its head).
__global__ void grid_stride_sum(float *in, float *out, unsigned n) {
  __shared__ float s[64];
  unsigned i = blockIdx.x * 64 + threadIdx.x;
  float sum = 0;
  while (i < n) {
    sum += in[i];
    i += 64 * 4;
  }
  s[threadIdx.x] = sum;
  __syncthreads();
  if (threadIdx.x < 32)
    s[threadIdx.x] += s[threadIdx.x + 32];
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = s[0];
}
