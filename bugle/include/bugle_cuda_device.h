/* Device-side odds and ends of the CUDA library for bugle (part of cuda.h): NULL and
   the short unsigned type names kernels take for granted, printf/memcpy/memset,
   read-only loads, clocks, and component-wise operators on the vector types. */
#ifndef BUGLE_CUDA_DEVICE_H
#define BUGLE_CUDA_DEVICE_H

#ifndef NULL
#define NULL __null
#endif
/* glibc's <sys/types.h> names, which CUDA code on Linux gets through <stdlib.h> */
typedef unsigned int uint;
typedef unsigned short ushort;
typedef unsigned long ulong;
typedef unsigned char uchar;
typedef __PTRDIFF_TYPE__ ptrdiff_t;

/* printf in device code: clang lowers it to vprintf(format, argument buffer), which bugle
   ignores (it prints, and touches no memory but the thread's own buffer). */
extern "C" __host__ __device__ int printf(const char *format, ...);
extern "C" __host__ __device__ void *memcpy(void *dst, const void *src, size_t n);
extern "C" __host__ __device__ void *memset(void *dst, int value, size_t n);
extern "C" __host__ __device__ void *malloc(size_t n);
extern "C" __host__ __device__ void free(void *p);

/* __ldg and the cache-hinted loads: ordinary reads of the same memory. */
#define BUGLE_LDG(NAME) template <class T> static __device__ __forceinline__ T NAME(const T *p) { return *p; }
BUGLE_LDG(__ldg) BUGLE_LDG(__ldca) BUGLE_LDG(__ldcg) BUGLE_LDG(__ldcs) BUGLE_LDG(__ldlu) BUGLE_LDG(__ldcv)
#undef BUGLE_LDG
#define BUGLE_ST(NAME) template <class T> static __device__ __forceinline__ void NAME(T *p, T v) { *p = v; }
BUGLE_ST(__stwb) BUGLE_ST(__stcg) BUGLE_ST(__stcs) BUGLE_ST(__stwt)
#undef BUGLE_ST

/* Clocks: arbitrary values (a different one at every read, in every thread). */
static __host__ __device__ __forceinline__ long long clock64(void) { long long t; return t; }
static __host__ __device__ __forceinline__ long clock(void) { long t; return t; }
static __device__ __forceinline__ unsigned long long __globaltimer(void) { unsigned long long t; return t; }
static __device__ __forceinline__ void __nanosleep(unsigned int ns) {}
static __device__ __forceinline__ void __trap(void) { __builtin_trap(); }

/* Component-wise arithmetic on the CUDA vector types (float4 - float4, float3 * s, ...),
   as helper_math.h-style headers define it.  These are templates, so a kernel (or its
   own helper_math.h) that defines the same operators as ordinary functions takes
   precedence instead of clashing. */
template <class V> struct __bugle_vec { static const int n = 0; };
#define BUGLE_VEC_INFO(N, T)                                                         \
  template <> struct __bugle_vec<N##1> { typedef T comp; static const int n = 1; };  \
  template <> struct __bugle_vec<N##2> { typedef T comp; static const int n = 2; };  \
  template <> struct __bugle_vec<N##3> { typedef T comp; static const int n = 3; };  \
  template <> struct __bugle_vec<N##4> { typedef T comp; static const int n = 4; };
