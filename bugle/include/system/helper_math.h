/* helper_math.h for bugle: the vector helpers CUDA samples take from a header of this
   name (written here from what those samples call).  The component-wise operators
   (+ - * / and their assignments, unary -) are in cuda.h for every vector type; this
   adds constructors between vector sizes, dot/cross/length/normalize, lerp, clamp,
   component-wise fminf/fmaxf/floorf/fracf/fabs, reflect and smoothstep.

   cuda.h includes it in every .cu file, as the CUDA samples' kernels often call these
   helpers through a header of their host program that is not part of the kernel file.
   So that a program's own definitions always win, every helper is a function template
   (a non-template function of the program is preferred at an equal match, C++
   [over.match.best]) in a namespace made visible by a using-directive (a program's
   global function named `length`, `dot` ... is no redefinition; a global *variable* of
   such a name is ambiguous where it is used).  A program
   shipping its own helper_math.h next to its sources gets that one too (its directory
   comes first). */
#ifndef BUGLE_HELPER_MATH_H
#define BUGLE_HELPER_MATH_H
#include <cuda.h>
#define BUGLE_HM static __host__ __device__ __forceinline__
/* a non-template helper made a template, so that a program's own function is preferred */
#define BUGLE_HMT template <class __BugleT = void> BUGLE_HM
namespace __bugle_helper_math {

BUGLE_HMT float2 make_float2(float s) { return ::make_float2(s, s); }
BUGLE_HMT float2 make_float2(float3 a) { return ::make_float2(a.x, a.y); }
BUGLE_HMT float2 make_float2(int2 a) { return ::make_float2((float)a.x, (float)a.y); }
BUGLE_HMT float2 make_float2(uint2 a) { return ::make_float2((float)a.x, (float)a.y); }
BUGLE_HMT float3 make_float3(float s) { return ::make_float3(s, s, s); }
BUGLE_HMT float3 make_float3(float2 a) { return ::make_float3(a.x, a.y, 0.0f); }
BUGLE_HMT float3 make_float3(float2 a, float s) { return ::make_float3(a.x, a.y, s); }
BUGLE_HMT float3 make_float3(float4 a) { return ::make_float3(a.x, a.y, a.z); }
BUGLE_HMT float3 make_float3(int3 a) { return ::make_float3((float)a.x, (float)a.y, (float)a.z); }
BUGLE_HMT float3 make_float3(uint3 a) { return ::make_float3((float)a.x, (float)a.y, (float)a.z); }
BUGLE_HMT float4 make_float4(float s) { return ::make_float4(s, s, s, s); }
BUGLE_HMT float4 make_float4(float3 a) { return ::make_float4(a.x, a.y, a.z, 0.0f); }
BUGLE_HMT float4 make_float4(float3 a, float w) { return ::make_float4(a.x, a.y, a.z, w); }
BUGLE_HMT float4 make_float4(int4 a) { return ::make_float4((float)a.x, (float)a.y, (float)a.z, (float)a.w); }
BUGLE_HMT float4 make_float4(uint4 a) { return ::make_float4((float)a.x, (float)a.y, (float)a.z, (float)a.w); }
BUGLE_HMT int2 make_int2(int s) { return ::make_int2(s, s); }
BUGLE_HMT int2 make_int2(float2 a) { return ::make_int2((int)a.x, (int)a.y); }
BUGLE_HMT int3 make_int3(int s) { return ::make_int3(s, s, s); }
BUGLE_HMT int3 make_int3(float3 a) { return ::make_int3((int)a.x, (int)a.y, (int)a.z); }
BUGLE_HMT int4 make_int4(int s) { return ::make_int4(s, s, s, s); }
BUGLE_HMT uint3 make_uint3(uint s) { return ::make_uint3(s, s, s); }
BUGLE_HMT uint4 make_uint4(uint s) { return ::make_uint4(s, s, s, s); }

BUGLE_HMT float lerp(float a, float b, float t) { return a + t * (b - a); }
BUGLE_HMT float clamp(float f, float a, float b) { return ::fmaxf(a, ::fminf(f, b)); }
BUGLE_HMT int clamp(int f, int a, int b) { return max(a, min(f, b)); }
BUGLE_HMT uint clamp(uint f, uint a, uint b) { return max(a, min(f, b)); }
BUGLE_HMT float fracf(float v) { return v - ::floorf(v); }
BUGLE_HMT float smoothstep(float a, float b, float x) {
  float y = clamp((x - a) / (b - a), 0.0f, 1.0f); return y * y * (3.0f - 2.0f * y); }

/* float2/float3/float4 helpers: one template each, for the float vector types only */
template <class V> struct __bugle_fvec { static const int n = 0; };
template <> struct __bugle_fvec<float2> { static const int n = 2; };
template <> struct __bugle_fvec<float3> { static const int n = 3; };
template <> struct __bugle_fvec<float4> { static const int n = 4; };
#define BUGLE_FV(V, R) typename __bugle_enable_if<(__bugle_fvec<V>::n > 0), R>::type
#define BUGLE_EACH(V, STMT)                                   \
  STMT(x) STMT(y)                                             \
  if constexpr (__bugle_fvec<V>::n >= 3) { STMT(z) }          \
  if constexpr (__bugle_fvec<V>::n >= 4) { STMT(w) }
#define BUGLE_HM_MAP1(NAME, F)                                                              \
  template <class V> BUGLE_HM BUGLE_FV(V, V) NAME(V a) {                                    \
    V r;                                                                                    \
    BUGLE_EACH(V, BUGLE_HM_F1_##F)                                                          \
    return r; }
#define BUGLE_HM_MAP2(NAME, F)                                                              \
  template <class V> BUGLE_HM BUGLE_FV(V, V) NAME(V a, V b) {                               \
    V r;                                                                                    \
    BUGLE_EACH(V, BUGLE_HM_F2_##F)                                                          \
    return r; }
#define BUGLE_HM_F1_floorf(c) r.c = ::floorf(a.c);
#define BUGLE_HM_F1_fracf(c) r.c = fracf(a.c);
#define BUGLE_HM_F1_fabs(c) r.c = fabsf(a.c);
#define BUGLE_HM_F2_fminf(c) r.c = ::fminf(a.c, b.c);
#define BUGLE_HM_F2_fmaxf(c) r.c = ::fmaxf(a.c, b.c);
BUGLE_HM_MAP1(floorf, floorf)
BUGLE_HM_MAP1(fracf, fracf)
BUGLE_HM_MAP1(fabs, fabs)
BUGLE_HM_MAP2(fminf, fminf)
BUGLE_HM_MAP2(fmaxf, fmaxf)
#define BUGLE_HM_DOT(c) s += a.c * b.c;
template <class V> BUGLE_HM BUGLE_FV(V, float) dot(V a, V b) {
  float s = 0.0f;
  BUGLE_EACH(V, BUGLE_HM_DOT)
  return s; }
#define BUGLE_HM_CLAMPS(c) r.c = clamp(v.c, a, b);
#define BUGLE_HM_CLAMPV(c) r.c = clamp(v.c, a.c, b.c);
template <class V> BUGLE_HM BUGLE_FV(V, V) clamp(V v, float a, float b) {
  V r;
  BUGLE_EACH(V, BUGLE_HM_CLAMPS)
  return r; }
template <class V> BUGLE_HM BUGLE_FV(V, V) clamp(V v, V a, V b) {
  V r;
  BUGLE_EACH(V, BUGLE_HM_CLAMPV)
  return r; }
template <class V> BUGLE_HM BUGLE_FV(V, float) length(V v) { return sqrtf(dot(v, v)); }
template <class V> BUGLE_HM BUGLE_FV(V, V) normalize(V v) { return v * rsqrtf(dot(v, v)); }
template <class V> BUGLE_HM BUGLE_FV(V, V) lerp(V a, V b, float t) { return a + t * (b - a); }
template <class V> BUGLE_HM BUGLE_FV(V, V) reflect(V i, V n) { return i - 2.0f * n * dot(n, i); }
BUGLE_HMT float3 cross(float3 a, float3 b) {
  return ::make_float3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x); }
#undef BUGLE_HM_MAP1
#undef BUGLE_HM_MAP2
#undef BUGLE_HM_F1_floorf
#undef BUGLE_HM_F1_fracf
#undef BUGLE_HM_F1_fabs
#undef BUGLE_HM_F2_fminf
#undef BUGLE_HM_F2_fmaxf
#undef BUGLE_HM_DOT
#undef BUGLE_HM_CLAMPS
#undef BUGLE_HM_CLAMPV
#undef BUGLE_EACH
#undef BUGLE_FV
} /* namespace __bugle_helper_math */
using namespace __bugle_helper_math;
#undef BUGLE_HMT
#undef BUGLE_HM
#endif
