//pass
//--blockDim=64 --gridDim=16

// r0 through a 64-bit offset built from two differently extended 32-bit parts: the row
// base `y * w` is unsigned (zero-extended) and the column `x` an int (sign-extended), as
// when a thread filters its own row through `float *row = &od[y * w]`.
__device__ void fill_row(float *row, int w) {
  for (int x = 0; x < w; x++)
    row[x] = 0.5f * x;
}

__global__ void rows(float *od, int w) {
  __requires(w == 512);
  unsigned int y = blockIdx.x * blockDim.x + threadIdx.x;
  fill_row(&od[y * w], w);
}
