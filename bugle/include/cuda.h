/* Minimal CUDA device header for bugle (clang -fcuda-is-device, no CUDA SDK).
   Defines the declaration specifiers, the builtin index variables via
   __nvvm_read_ptx_sreg_* builtins, dim3, warpSize, the vector types (float4 ...) with
   make_*, __syncthreads_count/_and/_or, fences, __mul24, the atomic functions, the warp
   primitives and the annotation functions; the rest of the library is in the
   bugle_cuda_*.h files included at the end (math and intrinsics, runtime API for host
   code, textures, cuRAND, cooperative groups, NULL/uint/printf and vector operators).
   nvcc makes all of it visible in every .cu file, and so does bugle (force-included).
   __syncthreads() is a clang builtin (llvm.nvvm.barrier.cta.sync.aligned.all). */
#ifndef BUGLE_CUDA_H
#define BUGLE_CUDA_H
#include "macro_shield_push.h"
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __align__(n) __attribute__((aligned(n)))

#ifdef __BUGLE_PROGRAM_SIZE_T
/* the program typedefs its own size_t (bugle.cc.run_clang retries with this macro):
   the header's declarations use the target's, the program's own follows the header */
#define size_t __SIZE_TYPE__
#else
typedef __SIZE_TYPE__ size_t;
#endif

/* CUDA vector types (structs with the CUDA alignments) and make_* constructors. */
#define BUGLE_VEC1(T, N, A) struct __attribute__((aligned(A))) N##1 { T x; };
#define BUGLE_VEC2(T, N, A) struct __attribute__((aligned(A))) N##2 { T x, y; };
#define BUGLE_VEC3(T, N) struct N##3 { T x, y, z; };
#define BUGLE_VEC4(T, N, A) struct __attribute__((aligned(A))) N##4 { T x, y, z, w; };
#define BUGLE_MAKE(T, N)                                                                    \
  static __device__ __forceinline__ N##1 make_##N##1(T x) { N##1 r; r.x = x; return r; }   \
  static __device__ __forceinline__ N##2 make_##N##2(T x, T y) {                            \
    N##2 r; r.x = x; r.y = y; return r; }                                                   \
  static __device__ __forceinline__ N##3 make_##N##3(T x, T y, T z) {                       \
    N##3 r; r.x = x; r.y = y; r.z = z; return r; }                                          \
  static __device__ __forceinline__ N##4 make_##N##4(T x, T y, T z, T w) {                  \
    N##4 r; r.x = x; r.y = y; r.z = z; r.w = w; return r; }
#define BUGLE_VECS(T, N, A1, A2, A4) \
  BUGLE_VEC1(T, N, A1) BUGLE_VEC2(T, N, A2) BUGLE_VEC3(T, N) BUGLE_VEC4(T, N, A4) BUGLE_MAKE(T, N)
BUGLE_VECS(signed char, char, 1, 2, 4)
BUGLE_VECS(unsigned char, uchar, 1, 2, 4)
BUGLE_VECS(short, short, 2, 4, 8)
BUGLE_VECS(unsigned short, ushort, 2, 4, 8)
BUGLE_VECS(int, int, 4, 8, 16)
BUGLE_VECS(unsigned int, uint, 4, 8, 16)
BUGLE_VECS(long long, longlong, 8, 16, 16)
BUGLE_VECS(unsigned long long, ulonglong, 8, 16, 16)
BUGLE_VECS(float, float, 4, 8, 16)
BUGLE_VECS(double, double, 8, 16, 16)
#undef BUGLE_VECS
#undef BUGLE_MAKE
#undef BUGLE_VEC1
#undef BUGLE_VEC2
#undef BUGLE_VEC3
#undef BUGLE_VEC4
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
/* an enumerator rather than a macro: host code reads cudaDeviceProp::warpSize */
enum { warpSize = 32 };

extern "C" __device__ void __syncthreads(void);
/* Barrier plus a block-wide reduction of a predicate; bugle keeps the barrier and leaves
   the value arbitrary (llvm.nvvm.barrier.cta.red.*). */
static __device__ __forceinline__ int __syncthreads_count(int p) { return __nvvm_bar0_popc(p); }
static __device__ __forceinline__ int __syncthreads_and(int p) { return __nvvm_bar0_and(p); }
static __device__ __forceinline__ int __syncthreads_or(int p) { return __nvvm_bar0_or(p); }
/* Fences order one thread's accesses only: no synchronisation between threads. */
static __device__ __forceinline__ void __threadfence(void) { __nvvm_membar_gl(); }
static __device__ __forceinline__ void __threadfence_block(void) { __nvvm_membar_cta(); }
static __device__ __forceinline__ void __threadfence_system(void) { __nvvm_membar_sys(); }

/* 24-bit multiplication: exact (low 32 bits of the product of the low 24 bits). */
static __device__ __forceinline__ int __mul24(int a, int b) { return __nvvm_mul24_i(a, b); }
static __device__ __forceinline__ unsigned int __umul24(unsigned int a, unsigned int b) {
  return __nvvm_mul24_ui(a, b); }

