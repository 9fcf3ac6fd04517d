//xfail:NOT_ALL_VERIFIED
//--blockDim=[32,4] --gridDim=[4,8]
//possible (write-write|write-read|read-write) race on v

// As range_rows.cu, but consecutive strips share a row: a race.
__global__ void scale_strips(float2 *v, int width, int height, int rows, float s) {
  __requires(width == 128);
  __requires(height == 512);
  __requires(rows == 16);
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y0 = blockIdx.y * (rows * blockDim.y) + threadIdx.y * (rows - 1);  // strips overlap by a row
  if (x < width) {
    for (int p = 0; p < rows; p++) {
      int y = y0 + p;
      if (y < height) {
        float2 c = v[y * width + x];
        c.x *= s;
        c.y *= s;
        v[y * width + x] = c;
      }
    }
  }
}
