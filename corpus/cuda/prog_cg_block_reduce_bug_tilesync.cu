//xfail:NOT_ALL_VERIFIED
//--blockDim=256 --gridDim=32
//possible [a-z]+-[a-z]+ race on partial\[

// The partial sums are published with tile.sync() instead of block.sync(): a tile
// barrier orders only the 32 threads of one warp, so the tiles read the partial
// sums of other tiles while they are written.
#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ float tileSum(cg::thread_block_tile<32> tile, float v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += tile.shfl_down(v, offset);
  return v;
}

__global__ void blockSum(const float *in, float *out, int n) {
  __shared__ float partial[8];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  v = tileSum(tile, v);
  if (tile.thread_rank() == 0)
    partial[tile.meta_group_rank()] = v;
  tile.sync();
  v = tile.thread_rank() < 8 ? partial[tile.thread_rank()] : 0.0f;
  v = tileSum(tile, v);
  if (block.thread_rank() == 0)
    out[blockIdx.x] = v;
}

int main() {
  const int n = 256 * 32;
  float *d_in, *d_out;
  cudaMalloc(&d_in, n * sizeof(float));
  cudaMalloc(&d_out, 32 * sizeof(float));
  blockSum<<<32, 256>>>(d_in, d_out, n);
  cudaDeviceSynchronize();
  cudaFree(d_in);
  cudaFree(d_out);
  return 0;
}