/* Math functions and integer intrinsics: bugle_cuda_math.h (included at the end). */


/* Atomics (CUDA C Programming Guide, "Atomic Functions"): each is one atomicrmw or
   cmpxchg instruction (relaxed ordering, as on the device), which bugle translates into
   an atomic access of the array (docs/IL.md "Atomic read-modify-write").  The _system
   and _block variants differ only in scope, which does not matter for races. */
#define BUGLE_RMW(NAME, OP, T) \
  static __device__ __forceinline__ T NAME(T *p, T v) { return OP(p, v, __ATOMIC_RELAXED); } \
  static __device__ __forceinline__ T NAME##_block(T *p, T v) { return OP(p, v, __ATOMIC_RELAXED); } \
  static __device__ __forceinline__ T NAME##_system(T *p, T v) { return OP(p, v, __ATOMIC_RELAXED); }
#define BUGLE_RMW_INTS(NAME, OP) \
  BUGLE_RMW(NAME, OP, int) BUGLE_RMW(NAME, OP, unsigned int) BUGLE_RMW(NAME, OP, unsigned long long)
BUGLE_RMW_INTS(atomicAdd, __atomic_fetch_add)
BUGLE_RMW(atomicAdd, __atomic_fetch_add, float)
BUGLE_RMW(atomicAdd, __atomic_fetch_add, double)
BUGLE_RMW(atomicSub, __atomic_fetch_sub, int)
BUGLE_RMW(atomicSub, __atomic_fetch_sub, unsigned int)
BUGLE_RMW_INTS(atomicExch, __atomic_exchange_n)
BUGLE_RMW_INTS(atomicAnd, __atomic_fetch_and)
BUGLE_RMW_INTS(atomicOr, __atomic_fetch_or)
BUGLE_RMW_INTS(atomicXor, __atomic_fetch_xor)
BUGLE_RMW_INTS(atomicMin, __atomic_fetch_min)
BUGLE_RMW(atomicMin, __atomic_fetch_min, long long)
BUGLE_RMW_INTS(atomicMax, __atomic_fetch_max)
BUGLE_RMW(atomicMax, __atomic_fetch_max, long long)
#undef BUGLE_RMW_INTS
#undef BUGLE_RMW
static __device__ __forceinline__ float atomicExch(float *p, float v) {
  float r; __atomic_exchange(p, &v, &r, __ATOMIC_RELAXED); return r; }
/* ((old >= v) ? 0 : old + 1) and (((old == 0) || (old > v)) ? v : old - 1):
   atomicrmw uinc_wrap / udec_wrap. */
static __device__ __forceinline__ unsigned int atomicInc(unsigned int *p, unsigned int v) {
  return __nvvm_atom_inc_gen_ui(p, v); }
static __device__ __forceinline__ unsigned int atomicDec(unsigned int *p, unsigned int v) {
  return __nvvm_atom_dec_gen_ui(p, v); }
/* Compare-and-swap returning the old value: one cmpxchg, no control flow. */
static __device__ __forceinline__ int atomicCAS(int *p, int cmp, int v) {
  return __nvvm_atom_cas_gen_i(p, cmp, v); }
static __device__ __forceinline__ unsigned int atomicCAS(unsigned int *p, unsigned int cmp, unsigned int v) {
  return (unsigned int)__nvvm_atom_cas_gen_i((int *)p, (int)cmp, (int)v); }
static __device__ __forceinline__ unsigned long long atomicCAS(unsigned long long *p, unsigned long long cmp,
                                                               unsigned long long v) {
  return (unsigned long long)__nvvm_atom_cas_gen_ll((long long *)p, (long long)cmp, (long long)v); }
static __device__ __forceinline__ unsigned short atomicCAS(unsigned short *p, unsigned short cmp,
                                                           unsigned short v) {
  __atomic_compare_exchange_n(p, &cmp, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED); return cmp; }

/* Reinterpretation (used with atomicCAS on floats): plain bitcasts. */
static __device__ __forceinline__ int __float_as_int(float x) { return __builtin_bit_cast(int, x); }
static __device__ __forceinline__ float __int_as_float(int x) { return __builtin_bit_cast(float, x); }
static __device__ __forceinline__ unsigned int __float_as_uint(float x) {
  return __builtin_bit_cast(unsigned int, x); }
static __device__ __forceinline__ float __uint_as_float(unsigned int x) { return __builtin_bit_cast(float, x); }
static __device__ __forceinline__ long long __double_as_longlong(double x) {
  return __builtin_bit_cast(long long, x); }
static __device__ __forceinline__ double __longlong_as_double(long long x) {
  return __builtin_bit_cast(double, x); }

