//pass
//--blockDim=[64,4] --gridDim=[8,8]

// r1 field band on a pitched 2-D array: row y starts at byte y * pitch, each thread
// writes the two floats of its float2 at bytes 8 * x and 8 * x + 4 of `rows` rows.
__global__ void store_strips(float2 *out, const float *re, const float *im, int width, int rows,
                             unsigned pitch) {
  __requires(width == 512);
  __requires(rows == 16);
  __requires(pitch == 4096);
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y0 = blockIdx.y * (rows * blockDim.y) + threadIdx.y * rows;
  if (x < width) {
    for (int p = 0; p < rows; p++) {
      int y = y0 + p;
      float2 *row = (float2 *)((char *)out + y * pitch);
      row[x].x = re[y * width + x];
      row[x].y = im[y * width + x];
    }
  }
}
