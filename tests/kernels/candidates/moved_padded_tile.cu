//pass
//--gridDim=[32,32] --blockDim=[16,16]

// Stage a tile through shared memory padded by one column (no bank conflicts on the
// transposed read), scale it, write it back transposed.  With ROWS == TILE each tile
// loop runs once: at its head the tile log is empty until k moved ("moved"), which
// proves the write loop race-free without the residue of the 64-bit offset
// ZEXT64(ty + k) * 17 + ZEXT64(tx) modulo 17, a division no solver decides in time.
#define TILE 16
#define ROWS 16
__global__ void scale_transposed(float *out, const float *in, int pitch, float gain) {
  __requires(pitch == 512);
  __shared__ float tile[TILE][TILE + 1];
  int col = blockIdx.x * TILE + threadIdx.x;
  int row = blockIdx.y * TILE + threadIdx.y;
  for (int k = 0; k < TILE; k += ROWS)
    tile[threadIdx.y + k][threadIdx.x] = gain * in[(row + k) * pitch + col];
  __syncthreads();
  int ocol = blockIdx.y * TILE + threadIdx.x;
  int orow = blockIdx.x * TILE + threadIdx.y;
  out[orow * pitch + ocol] = tile[threadIdx.x][threadIdx.y];
}
