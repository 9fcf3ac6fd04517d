/* bugle annotation language, shared by OpenCL and CUDA (docs/IL.md "Annotations",
   README "Annotations").  Calls to these external functions survive clang and become
   IL constructs in `bugle translate`:

   statements     __requires __ensures __assert __assume __invariant and their
                  __global_ forms (checked whether or not the thread is enabled)
   expressions    __implies __enabled __uniform_int/bool __distinct_int/bool __all
                  __at_most_one __other_int/bool __read __write __no_read __no_write
                  __read_implies __write_implies __read_offset_bytes
                  __write_offset_bytes __ptr_base __ptr_offset_bytes __return_val_int/bool
                  __old_int/bool

   `__invariant` belongs in a loop condition:
     for (i = 0; __invariant(i <= n), i < n; i++) ...
   `__implies` is a function (both operands are evaluated), so annotations built from it
   need no short-circuit control flow.                                                */
#ifndef BUGLE_ANNOTATIONS_H
#define BUGLE_ANNOTATIONS_H
#ifdef __cplusplus
#define BUGLE_DECL extern "C" __attribute__((device))
#define BUGLE_OVL __attribute__((device, overloadable))
#else
#define BUGLE_DECL
#define BUGLE_OVL __attribute__((overloadable))
#endif
BUGLE_DECL int __requires(bool expr);
BUGLE_DECL int __ensures(bool expr);
BUGLE_DECL int __assert(bool expr);
BUGLE_DECL int __assume(bool expr);
BUGLE_DECL int __invariant(bool expr);
BUGLE_DECL int __global_assert(bool expr);
BUGLE_DECL int __global_invariant(bool expr);
BUGLE_DECL int __global_requires(bool expr);
BUGLE_DECL int __global_ensures(bool expr);

BUGLE_DECL bool __implies(bool a, bool b);
BUGLE_DECL bool __enabled(void);
BUGLE_DECL bool __all(bool b);
BUGLE_DECL bool __at_most_one(bool b);
BUGLE_OVL bool __uniform_int(int x);
BUGLE_OVL bool __uniform_int(unsigned int x);
BUGLE_OVL bool __uniform_int(long x);
BUGLE_OVL bool __uniform_int(unsigned long x);
BUGLE_DECL bool __uniform_bool(bool b);
BUGLE_OVL bool __distinct_int(int x);
BUGLE_OVL bool __distinct_int(unsigned int x);
BUGLE_OVL bool __distinct_int(long x);
BUGLE_OVL bool __distinct_int(unsigned long x);
BUGLE_DECL bool __distinct_bool(bool b);
BUGLE_OVL int __other_int(int x);
BUGLE_OVL unsigned int __other_int(unsigned int x);
BUGLE_OVL long __other_int(long x);
BUGLE_OVL unsigned long __other_int(unsigned long x);
BUGLE_DECL bool __other_bool(bool b);
BUGLE_DECL int __return_val_int(void);
BUGLE_DECL bool __return_val_bool(void);
BUGLE_OVL int __old_int(int x);
BUGLE_OVL unsigned int __old_int(unsigned int x);
BUGLE_OVL long __old_int(long x);
BUGLE_OVL unsigned long __old_int(unsigned long x);
BUGLE_DECL bool __old_bool(bool b);

/* Access-log queries: has this thread (the logging thread of the two-thread program)
   an access to the array of p in flight since the last barrier, and at which byte
   offset.  Pointer queries: which array p points into, and the byte offset. */
#ifdef __OPENCL_C_VERSION__
#define BUGLE_PTR_QUERIES(AS)                                   \
  BUGLE_OVL bool __read(const AS void *p);                      \
  BUGLE_OVL bool __write(const AS void *p);                     \
  BUGLE_OVL int __read_offset_bytes(const AS void *p);          \
  BUGLE_OVL int __write_offset_bytes(const AS void *p);         \
  BUGLE_OVL int __ptr_base(const AS void *p);                   \
  BUGLE_OVL int __ptr_offset_bytes(const AS void *p);
BUGLE_PTR_QUERIES(__global)
BUGLE_PTR_QUERIES(__local)
BUGLE_PTR_QUERIES(__constant)
BUGLE_PTR_QUERIES(__private)
#undef BUGLE_PTR_QUERIES
#else
BUGLE_DECL bool __read(const void *p);
BUGLE_DECL bool __write(const void *p);
BUGLE_DECL int __read_offset_bytes(const void *p);
BUGLE_DECL int __write_offset_bytes(const void *p);
BUGLE_DECL int __ptr_base(const void *p);
BUGLE_DECL int __ptr_offset_bytes(const void *p);
#endif
#define __no_read(p) (!__read(p))
#define __no_write(p) (!__write(p))
#define __read_implies(p, e) __implies(__read(p), (e))
#define __write_implies(p, e) __implies(__write(p), (e))
#undef BUGLE_DECL
#undef BUGLE_OVL
#endif
