//pass
//--blockDim=128 --gridDim=16

// Count the positive values with a global atomic counter: atomicAdd never
// races with another atomicAdd (DESIGN.md 5.9), and nothing reads the counter
// with a plain access.
__global__ void count_positive(const int *in, int *count) {
  if (in[blockIdx.x * blockDim.x + threadIdx.x] > 0)
    atomicAdd(count, 1);
}
