//xfail:NOT_ALL_VERIFIED
//--blockDim=128 --gridDim=16
//possible (read-write|write-read) race on .*data
//float4_cuda_bug_inplace.cu:1[01]:

// In-place variant that reads the neighbour's float4: it is overwritten
// concurrently by its owner.
__global__ void swap_xy(float4 *data, float s) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 n = data[(i + 1) % 2048];
  data[i] = make_float4(n.y * s, n.x * s, n.z, n.w);
}
