//xfail:NOT_ALL_VERIFIED
//--blockDim=128 --gridDim=16
//possible (read-atomic|atomic-read) race on result\[0\]
//Atomic by thread
//atomic_cas_max_bug_plainread.cu:12:
//atomic_cas_max_bug_plainread.cu:15:

// atomic_cas_max.cu reading the current maximum with a plain load (a common
// mistake): it races with another thread's atomicCAS.
__device__ float atomic_max_float(float *addr, float v) {
  int *p = (int *)addr;
  int old = *p, assumed;
  do {
    assumed = old;
    old = atomicCAS(p, assumed, __float_as_int(fmaxf(v, __int_as_float(assumed))));
  } while (assumed != old);
  return __int_as_float(old);
}

__global__ void global_max(const float *in, float *result) {
  atomic_max_float(result, in[blockIdx.x * blockDim.x + threadIdx.x]);
}
