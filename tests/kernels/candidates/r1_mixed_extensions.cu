//pass
//--blockDim=64 --gridDim=8

// r1 through a 64-bit offset summing a zero-extended column base and a sign-extended row
// term: each thread filters its own column through `float *col = &od[x]`, writing
// col[y * w] = od[x + y * w]; modulo w (a power of two) the offset is the column.
__device__ void fill_column(float *col, int w, int h) {
  for (int y = 0; y < h; y++)
    col[y * w] = 0.25f * y;
}

__global__ void columns(float *od, int w, int h) {
  __requires(w == 512);
  __requires(h == 256);
  unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
  fill_column(&od[x], w, h);
}
