//xfail:NOT_ALL_VERIFIED
//--blockDim=128 --gridDim=16
//assertion_bug_wrong.cu:11:[0-9]+: error: this assertion might not hold for thread [0-9]+ in thread block [0-9]+

// assertion.cu asserting a window that never crosses a block boundary, which
// the precondition does not guarantee (thread 127 with w = 2 reads element
// 128 of the next block's range).
__global__ void moving_avg(const float *in, float *out, unsigned w) {
  __requires(w >= 1 && w <= 32);
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  __assert(threadIdx.x + w <= blockDim.x);
  float sum = 0.0f;
  for (unsigned k = 0; __invariant(k <= w), k < w; k++)
    sum += in[gid + k];
  out[gid] = sum / (float)w;
}
