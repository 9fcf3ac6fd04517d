//xfail:GPUVERIFYVCGEN_ERROR
//--blockDim=128 --gridDim=16 --equality-abstraction
//GPUVerify: error: --equality-abstraction cannot be used with atomics\.

// atomic_count.cu forced into the equality abstraction: GPUVerify rejects
// --equality-abstraction on a kernel with atomics, and so does this tool (the
// per-array choice without the flag still gives equality to arrays that need
// it).
__global__ void count_positive(const int *in, int *count) {
  if (in[blockIdx.x * blockDim.x + threadIdx.x] > 0)
    atomicAdd(count, 1);
}
