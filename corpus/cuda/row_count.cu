//pass
//--blockDim=128 --gridDim=16

// Count the nonzero flags in each thread's row of n <= 16 flags. The user
// invariant k <= n bounds the loop counter; with the precondition it also
// gives k <= 16 at every iteration.
__global__ void row_count(const int *flags, unsigned *count, unsigned n) {
  __requires(n <= 16);
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned c = 0;
  for (unsigned k = 0;
       __invariant(k <= n), __invariant(k <= 16), k < n; k++)
    c += flags[gid * 16 + k] != 0;
  count[gid] = c;
}
