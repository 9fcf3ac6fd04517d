/* Cooperative groups for bugle (part of cuda.h; also what cooperative_groups.h gives).

   Written from the CUDA C++ Programming Guide, "Cooperative Groups":
   * thread_block (`this_thread_block()`): `sync()` / `cg::sync(b)` / `synchronize(b)` is
     __syncthreads (barrier of the block, divergence-checked);
   * thread_block_tile<N> (`tiled_partition<N>(block)`, N a power of two <= 32): the
     threads of one tile are the N consecutive lanes of a warp starting at a multiple of
     N; `sync()` is `__syncwarp(mask of the tile)`, the shuffles and votes are the *_sync
     warp primitives with that mask (bugle/builtins.py: the mask decides which threads
     synchronise, and the call is divergence-checked among them);
   * coalesced_group (`coalesced_threads()`): the active threads of the warp;
   * grid_group (`this_grid()`): `sync()` is a barrier of the whole grid
     (`__bugle_grid_barrier`, a `$bugle_barrier` call marked {:grid_barrier}: every thread
     of every block meets there, and it is divergence-checked across blocks);
   * thread_group (`tiled_partition(parent, n)`, a tile size known only at run time):
     its `sync()` is reported as an error (exit 4) naming it, never ignored (the tile mask
     is not a compile-time fact). */
#ifndef BUGLE_CUDA_CG_H
#define BUGLE_CUDA_CG_H

extern "C" __device__ void __bugle_grid_barrier(void);
extern "C" __device__ void __bugle_cuda_unsupported_dynamic_tile_sync(void);

namespace cooperative_groups {
#define BUGLE_CG __device__ __forceinline__

static BUGLE_CG unsigned int __bugle_linear_tid(void) {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }

class thread_group {
 public:
  unsigned int __bugle_tile;  /* tile size, 0 for the whole block */
  BUGLE_CG explicit thread_group(unsigned int tile) : __bugle_tile(tile) {}
  BUGLE_CG void sync() const {
    if (__bugle_tile == 0) __syncthreads(); else __bugle_cuda_unsupported_dynamic_tile_sync(); }
  BUGLE_CG unsigned int size() const {
    return __bugle_tile ? __bugle_tile : blockDim.x * blockDim.y * blockDim.z; }
  BUGLE_CG unsigned int num_threads() const { return size(); }
  BUGLE_CG unsigned int thread_rank() const {
    return __bugle_tile ? __bugle_linear_tid() % __bugle_tile : __bugle_linear_tid(); }
};

class thread_block : public thread_group {
 public:
  BUGLE_CG thread_block() : thread_group(0) {}
  BUGLE_CG void sync() const { __syncthreads(); }
  BUGLE_CG unsigned int size() const { return blockDim.x * blockDim.y * blockDim.z; }
  BUGLE_CG unsigned int num_threads() const { return size(); }
  BUGLE_CG unsigned int thread_rank() const { return __bugle_linear_tid(); }
  BUGLE_CG dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  BUGLE_CG dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  BUGLE_CG dim3 group_dim() const { return dim3(blockDim.x, blockDim.y, blockDim.z); }
  BUGLE_CG dim3 dim_threads() const { return group_dim(); }
};
static BUGLE_CG thread_block this_thread_block() { return thread_block(); }

class grid_group {
 public:
  BUGLE_CG void sync() const { __bugle_grid_barrier(); }
  BUGLE_CG bool is_valid() const { return true; }
  BUGLE_CG unsigned long long size() const {
    return (unsigned long long)(blockDim.x * blockDim.y * blockDim.z) * (gridDim.x * gridDim.y * gridDim.z); }
  BUGLE_CG unsigned long long num_threads() const { return size(); }
  BUGLE_CG unsigned long long thread_rank() const {
    unsigned long long b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    return b * (blockDim.x * blockDim.y * blockDim.z) + __bugle_linear_tid(); }
  BUGLE_CG dim3 group_dim() const { return dim3(blockDim.x, blockDim.y, blockDim.z); }
  BUGLE_CG unsigned long long block_rank() const {
    return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z); }
};
static BUGLE_CG grid_group this_grid() { return grid_group(); }

