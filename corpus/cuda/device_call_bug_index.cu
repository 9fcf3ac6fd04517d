//xfail:NOT_ALL_VERIFIED
//--blockDim=128 --gridDim=16
//possible write-write race on .*c\[
//Write by thread [0-9]+ in thread block [0-9]+ \(global id [0-9]+\), .*device_call_bug_index.cu:(18|19):

// device_call.cu with the helper storing at p[k] and p[k + 1] (the pair
// stride 2 forgotten): the imaginary part of pair k overwrites the real part
// of pair k + 1. The report must point into the helper.
__device__ float mul_re(float ar, float ai, float br, float bi) {
  return ar * br - ai * bi;
}

__device__ float mul_im(float ar, float ai, float br, float bi) {
  return ar * bi + ai * br;
}

__device__ void store_pair(float *p, unsigned k, float re, float im) {
  p[k] = re;
  p[k + 1] = im;
}

__global__ void cmul(const float *a, const float *b, float *c) {
  unsigned k = blockIdx.x * blockDim.x + threadIdx.x;
  float ar = a[2 * k], ai = a[2 * k + 1];
  float br = b[2 * k], bi = b[2 * k + 1];
  store_pair(c, k, mul_re(ar, ai, br, bi), mul_im(ar, ai, br, bi));
}
