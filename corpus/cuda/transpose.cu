//pass
//--blockDim=[16,16] --gridDim=[8,8]

// Tiled transpose of a 128x128 matrix through a padded 16x17 shared tile.
#define TILE 16
#define WIDTH 128

__global__ void transpose(const float *in, float *out) {
  __shared__ float tile[TILE][TILE + 1];
  unsigned tx = threadIdx.x, ty = threadIdx.y; __requires(blockDim.x == TILE && blockDim.y == TILE);
  unsigned bx = blockIdx.x, by = blockIdx.y; __requires(gridDim.x <= WIDTH / TILE && gridDim.y <= WIDTH / TILE);
  tile[ty][tx] = in[(by * TILE + ty) * WIDTH + bx * TILE + tx];
  __syncthreads();
  out[(bx * TILE + ty) * WIDTH + by * TILE + tx] = tile[tx][ty];
}