/* A tile of N lanes: mask of the tile holding this thread's lane. */
template <unsigned int N> static BUGLE_CG unsigned int __bugle_tile_mask() {
  static_assert(N >= 1 && N <= 32 && (N & (N - 1)) == 0, "tile size must be a power of two <= 32");
  if constexpr (N == 32) {
    return 0xffffffffu;
  } else {
    unsigned int lane = __bugle_linear_tid() % 32;
    return ((1u << N) - 1) << (lane - lane % N);
  }
}

template <unsigned int N> class thread_block_tile : public thread_group {
 public:
  BUGLE_CG thread_block_tile() : thread_group(N) {}
  BUGLE_CG void sync() const { __syncwarp(__bugle_tile_mask<N>()); }
  static constexpr BUGLE_CG unsigned int size() { return N; }
  static constexpr BUGLE_CG unsigned int num_threads() { return N; }
  BUGLE_CG unsigned int thread_rank() const { return __bugle_linear_tid() % N; }
  BUGLE_CG unsigned int meta_group_rank() const { return __bugle_linear_tid() / N; }
  BUGLE_CG unsigned int meta_group_size() const {
    return (blockDim.x * blockDim.y * blockDim.z + N - 1) / N; }
  template <class T> BUGLE_CG T shfl(T v, int src) const { return __shfl_sync(__bugle_tile_mask<N>(), v, src, N); }
  template <class T> BUGLE_CG T shfl_down(T v, unsigned int d) const {
    return __shfl_down_sync(__bugle_tile_mask<N>(), v, d, N); }
  template <class T> BUGLE_CG T shfl_up(T v, unsigned int d) const {
    return __shfl_up_sync(__bugle_tile_mask<N>(), v, d, N); }
  template <class T> BUGLE_CG T shfl_xor(T v, int m) const {
    return __shfl_xor_sync(__bugle_tile_mask<N>(), v, m, N); }
  BUGLE_CG int any(int p) const { return __any_sync(__bugle_tile_mask<N>(), p); }
  BUGLE_CG int all(int p) const { return __all_sync(__bugle_tile_mask<N>(), p); }
  BUGLE_CG unsigned int ballot(int p) const { return __ballot_sync(__bugle_tile_mask<N>(), p); }
};
template <unsigned int N, class Parent> static BUGLE_CG thread_block_tile<N> tiled_partition(const Parent &) {
  return thread_block_tile<N>(); }
static BUGLE_CG thread_group tiled_partition(const thread_group &, unsigned int n) { return thread_group(n); }

/* the active threads of the warp */
class coalesced_group {
 public:
  unsigned int __bugle_mask;
  BUGLE_CG coalesced_group(unsigned int m) : __bugle_mask(m) {}
  BUGLE_CG void sync() const { __syncwarp(__bugle_mask); }
  BUGLE_CG unsigned int size() const { return __popc(__bugle_mask); }
  BUGLE_CG unsigned int num_threads() const { return size(); }
  BUGLE_CG unsigned int thread_rank() const {
    return __popc(__bugle_mask & ((1u << (__bugle_linear_tid() % 32)) - 1)); }
  template <class T> BUGLE_CG T shfl(T v, int src) const { return __shfl_sync(__bugle_mask, v, src); }
  BUGLE_CG int any(int p) const { return __any_sync(__bugle_mask, p); }
  BUGLE_CG int all(int p) const { return __all_sync(__bugle_mask, p); }
  BUGLE_CG unsigned int ballot(int p) const { return __ballot_sync(__bugle_mask, p); }
};
static BUGLE_CG coalesced_group coalesced_threads() { return coalesced_group(__activemask()); }

template <class G> static BUGLE_CG void sync(const G &g) { g.sync(); }
template <class G> static BUGLE_CG void synchronize(const G &g) { g.sync(); }
#undef BUGLE_CG
}  // namespace cooperative_groups
#endif
