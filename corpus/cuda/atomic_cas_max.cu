//pass
//--blockDim=128 --gridDim=16

// Lock-free float maximum with an atomicCAS loop on the bit pattern (the
// usual atomicMax for floats). The first read is atomic too (atomicOr with
// 0), so every access to *result is atomic and no race is possible.
__device__ float atomic_max_float(float *addr, float v) {
  int *p = (int *)addr;
  int old = atomicOr(p, 0), assumed;
  do {
    assumed = old;
    old = atomicCAS(p, assumed, __float_as_int(fmaxf(v, __int_as_float(assumed))));
  } while (assumed != old);
  return __int_as_float(old);
}

__global__ void global_max(const float *in, float *result) {
  atomic_max_float(result, in[blockIdx.x * blockDim.x + threadIdx.x]);
}
