//pass
//--blockDim=128 --gridDim=16

// Element-wise operator chosen at run time through a device function pointer (one
// dispatch table entry per mode, the host picks the mode): the indirect call is a
// case split over the functions whose address the kernel takes.

typedef float (*unary_op)(float);

__device__ float square_op(float x) { return x * x; }
__device__ float negate_op(float x) { return -x; }
__device__ float relu_op(float x) { return x > 0.0f ? x : 0.0f; }

__global__ void apply(const float *in, float *out, int mode, int n) {
  unary_op op;
  if (mode == 0)
    op = square_op;
  else if (mode == 1)
    op = negate_op;
  else
    op = relu_op;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = op(in[i]);
}
