//xfail:NOT_ALL_VERIFIED
//--blockDim=128 --gridDim=8
//possible (write-read|read-write) race on tmp\[
//cg_grid_two_phase_bug_blocksync.cu:(15|19):

// As cg_grid_two_phase.cu, but synchronised with the block's barrier only
// (this_thread_block().sync()): the neighbours at the block edges belong to
// other blocks, which may not have written their element of `tmp` yet.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void two_phase(const float *in, float *tmp, float *out, int n) {
  cg::thread_block block = cg::this_thread_block();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tmp[i] = 2.0f * in[i];
  block.sync();
  int l = i == 0 ? i : i - 1;
  int r = i + 1 == (int)(gridDim.x * blockDim.x) ? i : i + 1;
  out[i] = (tmp[l] + tmp[i] + tmp[r]) / 3.0f;
}
