/* CUDA math functions and integer intrinsics for bugle (part of cuda.h).

   Floating point: LLVM intrinsics (__builtin_sqrtf ...) or `const` external functions;
   bugle translates both into uninterpreted functions of the bit patterns (DESIGN.md
   section 4), so only the C/C++ signatures matter here.  C++ overloads for float
   (`floor(float)`, `sqrt(float)`, `abs(float)` ...) as CUDA's math library declares them.

   Host and device: host code uses them too (it is parsed, never translated).

   Integers: exact bit-vector meanings (min/max/abs, __ffs, __clz, __popc, __brev,
   __mulhi ...), written with plain C operators or the LLVM bit-counting intrinsics. */
#ifndef BUGLE_CUDA_MATH_H
#define BUGLE_CUDA_MATH_H

#define BUGLE_MF __host__ __device__ __forceinline__
/* The C functions (sqrtf, sqrt) are host and device; the C++ float overloads
   (sqrt(float)), the CUDA intrinsics and the min/max overloads are device functions (kernel files redeclare
   them as `__device__ float max(float, float);`, which must match) */
#define BUGLE_DF __device__ __forceinline__
/* f(x) for float and double: `fnf` and `fn` as external const functions, plus the C++
   overload `fn(float)`. */
#define BUGLE_EXT1(F)                                                                     \
  extern "C" __host__ __device__ float F##f(float) __attribute__((const));                         \
  extern "C" __host__ __device__ double F(double) __attribute__((const));                          \
  static BUGLE_DF float F(float x) { return F##f(x); }
#define BUGLE_EXT2(F)                                                                     \
  extern "C" __host__ __device__ float F##f(float, float) __attribute__((const));                  \
  extern "C" __host__ __device__ double F(double, double) __attribute__((const));                  \
  static BUGLE_DF float F(float x, float y) { return F##f(x, y); }
/* the same with LLVM intrinsics (clang builtins) */
#define BUGLE_BI1(F)                                                                      \
  static BUGLE_MF float F##f(float x) { return __builtin_##F##f(x); }                     \
  static BUGLE_MF double F(double x) { return __builtin_##F(x); }                         \
  static BUGLE_DF float F(float x) { return __builtin_##F##f(x); }
#define BUGLE_BI2(F)                                                                      \
  static BUGLE_MF float F##f(float x, float y) { return __builtin_##F##f(x, y); }         \
  static BUGLE_MF double F(double x, double y) { return __builtin_##F(x, y); }            \
  static BUGLE_DF float F(float x, float y) { return __builtin_##F##f(x, y); }
BUGLE_BI1(sqrt) BUGLE_BI1(fabs) BUGLE_BI1(floor) BUGLE_BI1(ceil) BUGLE_BI1(trunc)
BUGLE_BI1(round) BUGLE_BI1(rint) BUGLE_BI1(nearbyint)
BUGLE_BI2(fmin) BUGLE_BI2(fmax) BUGLE_BI2(copysign)
BUGLE_EXT1(rsqrt) BUGLE_EXT1(exp) BUGLE_EXT1(exp2) BUGLE_EXT1(exp10) BUGLE_EXT1(expm1)
BUGLE_EXT1(log) BUGLE_EXT1(log2) BUGLE_EXT1(log10) BUGLE_EXT1(log1p) BUGLE_EXT1(logb)
BUGLE_EXT1(sin) BUGLE_EXT1(cos) BUGLE_EXT1(tan) BUGLE_EXT1(asin) BUGLE_EXT1(acos)
BUGLE_EXT1(atan) BUGLE_EXT1(sinh) BUGLE_EXT1(cosh) BUGLE_EXT1(tanh) BUGLE_EXT1(asinh)
BUGLE_EXT1(acosh) BUGLE_EXT1(atanh) BUGLE_EXT1(cbrt) BUGLE_EXT1(rcbrt) BUGLE_EXT1(erf)
BUGLE_EXT1(erfc) BUGLE_EXT1(erfinv) BUGLE_EXT1(erfcinv) BUGLE_EXT1(lgamma) BUGLE_EXT1(tgamma)
BUGLE_EXT1(sinpi) BUGLE_EXT1(cospi) BUGLE_EXT1(normcdf) BUGLE_EXT1(normcdfinv)
BUGLE_EXT2(pow) BUGLE_EXT2(atan2) BUGLE_EXT2(fmod) BUGLE_EXT2(hypot) BUGLE_EXT2(remainder)
BUGLE_EXT2(fdim) BUGLE_EXT2(nextafter)
#undef BUGLE_EXT1
#undef BUGLE_EXT2
#undef BUGLE_BI1
#undef BUGLE_BI2
static BUGLE_MF float fmaf(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
static BUGLE_MF double fma(double a, double b, double c) { return __builtin_fma(a, b, c); }
static BUGLE_MF float fma(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
static BUGLE_MF float powf(float x, int n) { return powf(x, (float)n); }
static BUGLE_MF float pow(float x, int n) { return powf(x, (float)n); }
static BUGLE_MF double pow(double x, int n) { return pow(x, (double)n); }
static BUGLE_MF float ldexpf(float x, int n) { return __builtin_ldexpf(x, n); }
static BUGLE_MF double ldexp(double x, int n) { return __builtin_ldexp(x, n); }
extern "C" __device__ float __bugle_frexp_mantf(float) __attribute__((const));
extern "C" __device__ int __bugle_frexp_expf(float) __attribute__((const));
static BUGLE_MF float frexpf(float x, int *e) { *e = __bugle_frexp_expf(x); return __bugle_frexp_mantf(x); }
static BUGLE_MF float modff(float x, float *ip) { *ip = truncf(x); return x - truncf(x); }
static BUGLE_MF int isnan(float x) { return __builtin_isnan(x); }
static BUGLE_MF int isnan(double x) { return __builtin_isnan(x); }
static BUGLE_MF int isinf(float x) { return __builtin_isinf(x); }
static BUGLE_MF int isinf(double x) { return __builtin_isinf(x); }
static BUGLE_MF int isfinite(float x) { return __builtin_isfinite(x); }
static BUGLE_MF int isfinite(double x) { return __builtin_isfinite(x); }
static BUGLE_MF int signbit(float x) { return __builtin_signbit(x); }
static BUGLE_MF int signbit(double x) { return __builtin_signbit(x); }
static BUGLE_MF float fdividef(float a, float b) { return a / b; }

/* Intrinsics (CUDA Math API, "Single Precision Intrinsics"): fast approximations, each
   an uninterpreted function of its own. */
#define BUGLE_FAST1(NAME) extern "C" __device__ float NAME(float) __attribute__((const));
#define BUGLE_FAST2(NAME) extern "C" __device__ float NAME(float, float) __attribute__((const));
BUGLE_FAST1(__expf) BUGLE_FAST1(__exp10f) BUGLE_FAST1(__logf) BUGLE_FAST1(__log2f)
BUGLE_FAST1(__log10f) BUGLE_FAST1(__sinf) BUGLE_FAST1(__cosf) BUGLE_FAST1(__tanf)
BUGLE_FAST1(__saturatef) BUGLE_FAST1(__frcp_rn) BUGLE_FAST1(__fsqrt_rn) BUGLE_FAST1(__frsqrt_rn)
BUGLE_FAST2(__fdividef) BUGLE_FAST2(__powf) BUGLE_FAST2(__fadd_rn) BUGLE_FAST2(__fadd_rz)
BUGLE_FAST2(__fsub_rn) BUGLE_FAST2(__fmul_rn) BUGLE_FAST2(__fmul_rz) BUGLE_FAST2(__fdiv_rn)
#undef BUGLE_FAST1
#undef BUGLE_FAST2
extern "C" __device__ float __fmaf_rn(float, float, float) __attribute__((const));
extern "C" __device__ double __dadd_rn(double, double) __attribute__((const));
extern "C" __device__ double __dmul_rn(double, double) __attribute__((const));
extern "C" __device__ double __drcp_rn(double) __attribute__((const));
static BUGLE_MF void sincosf(float x, float *s, float *c) { *s = sinf(x); *c = cosf(x); }
static BUGLE_DF void __sincosf(float x, float *s, float *c) { *s = __sinf(x); *c = __cosf(x); }
static BUGLE_MF void sincos(double x, double *s, double *c) { *s = sin(x); *c = cos(x); }
static BUGLE_MF void sincospif(float x, float *s, float *c) { *s = sinpif(x); *c = cospif(x); }

/* Conversions with a rounding mode: uninterpreted too (their results are exact only for
   values an uninterpreted float never pins down). */
extern "C" __device__ int __float2int_rn(float) __attribute__((const));
extern "C" __device__ int __float2int_rz(float) __attribute__((const));
extern "C" __device__ int __float2int_rd(float) __attribute__((const));
extern "C" __device__ int __float2int_ru(float) __attribute__((const));
extern "C" __device__ unsigned int __float2uint_rn(float) __attribute__((const));
extern "C" __device__ unsigned int __float2uint_rz(float) __attribute__((const));
extern "C" __device__ float __int2float_rn(int) __attribute__((const));
extern "C" __device__ float __uint2float_rn(unsigned int) __attribute__((const));
extern "C" __device__ int __double2int_rn(double) __attribute__((const));
extern "C" __device__ float __double2float_rn(double) __attribute__((const));
extern "C" __device__ long long __float2ll_rn(float) __attribute__((const));
static BUGLE_MF long lrintf(float x) { return (long)__float2ll_rn(x); }
static BUGLE_MF long lroundf(float x) { return (long)roundf(x); }

/* Integer min/max/abs overloads (CUDA Math API, "Integer Intrinsics" and C++ overloads):
   exact; mixed signed/unsigned arguments compare as unsigned, as CUDA's overloads do. */
#define BUGLE_MINMAX(T)                                                     \
  static BUGLE_DF T min(T a, T b) { return a < b ? a : b; }                 \
  static BUGLE_DF T max(T a, T b) { return a > b ? a : b; }
BUGLE_MINMAX(int) BUGLE_MINMAX(unsigned int) BUGLE_MINMAX(long) BUGLE_MINMAX(unsigned long)
BUGLE_MINMAX(long long) BUGLE_MINMAX(unsigned long long)
#undef BUGLE_MINMAX
static BUGLE_DF unsigned int min(int a, unsigned int b) { return min((unsigned int)a, b); }
static BUGLE_DF unsigned int min(unsigned int a, int b) { return min(a, (unsigned int)b); }
static BUGLE_DF unsigned int max(int a, unsigned int b) { return max((unsigned int)a, b); }
static BUGLE_DF unsigned int max(unsigned int a, int b) { return max(a, (unsigned int)b); }
static BUGLE_DF float min(float a, float b) { return fminf(a, b); }
static BUGLE_DF float max(float a, float b) { return fmaxf(a, b); }
static BUGLE_DF double min(double a, double b) { return fmin(a, b); }
static BUGLE_DF double max(double a, double b) { return fmax(a, b); }
static BUGLE_DF double min(float a, double b) { return fmin((double)a, b); }
static BUGLE_DF double min(double a, float b) { return fmin(a, (double)b); }
static BUGLE_DF double max(float a, double b) { return fmax((double)a, b); }
static BUGLE_DF double max(double a, float b) { return fmax(a, (double)b); }
static BUGLE_MF int abs(int a) { return a < 0 ? -a : a; }
static BUGLE_MF long abs(long a) { return a < 0 ? -a : a; }
static BUGLE_MF long long abs(long long a) { return a < 0 ? -a : a; }
static BUGLE_MF float abs(float x) { return __builtin_fabsf(x); }
static BUGLE_MF double abs(double x) { return __builtin_fabs(x); }
static BUGLE_MF long labs(long a) { return a < 0 ? -a : a; }
static BUGLE_MF long long llabs(long long a) { return a < 0 ? -a : a; }
static BUGLE_MF long long llmin(long long a, long long b) { return a < b ? a : b; }
static BUGLE_MF long long llmax(long long a, long long b) { return a > b ? a : b; }
static BUGLE_MF unsigned int umin(unsigned int a, unsigned int b) { return a < b ? a : b; }
static BUGLE_MF unsigned int umax(unsigned int a, unsigned int b) { return a > b ? a : b; }

/* Bit intrinsics: __ffs (1 + index of the least significant set bit, 0 for 0), __clz
   (32 for 0), __popc, __brev, __byte_perm, high halves of products, __sad, __hadd. */
static BUGLE_DF int __ffs(int x) { return __builtin_ffs(x); }
static BUGLE_DF int __ffsll(long long x) { return __builtin_ffsll(x); }
static BUGLE_DF int __clz(int x) { return __builtin_clzg((unsigned int)x, 32); }
static BUGLE_DF int __clzll(long long x) { return __builtin_clzg((unsigned long long)x, 64); }
static BUGLE_DF int __popc(unsigned int x) { return __builtin_popcount(x); }
static BUGLE_DF int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
static BUGLE_DF unsigned int __brev(unsigned int x) { return __builtin_bitreverse32(x); }
static BUGLE_DF unsigned long long __brevll(unsigned long long x) { return __builtin_bitreverse64(x); }
static BUGLE_DF int __mulhi(int a, int b) { return (int)(((long long)a * b) >> 32); }
static BUGLE_DF unsigned int __umulhi(unsigned int a, unsigned int b) {
  return (unsigned int)(((unsigned long long)a * b) >> 32); }
static BUGLE_DF long long __mul64hi(long long a, long long b) {
  return (long long)(((__int128)a * b) >> 64); }
static BUGLE_DF unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
  return (unsigned long long)(((unsigned __int128)a * b) >> 64); }
static BUGLE_DF unsigned int __sad(int a, int b, unsigned int c) {
  return c + (unsigned int)(a > b ? a - b : b - a); }
static BUGLE_DF unsigned int __usad(unsigned int a, unsigned int b, unsigned int c) {
  return c + (a > b ? a - b : b - a); }
static BUGLE_DF int __hadd(int a, int b) { return (int)(((long long)a + b) >> 1); }
static BUGLE_DF int __rhadd(int a, int b) { return (int)(((long long)a + b + 1) >> 1); }
static BUGLE_DF unsigned int __uhadd(unsigned int a, unsigned int b) {
  return (unsigned int)(((unsigned long long)a + b) >> 1); }
static BUGLE_DF unsigned int __urhadd(unsigned int a, unsigned int b) {
  return (unsigned int)(((unsigned long long)a + b + 1) >> 1); }
/* byte s of the 8 bytes {y, x} chosen by each selector nibble of s (low 3 bits) */
static BUGLE_DF unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s) {
  unsigned long long v = ((unsigned long long)y << 32) | x;
  unsigned int r = 0;
  r |= (unsigned int)((v >> (8 * (s & 7))) & 0xff);
  r |= (unsigned int)((v >> (8 * ((s >> 4) & 7))) & 0xff) << 8;
  r |= (unsigned int)((v >> (8 * ((s >> 8) & 7))) & 0xff) << 16;
  r |= (unsigned int)((v >> (8 * ((s >> 12) & 7))) & 0xff) << 24;
  return r; }
#undef BUGLE_MF
#undef BUGLE_DF
#endif
