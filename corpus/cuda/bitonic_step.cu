//pass
//--blockDim=128 --gridDim=16

// One compare-and-swap pass (j, k) of a global bitonic sort over 2048 keys.
__device__ void compare_swap(unsigned *d, unsigned lo, unsigned hi, bool up) {
  unsigned a = d[lo], b = d[hi];
  if ((a > b) == up) {
    d[lo] = b;
    d[hi] = a;
  }
}

__global__ void bitonic_step(unsigned *keys, unsigned j, unsigned k) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned ixj = i ^ j;
  if (ixj > i)
    compare_swap(keys, i, ixj, (i & k) == 0);
}
