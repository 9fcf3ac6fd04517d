//xfail:NOT_ALL_VERIFIED
//--blockDim=128 --gridDim=16
//possible [a-z]+-[a-z]+ race on .*keys\[

// bitonic_step.cu with the partner index i | j instead of i ^ j. The two
// agree when j is a single bit, but j is not constrained: for j = 3,
// threads 0 and 1 both take element 3 as their partner.
__device__ void compare_swap(unsigned *d, unsigned lo, unsigned hi, bool up) {
  unsigned a = d[lo], b = d[hi];
  if ((a > b) == up) {
    d[lo] = b;
    d[hi] = a;
  }
}

__global__ void bitonic_step(unsigned *keys, unsigned j, unsigned k) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned ixj = i | j;
  if (ixj > i)
    compare_swap(keys, i, ixj, (i & k) == 0);
}
