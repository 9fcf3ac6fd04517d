//pass
//--blockDim=128 --gridDim=16

// Compact the positive values with a global atomic counter: each thread
// writing a value takes a distinct ticket from atomicAdd (the counter is used
// only by atomicAdd(count, 1), so distinct calls get distinct tickets:
// DESIGN.md 5.9, vcgen/tickets.py).
__global__ void compact(const int *in, int *out, int *count) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (v > 0)
    out[atomicAdd(count, 1)] = v;
}
