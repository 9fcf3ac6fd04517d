//xfail:NOT_ALL_VERIFIED
//--blockDim=128 --gridDim=16
//row_count_bug_invariant.cu:11:[0-9]+: error: loop invariant might not be maintained

// row_count.cu without the precondition n <= 16: the user invariant k <= 16
// holds on entry but is not preserved (for n > 16 the loop passes k = 16).
__global__ void row_count(const int *flags, unsigned *count, unsigned n) {
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned c = 0;
  for (unsigned k = 0;
       __invariant(k <= n), __invariant(k <= 16), k < n; k++)
    c += flags[gid * 16 + k] != 0;
  count[gid] = c;
}
