//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=4
//shfl_reduce_bug_divergent.cu:13:[0-9]+: error: barrier may be reached by non-uniform control flow

// A warp-level sum where only the lower half of each warp shuffles, yet with the
// full mask: lanes 16..31 never execute the __shfl_xor_sync their lanes are named
// in (undefined behaviour; a hang on Volta).  The mask should be 0x0000ffff.
__global__ void half_warp_sum(const int *in, int *out) {
  unsigned t = threadIdx.x, lane = t % warpSize;
  int v = in[blockIdx.x * blockDim.x + t];
  if (lane < 16) {
    for (int mask = 8; mask > 0; mask /= 2)
      v += __shfl_xor_sync(0xffffffff, v, mask);
  }
  if (lane == 0)
    out[blockIdx.x * 2 + t / warpSize] = v;
}
