//pass
//--blockDim=[16,16] --gridDim=[4,4]

// Sum-pooling 4x4 windows of a 256x256 image into a 64x64 image: one output
// pixel per thread, two nested loops over the window.
#define IN_W 256
#define OUT_W 64

__global__ void pool4x4(const float *img, float *pooled) {
  unsigned ox = blockIdx.x * blockDim.x + threadIdx.x; __requires(blockDim.x * gridDim.x <= OUT_W && blockDim.y * gridDim.y <= OUT_W);
  unsigned oy = blockIdx.y * blockDim.y + threadIdx.y;
  float sum = 0.0f;
  for (unsigned dy = 0; dy < 4; dy++)
    for (unsigned dx = 0; dx < 4; dx++)
      sum += img[(4 * oy + dy) * IN_W + 4 * ox + dx];
  pooled[oy * OUT_W + ox] = sum;
}
