// Block copies: `whole` is copied in 8-byte (2-int) chunks, so it stays element
// level; `part` gets a 6-byte copy, which is not whole ints: byte level.
__global__ void copies(int *whole, int *part, int *src) {
  unsigned t = threadIdx.x;
  __builtin_memcpy(whole + 2 * t, src + 2 * t, 8);
  __builtin_memcpy(part + 2 * t, src + 2 * t, 6);
  whole[0] = part[0];
}
