//pass
//--blockDim=[16,16] --gridDim=[4,4]

// C = A * B for 64x64 row-major matrices with 16x16 shared tiles.
#define TILE 16
#define N 64
__global__ void matmul(const float *A, const float *B, float *C) {
  __requires(blockDim.x == TILE && blockDim.y == TILE && gridDim.x == N / TILE && gridDim.y == N / TILE);
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
    __syncthreads();
  }
  C[row * N + col] = sum;
}
