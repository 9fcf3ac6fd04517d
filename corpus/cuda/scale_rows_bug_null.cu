//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=8
//scale_rows_bug_null.cu:13:18: error: possible null pointer access for thread [0-9]+
//float unused = w\[i\];

// Scales each element by an optional per-element weight: the host passes
// use_weights = 0 when there is no weight buffer, and then the kernel must not read it.
// Bug: a read left over from a refactoring loads w[i] before the check; its value is
// never used, but the load still dereferences a null pointer.
__global__ void scale_rows(float *m, const float *weights, int use_weights) {
  const float *w = use_weights ? weights : nullptr;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float unused = w[i];
  if (w != nullptr)
    m[i] = m[i] * w[i];
}
