//xfail:NOT_ALL_VERIFIED
//--blockDim=128 --gridDim=16
//invariant_bug_notmaintained.cu:12:[0-9]+: error: loop invariant might not be maintained

// A user loop invariant that holds on entry but is not preserved: the loop
// runs n times and n is unconstrained, so k <= 16 breaks after 16 steps.
__global__ void prefix_count(const int *flags, unsigned *count, unsigned n) {
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned c = 0;
  unsigned k = 0;
  for (;
       __invariant(k <= 16), k < n; k++)
    c += flags[k] != 0;
  count[gid] = c;
}
