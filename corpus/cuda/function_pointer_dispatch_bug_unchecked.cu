//xfail:NOT_ALL_VERIFIED
//--blockDim=128 --gridDim=16
//function_pointer_dispatch_bug_unchecked.cu:17:[0-9]+: error: possible null pointer access

// The operator comes straight from the host with no precondition naming the
// functions it may be: it may be null or any other value, so the call is reported
// (with __requires(op == square_op | op == negate_op) it verifies).

typedef float (*unary_op)(float);

__device__ float square_op(float x) { return x * x; }
__device__ float negate_op(float x) { return -x; }

__global__ void apply(const float *in, float *out, unary_op op, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = op(in[i]);
}
