//xfail:NOT_ALL_VERIFIED
//--blockDim=128 --gridDim=16 --check-array-bounds
//shift_bounds_bug_negative.cu:16:12: error: possible array out-of-bounds access on array s by thread 0 in thread block [0-9]+
//out\[i\] = s\[tid - 1\];

// shift_bounds.cu without the guard for thread 0: it reads s[tid - 1] with
// tid == 0. The index is unsigned arithmetic, so -1 wraps to 0xffffffff,
// far outside the 128-element shared array.
#define BLOCK 128
__global__ void shift_right(const int *in, int *out) {
  __shared__ int s[BLOCK];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * BLOCK + tid;
  s[tid] = in[i];
  __syncthreads();
  out[i] = s[tid - 1];
}
