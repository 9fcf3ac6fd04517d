//pass
//--blockDim=64 --gridDim=8

// Each thread clears its own 16-byte row with memset, then sets its first byte.
__global__ void clear_rows(char *rows) {
  __requires(blockDim.x == 64 && gridDim.x <= 65536);
  unsigned g = blockIdx.x * 64 + threadIdx.x;
  __builtin_memset(rows + 16 * g, 0, 16);
  rows[16 * g] = 1;
}