/* Warp-level primitives (CUDA C Programming Guide, "Warp Vote Functions", "Warp Shuffle
   Functions", "Synchronization Functions"), as CUDA's own headers define them:
   __syncwarp -> llvm.nvvm.bar.warp.sync, shuffles -> llvm.nvvm.shfl.sync.{idx,up,down,bfly}
   on 32-bit values (64-bit values as two shuffles), votes -> llvm.nvvm.vote.*.sync, the
   legacy mask-less forms -> llvm.nvvm.shfl.* / llvm.nvvm.vote.*.  bugle: __syncwarp orders
   the accesses of warp-mates; shuffle results are arbitrary; votes are arbitrary but the
   same for warp-mates; the *_sync forms are divergence-checked (bugle/builtins.py). */
static __device__ __forceinline__ void __syncwarp(unsigned int mask = 0xffffffffu) {
  __nvvm_bar_warp_sync(mask); }
static __device__ __forceinline__ unsigned int __activemask(void) { return __nvvm_activemask(); }
static __device__ __forceinline__ int __all_sync(unsigned int mask, int p) { return __nvvm_vote_all_sync(mask, p); }
static __device__ __forceinline__ int __any_sync(unsigned int mask, int p) { return __nvvm_vote_any_sync(mask, p); }
static __device__ __forceinline__ int __uni_sync(unsigned int mask, int p) { return __nvvm_vote_uni_sync(mask, p); }
static __device__ __forceinline__ unsigned int __ballot_sync(unsigned int mask, int p) {
  return __nvvm_vote_ballot_sync(mask, p); }
static __device__ __forceinline__ int __all(int p) { return __nvvm_vote_all(p); }
static __device__ __forceinline__ int __any(int p) { return __nvvm_vote_any(p); }
static __device__ __forceinline__ unsigned int __ballot(int p) { return __nvvm_vote_ballot(p); }
/* c operand of shfl: (warpSize - width) << 8 packs the segment mask; | 0x1f the lane clamp
   (not for shfl.up, which clamps at lane 0). */
#define BUGLE_SHFL_C(W, CLAMP) (((warpSize - (W)) << 8) | (CLAMP))
#define BUGLE_SHFL32(NAME, KIND, T, ARG, CLAMP)                                                     \
  static __device__ __forceinline__ T NAME##_sync(unsigned int mask, T v, ARG, int w = warpSize) {  \
    return __nvvm_shfl_sync_##KIND##_i32(mask, (int)v, x, BUGLE_SHFL_C(w, CLAMP)); }                \
  static __device__ __forceinline__ T NAME(T v, ARG, int w = warpSize) {                           \
    return __nvvm_shfl_##KIND##_i32((int)v, x, BUGLE_SHFL_C(w, CLAMP)); }
#define BUGLE_SHFLF(NAME, KIND, ARG, CLAMP)                                                         \
  static __device__ __forceinline__ float NAME##_sync(unsigned int mask, float v, ARG, int w = warpSize) { \
    return __nvvm_shfl_sync_##KIND##_f32(mask, v, x, BUGLE_SHFL_C(w, CLAMP)); }                     \
  static __device__ __forceinline__ float NAME(float v, ARG, int w = warpSize) {                   \
    return __nvvm_shfl_##KIND##_f32(v, x, BUGLE_SHFL_C(w, CLAMP)); }
#define BUGLE_SHFL64(NAME, T, ARG)                                                                  \
  static __device__ __forceinline__ T NAME##_sync(unsigned int mask, T v, ARG, int w = warpSize) {  \
    unsigned long long u = __builtin_bit_cast(unsigned long long, v);                               \
    unsigned int lo = NAME##_sync(mask, (unsigned int)u, x, w);                                     \
    unsigned int hi = NAME##_sync(mask, (unsigned int)(u >> 32), x, w);                             \
    return __builtin_bit_cast(T, ((unsigned long long)hi << 32) | lo); }
#define BUGLE_SHFL(NAME, KIND, ARG, CLAMP)                                                          \
  BUGLE_SHFL32(NAME, KIND, int, ARG, CLAMP) BUGLE_SHFL32(NAME, KIND, unsigned int, ARG, CLAMP)      \
  BUGLE_SHFLF(NAME, KIND, ARG, CLAMP) BUGLE_SHFL64(NAME, long long, ARG)                            \
  BUGLE_SHFL64(NAME, unsigned long long, ARG) BUGLE_SHFL64(NAME, double, ARG)
BUGLE_SHFL(__shfl, idx, int x, 0x1f)
BUGLE_SHFL(__shfl_up, up, unsigned int x, 0)
BUGLE_SHFL(__shfl_down, down, unsigned int x, 0x1f)
BUGLE_SHFL(__shfl_xor, bfly, int x, 0x1f)
#undef BUGLE_SHFL
#undef BUGLE_SHFL64
#undef BUGLE_SHFLF
#undef BUGLE_SHFL32
#undef BUGLE_SHFL_C

#include "bugle_cuda_device.h"
#include "bugle_cuda_math.h"
#include "bugle_cuda_runtime.h"
#include "bugle_cuda_texture.h"
#include "bugle_cuda_curand.h"
#include "bugle_cuda_cg.h"
#include "system/helper_math.h"
#include "annotations.h"
#ifdef __BUGLE_PROGRAM_SIZE_T
#undef size_t
#endif
#include "macro_shield_pop.h"
#endif
