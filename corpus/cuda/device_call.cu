//pass
//--blockDim=128 --gridDim=16

// Complex multiplication of interleaved (re, im) vectors via device functions.
__device__ float mul_re(float ar, float ai, float br, float bi) {
  return ar * br - ai * bi;
}

__device__ float mul_im(float ar, float ai, float br, float bi) {
  return ar * bi + ai * br;
}

__device__ void store_pair(float *p, unsigned k, float re, float im) {
  p[2 * k] = re;
  p[2 * k + 1] = im;
}

__global__ void cmul(const float *a, const float *b, float *c) {
  __requires(gridDim.x <= 65536);
  unsigned k = blockIdx.x * blockDim.x + threadIdx.x;
  float ar = a[2 * k], ai = a[2 * k + 1];
  float br = b[2 * k], bi = b[2 * k + 1];
  store_pair(c, k, mul_re(ar, ai, br, bi), mul_im(ar, ai, br, bi));
}
