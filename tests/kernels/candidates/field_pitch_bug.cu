//xfail:NOT_ALL_VERIFIED
//--blockDim=[64,4] --gridDim=[8,8]
//possible write-write race on out

// As field_pitch.cu, but the second float is written into the next element: a race.
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
      ((float *)row)[2 * x + 2] = im[y * width + x];
    }
  }
}