BUGLE_VEC_INFO(char, signed char) BUGLE_VEC_INFO(uchar, unsigned char) BUGLE_VEC_INFO(short, short)
BUGLE_VEC_INFO(ushort, unsigned short) BUGLE_VEC_INFO(int, int) BUGLE_VEC_INFO(uint, unsigned int)
BUGLE_VEC_INFO(longlong, long long) BUGLE_VEC_INFO(ulonglong, unsigned long long)
BUGLE_VEC_INFO(float, float) BUGLE_VEC_INFO(double, double)
#undef BUGLE_VEC_INFO
template <bool B, class T = void> struct __bugle_enable_if {};
template <class T> struct __bugle_enable_if<true, T> { typedef T type; };
#define BUGLE_IS_VEC(V) typename __bugle_enable_if<(__bugle_vec<V>::n > 0), V>::type
#define BUGLE_COMP(V) typename __bugle_vec<V>::comp
/* r.c = a.c OP b.c for each component c that V has */
#define BUGLE_EACH(V, STMT)                                                          \
  STMT(x);                                                                           \
  if constexpr (__bugle_vec<V>::n >= 2) { STMT(y); }                                 \
  if constexpr (__bugle_vec<V>::n >= 3) { STMT(z); }                                 \
  if constexpr (__bugle_vec<V>::n >= 4) { STMT(w); }
#define BUGLE_DEF_BINOP(NAME, OP)                                                                  \
  template <class V> static __host__ __device__ __forceinline__ BUGLE_IS_VEC(V) operator OP(V a, V b) { \
    V r; BUGLE_EACH(V, NAME##_VV) return r; }                                                      \
  template <class V> static __host__ __device__ __forceinline__ BUGLE_IS_VEC(V) operator OP(V a, BUGLE_COMP(V) s) { \
    V r; BUGLE_EACH(V, NAME##_VS) return r; }                                                      \
  template <class V> static __host__ __device__ __forceinline__ BUGLE_IS_VEC(V) operator OP(BUGLE_COMP(V) s, V b) { \
    V r; BUGLE_EACH(V, NAME##_SV) return r; }                                                      \
  template <class V> static __host__ __device__ __forceinline__ BUGLE_IS_VEC(V) &operator OP##=(V &a, V b) { \
    a = a OP b; return a; }                                                                        \
  template <class V> static __host__ __device__ __forceinline__ BUGLE_IS_VEC(V) &operator OP##=(V &a, BUGLE_COMP(V) s) { \
    a = a OP s; return a; }
#define BUGLE_ADD_VV(c) r.c = a.c + b.c
#define BUGLE_ADD_VS(c) r.c = a.c + s
#define BUGLE_ADD_SV(c) r.c = s + b.c
#define BUGLE_SUB_VV(c) r.c = a.c - b.c
#define BUGLE_SUB_VS(c) r.c = a.c - s
#define BUGLE_SUB_SV(c) r.c = s - b.c
#define BUGLE_MUL_VV(c) r.c = a.c * b.c
#define BUGLE_MUL_VS(c) r.c = a.c * s
#define BUGLE_MUL_SV(c) r.c = s * b.c
#define BUGLE_DIV_VV(c) r.c = a.c / b.c
#define BUGLE_DIV_VS(c) r.c = a.c / s
#define BUGLE_DIV_SV(c) r.c = s / b.c
BUGLE_DEF_BINOP(BUGLE_ADD, +)
BUGLE_DEF_BINOP(BUGLE_SUB, -)
BUGLE_DEF_BINOP(BUGLE_MUL, *)
BUGLE_DEF_BINOP(BUGLE_DIV, /)
#define BUGLE_NEG(c) r.c = -a.c
template <class V> static __host__ __device__ __forceinline__ BUGLE_IS_VEC(V) operator-(V a) {
  V r; BUGLE_EACH(V, BUGLE_NEG) return r; }
#undef BUGLE_NEG
#undef BUGLE_ADD_VV
#undef BUGLE_ADD_VS
#undef BUGLE_ADD_SV
#undef BUGLE_SUB_VV
#undef BUGLE_SUB_VS
#undef BUGLE_SUB_SV
#undef BUGLE_MUL_VV
#undef BUGLE_MUL_VS
#undef BUGLE_MUL_SV
#undef BUGLE_DIV_VV
#undef BUGLE_DIV_VS
#undef BUGLE_DIV_SV
#undef BUGLE_DEF_BINOP
#undef BUGLE_EACH
#undef BUGLE_COMP
#undef BUGLE_IS_VEC
#endif
