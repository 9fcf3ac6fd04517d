//pass
//--blockDim=128 --gridDim=16

// double and 64-bit integer arithmetic: long long indices (exact), double
// math (uninterpreted, including sqrt).
__global__ void norm(const double *x, double *y, long long *idx) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  double v = x[i];
  y[i] = sqrt(v * v + 1.0);
  idx[i] = i * 1000000000000LL;
}
