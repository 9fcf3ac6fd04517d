//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=8
//possible write-write race on .*rows
//memset_rows_bug_length.cu:10:

// memset_rows.cu clearing 17 bytes: the last byte is the next thread's first.
__global__ void clear_rows(char *rows) {
  unsigned g = blockIdx.x * 64 + threadIdx.x;
  if (g < 511) {
    __builtin_memset(rows + 16 * g, 0, 17);
  }
}
