//pass
//--blockDim=256 --gridDim=32

// Block reduction with cooperative groups: each warp-sized tile reduces its values with
// shuffles, tile leaders store partial sums in shared memory, block.sync(), then the
// tiles reduce the partials (CUDA samples' reductionMultiBlockCG style).
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
  block.sync();
  // every tile reduces the partials (cheaper than a divergent branch); one thread writes
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
