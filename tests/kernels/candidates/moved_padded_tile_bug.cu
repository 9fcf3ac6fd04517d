//xfail:NOT_ALL_VERIFIED
//--gridDim=[32,32] --blockDim=[16,16]
//possible write-write race on tile

// bug: ROWS is half the tile while the block has TILE rows of threads, so thread
// row ty + ROWS in the first pass and thread row ty in the second write the same tile
// cell, from different input cells (the column moves with k, not the row).
#define TILE 16
#define ROWS 8
__global__ void scale_transposed(float *out, const float *in, int pitch, float gain) {
  __requires(pitch == 512);
  __shared__ float tile[TILE][TILE + 1];
  int col = blockIdx.x * TILE + threadIdx.x;
  int row = blockIdx.y * TILE + threadIdx.y;
  for (int k = 0; k < TILE; k += ROWS)
    tile[threadIdx.y + k][threadIdx.x] = gain * in[row * pitch + col + k];
  __syncthreads();
  int ocol = blockIdx.y * TILE + threadIdx.x;
  int orow = blockIdx.x * TILE + threadIdx.y;
  out[orow * pitch + ocol] = tile[threadIdx.x][threadIdx.y];
}
