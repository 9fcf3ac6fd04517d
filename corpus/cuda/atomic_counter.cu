//pass
//--blockDim=128 --gridDim=16
//known_gap: atomic return values are abstracted (arbitrary), so two threads may get the same ticket and the writes to out[ticket] look like a write-write race (GPUVerify has the same limit)

// Compact the positive values with a global atomic counter: each thread
// writing a value takes a distinct ticket from atomicAdd. Correct, but the
// verifier treats the value atomicAdd returns as arbitrary.
__global__ void compact(const int *in, int *out, int *count) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (v > 0)
    out[atomicAdd(count, 1)] = v;
}
