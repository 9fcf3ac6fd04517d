//pass
//--blockDim=128 --gridDim=16

// Per-warp partial sums: lane 0 of each warp writes its warp's sum to
// partial[global warp number]. Numbering warps by global thread id / 32 is
// only collision-free when every block is made of whole warps, so the kernel
// states it: for a block size that is not a multiple of 32, the last warp
// of one block and the first of the next share a number.
#define WARP 32

__global__ void warp_partials(const int *in, int *partial) {
  __requires(blockDim.x % WARP == 0);
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[gid];
  for (int offset = WARP / 2; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  if (threadIdx.x % WARP == 0)
    partial[gid / WARP] = v;
}
