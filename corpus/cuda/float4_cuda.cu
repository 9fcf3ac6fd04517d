//pass
//--blockDim=128 --gridDim=16

// CUDA float4 (a 16-byte aligned struct) built with make_float4.
__global__ void swap_xy(const float4 *in, float4 *out, float s) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v = in[i];
  out[i] = make_float4(v.y * s, v.x * s, v.z, v.w);
}
