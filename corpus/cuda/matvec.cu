//pass
//--blockDim=128 --gridDim=16

// y = A^T x for an n x 2048 row-major matrix A: thread col walks down its
// column (coalesced reads), one output element per thread.
#define COLS 2048

__global__ void matvec_t(const float *A, const float *x, float *y, unsigned n) {
  unsigned col = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f;
  for (unsigned r = 0; r < n; r++)
    sum += A[r * COLS + col] * x[r];
  y[col] = sum;
}
