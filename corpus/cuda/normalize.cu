//pass
//--blockDim=128 --gridDim=16

// Subtract the block mean: a tree reduction leaves the sum in s[0], the
// barrier after the loop publishes it, every thread then reads it.
__global__ void center(const float *in, float *out) {
  __shared__ float s[128];
  unsigned tid = threadIdx.x; __requires(blockDim.x == 128);
  unsigned gid = blockIdx.x * blockDim.x + tid;
  float x = in[gid];
  s[tid] = x;
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    __syncthreads();
    if (tid < stride)
      s[tid] += s[tid + stride];
  }
  __syncthreads();
  out[gid] = x - s[0] / 128.0f;
}
