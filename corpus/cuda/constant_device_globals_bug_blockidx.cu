//xfail:NOT_ALL_VERIFIED
//--blockDim=128 --gridDim=16
//possible write-write race on .*result\[
//constant_device_globals_bug_blockidx.cu:13:

// constant_device_globals.cu indexing the __device__ array by threadIdx only:
// all blocks write the same 128 elements.
__constant__ float coeff[4];
__device__ float result[2048];

__global__ void poly(const float *x) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  result[threadIdx.x] = coeff[0] + x[i];
}
