//xfail:BUGLE_ERROR
//--blockDim=128 --gridDim=16
//(?i)atomic

// Compact the positive values with a global atomic counter. Atomics are not
// supported yet: the front end must reject the construct by name.
__global__ void compact(const int *in, int *out, int *count) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (v > 0)
    out[atomicAdd(count, 1)] = v;
}
