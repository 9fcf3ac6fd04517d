/* Minimal CUDA device header for bugle (clang -fcuda-is-device, no CUDA SDK).
   Defines the declaration specifiers, the builtin index variables via
   __nvvm_read_ptx_sreg_* builtins, dim3, a few atomics (which bugle reports as
   unsupported) and the annotation functions.  __syncthreads() is a clang builtin
   (llvm.nvvm.barrier.cta.sync.aligned.all). */
#ifndef BUGLE_CUDA_H
#define BUGLE_CUDA_H
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))

typedef __SIZE_TYPE__ size_t;

struct uint3 { unsigned int x, y, z; };
struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  __host__ __device__ constexpr operator uint3() const { return uint3{x, y, z}; }
};

#define BUGLE_BUILTIN_VAR(TYPENAME, REG)                                                  \
  struct TYPENAME {                                                                        \
    __declspec(property(get = __fetch_builtin_x)) unsigned int x;                          \
    __declspec(property(get = __fetch_builtin_y)) unsigned int y;                          \
    __declspec(property(get = __fetch_builtin_z)) unsigned int z;                          \
    static __device__ __forceinline__ unsigned int __fetch_builtin_x(void) {               \
      return __nvvm_read_ptx_sreg_##REG##_x(); }                                           \
    static __device__ __forceinline__ unsigned int __fetch_builtin_y(void) {               \
      return __nvvm_read_ptx_sreg_##REG##_y(); }                                           \
    static __device__ __forceinline__ unsigned int __fetch_builtin_z(void) {               \
      return __nvvm_read_ptx_sreg_##REG##_z(); }                                           \
    __device__ operator dim3() const { return dim3(x, y, z); }                             \
    __device__ operator uint3() const { return uint3{x, y, z}; }                           \
  };
BUGLE_BUILTIN_VAR(__cuda_builtin_threadIdx_t, tid)
BUGLE_BUILTIN_VAR(__cuda_builtin_blockIdx_t, ctaid)
BUGLE_BUILTIN_VAR(__cuda_builtin_blockDim_t, ntid)
BUGLE_BUILTIN_VAR(__cuda_builtin_gridDim_t, nctaid)
#undef BUGLE_BUILTIN_VAR
extern const __device__ __cuda_builtin_threadIdx_t threadIdx;
extern const __device__ __cuda_builtin_blockIdx_t blockIdx;
extern const __device__ __cuda_builtin_blockDim_t blockDim;
extern const __device__ __cuda_builtin_gridDim_t gridDim;
#define warpSize 32

extern "C" __device__ void __syncthreads(void);
extern "C" __device__ void __threadfence(void);
extern "C" __device__ void __threadfence_block(void);

/* Atomics: plain atomicrmw/cmpxchg instructions (bugle: not supported yet). */
#define BUGLE_ATOMIC(NAME, OP, T) \
  static __device__ __forceinline__ T NAME(T *p, T v) { return OP(p, v, __ATOMIC_RELAXED); }
BUGLE_ATOMIC(atomicAdd, __atomic_fetch_add, int)
BUGLE_ATOMIC(atomicAdd, __atomic_fetch_add, unsigned int)
BUGLE_ATOMIC(atomicAdd, __atomic_fetch_add, float)
BUGLE_ATOMIC(atomicSub, __atomic_fetch_sub, int)
BUGLE_ATOMIC(atomicSub, __atomic_fetch_sub, unsigned int)
BUGLE_ATOMIC(atomicAnd, __atomic_fetch_and, int)
BUGLE_ATOMIC(atomicAnd, __atomic_fetch_and, unsigned int)
BUGLE_ATOMIC(atomicOr, __atomic_fetch_or, int)
BUGLE_ATOMIC(atomicOr, __atomic_fetch_or, unsigned int)
BUGLE_ATOMIC(atomicXor, __atomic_fetch_xor, int)
BUGLE_ATOMIC(atomicXor, __atomic_fetch_xor, unsigned int)
BUGLE_ATOMIC(atomicMin, __atomic_fetch_min, int)
BUGLE_ATOMIC(atomicMin, __atomic_fetch_min, unsigned int)
BUGLE_ATOMIC(atomicMax, __atomic_fetch_max, int)
BUGLE_ATOMIC(atomicMax, __atomic_fetch_max, unsigned int)
#undef BUGLE_ATOMIC
static __device__ __forceinline__ int atomicExch(int *p, int v) {
  return __atomic_exchange_n(p, v, __ATOMIC_RELAXED); }
static __device__ __forceinline__ unsigned int atomicExch(unsigned int *p, unsigned int v) {
  return __atomic_exchange_n(p, v, __ATOMIC_RELAXED); }
static __device__ __forceinline__ int atomicCAS(int *p, int cmp, int v) {
  __atomic_compare_exchange_n(p, &cmp, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED); return cmp; }
static __device__ __forceinline__ unsigned int atomicCAS(unsigned int *p, unsigned int cmp, unsigned int v) {
  __atomic_compare_exchange_n(p, &cmp, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED); return cmp; }

static __device__ __forceinline__ int min(int a, int b) { return a < b ? a : b; }
static __device__ __forceinline__ int max(int a, int b) { return a > b ? a : b; }
static __device__ __forceinline__ unsigned int min(unsigned int a, unsigned int b) { return a < b ? a : b; }
static __device__ __forceinline__ unsigned int max(unsigned int a, unsigned int b) { return a > b ? a : b; }

#include "annotations.h"
#endif
