/* assert.h for bugle (C standard 7.2).  Not include-guarded: NDEBUG may change between
   inclusions.  In device code `assert(e)` is an assertion the verifier checks (as
   `__assert(e)`: reported as "this assertion might not hold" for a thread that can reach
   it with e false); host code is never verified. */
#undef assert
#ifdef NDEBUG
#define assert(e) ((void)0)
#else
#ifndef BUGLE_ASSERT_FN
#define BUGLE_ASSERT_FN
static __host__ __device__ __forceinline__ void __bugle_cuda_assert(bool holds) { __assert(holds); }
#endif
#define assert(e) __bugle_cuda_assert((e) ? true : false)
#endif
