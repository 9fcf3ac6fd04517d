//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=2
//annot_bool_queries_bug_uniform.cu:13:3: error: this assertion might not hold

// Like annot_bool_queries.cu, but claims that "being among the first 16 threads" is
// the same for both threads: it is not for threads 0 and 16.
__global__ void flags(int *out, int n) {
  __global_requires(n > 0);
  unsigned t = threadIdx.x;
  bool lead = t == 0;
  __assert(__uniform_bool(n > 0));
  __assert(__implies(__other_int(blockIdx.x) == blockIdx.x, __distinct_bool(t == 0) || t != 0));
  __assert(__uniform_bool(t < 16));
  if (lead)
    out[blockIdx.x] = n;
}
