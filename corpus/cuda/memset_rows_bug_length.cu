//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=8
//possible write-write race on .*rows
//memset_rows_bug_length.cu:12:

// memset_rows.cu clearing 17 bytes: the last byte is the next thread's first,
// which that thread sets to 1 (two threads clearing one byte to 0 alone would
// be a benign write-write race).
__global__ void clear_rows(char *rows) {
  unsigned g = blockIdx.x * 64 + threadIdx.x;
  if (g < 511) {
    __builtin_memset(rows + 16 * g, 0, 17);
  }
  rows[16 * g] = 1;
}
