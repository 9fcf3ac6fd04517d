/* cooperative_groups/reduce.h: cg::reduce over a tile, as shuffles (see ../../bugle_cuda_cg.h). */
#ifndef BUGLE_CG_REDUCE_H
#define BUGLE_CG_REDUCE_H
#include <cuda.h>
namespace cooperative_groups {
template <class T> struct plus { __device__ __forceinline__ T operator()(T a, T b) const { return a + b; } };
template <class T> struct less { __device__ __forceinline__ T operator()(T a, T b) const { return a < b ? a : b; } };
template <class T> struct greater { __device__ __forceinline__ T operator()(T a, T b) const { return a > b ? a : b; } };
/* every lane gets the reduction of the tile: shuffle results are arbitrary values to
   bugle, and the tile's shuffles are divergence-checked */
template <unsigned int N, class T, class Op>
static __device__ __forceinline__ T reduce(const thread_block_tile<N> &g, T v, Op op) {
  if constexpr (N >= 2) v = op(v, g.shfl_xor(v, 1));
  if constexpr (N >= 4) v = op(v, g.shfl_xor(v, 2));
  if constexpr (N >= 8) v = op(v, g.shfl_xor(v, 4));
  if constexpr (N >= 16) v = op(v, g.shfl_xor(v, 8));
  if constexpr (N >= 32) v = op(v, g.shfl_xor(v, 16));
  return v;
}
}
#endif
