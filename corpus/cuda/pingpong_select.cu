//pass
//--blockDim=64 --gridDim=8

// One pass of a ping-pong smoothing filter: odd passes read buffer b and write a, even
// passes read a and write b (the host swaps nothing, it only counts passes).
__global__ void pingpong_select(float *a, float *b, int pass) {
  const float *src;
  float *dst;
  if (pass & 1) {
    src = b;
    dst = a;
  } else {
    src = a;
    dst = b;
  }
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  dst[i] = 0.5f * (src[i] + src[i ^ 1]);
}
