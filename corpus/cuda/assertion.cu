//pass
//--blockDim=128 --gridDim=16

// Moving average over windows of w elements: preconditions, invariant, asserts.
__global__ void moving_avg(const float *in, float *out, unsigned w) {
  __requires(blockDim.x <= 128 && gridDim.x <= 16);
  __requires(w >= 1 && w <= 32);
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  __assert(gid < 2048);
  float sum = 0.0f;
  unsigned k = 0;
  for (; __invariant(k <= w), k < w; k++)
    sum += in[gid + k];
  __assert(k == w);
  out[gid] = sum / (float)w;
}
