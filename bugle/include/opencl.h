/* Minimal OpenCL 1.2 header for bugle.  clang's -fdeclare-opencl-builtins declares the
   builtin functions itself (work-item functions, barrier, math, atomics, conversions);
   this header adds the typedefs and macros those declarations and kernels need, and the
   annotation functions. */
#ifndef BUGLE_OPENCL_H
#define BUGLE_OPENCL_H
typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong;
typedef __SIZE_TYPE__ size_t;
typedef __PTRDIFF_TYPE__ ptrdiff_t;
typedef __INTPTR_TYPE__ intptr_t;
typedef __UINTPTR_TYPE__ uintptr_t;
typedef uint cl_mem_fence_flags;
#define CLK_LOCAL_MEM_FENCE 0x01
#define CLK_GLOBAL_MEM_FENCE 0x02
#define CLK_IMAGE_MEM_FENCE 0x04

#define BUGLE_VEC(T) \
  typedef T T##2 __attribute__((ext_vector_type(2))); \
  typedef T T##3 __attribute__((ext_vector_type(3))); \
  typedef T T##4 __attribute__((ext_vector_type(4))); \
  typedef T T##8 __attribute__((ext_vector_type(8))); \
  typedef T T##16 __attribute__((ext_vector_type(16)));
BUGLE_VEC(char) BUGLE_VEC(uchar) BUGLE_VEC(short) BUGLE_VEC(ushort) BUGLE_VEC(int)
BUGLE_VEC(uint) BUGLE_VEC(long) BUGLE_VEC(ulong) BUGLE_VEC(float)
#ifdef cl_khr_fp64
BUGLE_VEC(double)
#endif
#undef BUGLE_VEC

#define CHAR_BIT 8
#define SCHAR_MAX 127
#define SCHAR_MIN (-128)
#define UCHAR_MAX 255
#define CHAR_MAX SCHAR_MAX
#define CHAR_MIN SCHAR_MIN
#define SHRT_MAX 32767
#define SHRT_MIN (-32768)
#define USHRT_MAX 65535
#define INT_MAX 2147483647
#define INT_MIN (-2147483647 - 1)
#define UINT_MAX 0xffffffffU
#define LONG_MAX 0x7fffffffffffffffL
#define LONG_MIN (-0x7fffffffffffffffL - 1)
#define ULONG_MAX 0xffffffffffffffffUL
#define FLT_MAX 0x1.fffffep127f
#define FLT_MIN 0x1.0p-126f
#define FLT_EPSILON 0x1.0p-23f
#define MAXFLOAT FLT_MAX
#define HUGE_VALF __builtin_huge_valf()
#define INFINITY __builtin_inff()
#define NAN __builtin_nanf("")
#define M_PI_F 3.14159274101257f

#include "annotations.h"
#endif
