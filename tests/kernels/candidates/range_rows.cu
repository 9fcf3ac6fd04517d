//pass
//--blockDim=[32,4] --gridDim=[4,8]

// range + r1 field band: each thread scales the complex values of its own column in
// `rows` consecutive rows (a strip of a 2-D grid of float2); the float2 halves are two
// accesses at 2 * index and 2 * index + 1 floats.
__global__ void scale_strips(float2 *v, int width, int height, int rows, float s) {
  __requires(width == 128);
  __requires(height == 512);
  __requires(rows == 16);
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y0 = blockIdx.y * (rows * blockDim.y) + threadIdx.y * rows;
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
