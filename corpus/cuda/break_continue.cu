//pass
//--blockDim=128 --gridDim=16

// Per-thread linear search in a row of 64 keys: skip deleted keys (value 0)
// with continue, stop at the first match with break; store the position or
// -1.
#define ROW 64

__global__ void find_key(const unsigned *rows, const unsigned *wanted, int *pos) {
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned key = wanted[gid];
  int found = -1;
  for (unsigned j = 0; j < ROW; j++) {
    unsigned v = rows[gid * ROW + j];
    if (v == 0)
      continue;
    if (v == key) {
      found = (int)j;
      break;
    }
  }
  pos[gid] = found;
}
