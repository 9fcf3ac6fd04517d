//xfail:NOT_ALL_VERIFIED
//--blockDim=[16,16] --gridDim=[4,4]
//possible read-write race on .*(As|Bs)
//Read by thread \([0-9, ]+\) in thread block \([0-9, ]+\).*matmul_bug_onebarrier.cu:24:
//Write by thread \([0-9, ]+\) in thread block \([0-9, ]+\).*matmul_bug_onebarrier.cu:2[01]:

// matmul.cu without the second __syncthreads(): loading tile t + 1
// overwrites As/Bs while other threads still read tile t.
#define TILE 16
#define N 64

__global__ void matmul(const float *A, const float *B, float *C) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  unsigned tx = threadIdx.x, ty = threadIdx.y;
  unsigned row = blockIdx.y * TILE + ty;
  unsigned col = blockIdx.x * TILE + tx;
  float sum = 0.0f;
  for (unsigned t = 0; t < N / TILE; t++) {
    As[ty][tx] = A[row * N + t * TILE + tx];
    Bs[ty][tx] = B[(t * TILE + ty) * N + col];
    __syncthreads();
    for (unsigned k = 0; k < TILE; k++)
      sum += As[ty][k] * Bs[k][tx];
  }
  C[row * N + col] = sum;
}
