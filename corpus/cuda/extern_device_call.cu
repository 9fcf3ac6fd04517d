//pass
//--blockDim=128 --gridDim=16

// Tone mapping with the response curve compiled in another translation unit
// (separate compilation, -rdc): the kernel only sees its declaration.  Its result
// is arbitrary, and each thread passes only its own private sample to it.

__device__ float response_curve(float luminance, float exposure);
__device__ void clamp_rgb(float3 *rgb);

__global__ void tone_map(const float *lum, float3 *rgb, float exposure, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float3 c = rgb[i];
    float scale = response_curve(lum[i], exposure);
    c.x *= scale; c.y *= scale; c.z *= scale;
    clamp_rgb(&c);
    rgb[i] = c;
  }
}
