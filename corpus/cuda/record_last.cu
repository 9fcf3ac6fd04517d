//pass
//--blockDim=128 --gridDim=16

// Square the input; the last thread of each block also stores the block's
// last input in the block's own slot.
__global__ void square_and_tail(const int *in, int *out, int *tail) {
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  out[gid] = in[gid] * in[gid];
  if (threadIdx.x == blockDim.x - 1)
    tail[blockIdx.x] = in[gid];
}
