//xfail:NOT_ALL_VERIFIED
//--gridDim=[8,8] --blockDim=[16,4]

// bug: the first copy steps by ROWS / 2, so rows ty + i of two threads meet.
// Tiled transpose, each thread copying TILE / ROWS rows.  r1 residues through the
// 64-bit index of the 2-D tile (ZEXT64(ty + i) * 16 + tx, modulo 16 * 4 around
// i = 0), kept for one group only (threads of two groups keep their tile log across
// the barrier); the output rows through the nested counter i at the head of the
// r loop; r0 decomposes out's offset with width pinned to 128 by __requires.
#define TILE 16
#define ROWS 4
__global__ void transpose_tiles(float *out, const float *in, int width, int reps) {
  __requires(width == 128);
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  int xo = blockIdx.y * TILE + threadIdx.x;
  int yo = blockIdx.x * TILE + threadIdx.y;
  for (int r = 0; r < reps; r++) {
    for (int i = 0; i < TILE; i += ROWS / 2)
      tile[threadIdx.y + i][threadIdx.x] = in[(y + i) * width + x];
    __syncthreads();
    for (int i = 0; i < TILE; i += ROWS)
      out[(yo + i) * width + xo] = tile[threadIdx.x][threadIdx.y + i];
    __syncthreads();
  }
}
