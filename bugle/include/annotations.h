/* bugle annotation language, shared by OpenCL and CUDA (docs/IL.md "Annotations",
   README "Annotations").  Calls to these external functions survive clang and become
   IL constructs in `bugle translate`:

   statements     __requires __ensures __assert __assume __invariant and their
                  __global_ forms (checked whether or not the thread is enabled);
                  __candidate_invariant __candidate_global_invariant (loop-head
                  guesses for Houdini: kept only when proved, never trusted);
                  __function_wide_invariant __function_wide_candidate_invariant
                  (written last in the kernel: an invariant of each of its loops)
   file scope     __axiom(e): e holds for every thread (ids and sizes only)
   values         __ite __is_pow2 __mod_pow2 __add_noovfl (predicates, usable
                  anywhere); __add_noovfl_int / __add_noovfl_unsigned_int (a + b,
                  assuming it does not overflow: trusted, like __assume)
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
BUGLE_DECL int __candidate_invariant(bool expr);
BUGLE_DECL int __candidate_global_invariant(bool expr);
BUGLE_DECL int __function_wide_invariant(bool expr);
BUGLE_DECL int __function_wide_candidate_invariant(bool expr);

/* __axiom(e) at file scope: a function bugle never calls, whose __assume bugle reads
   as a precondition of every kernel of the file (bugle.annotations.axioms). */
#define BUGLE_CAT2(a, b) a##b
#define BUGLE_CAT(a, b) BUGLE_CAT2(a, b)
#ifdef __cplusplus
#define __axiom(e) extern "C" __attribute__((device, used)) \
  void BUGLE_CAT(__bugle_axiom_, __LINE__)(void) { __assume(e); }
#else
#define __axiom(e) __attribute__((used)) \
  void BUGLE_CAT(__bugle_axiom_, __LINE__)(void) { __assume(e); }
#endif

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

/* Value helpers.  __ite(c, a, b): c ? a : b with both arms evaluated (no control flow,
   so usable on annotation queries).  __is_pow2(x): x is a power of two (not 0).
   __mod_pow2(x, y): x & (y - 1), i.e. x % y for a power of two y.  __add_noovfl(a, b
   [, c, d]): the sum of the arguments does not overflow their type.
   __add_noovfl_int(a, b), __add_noovfl_unsigned_int(a, b): a + b, and the verifier
   assumes it does not overflow (a trusted promise, like __assume). */
#define BUGLE_ITE(T) BUGLE_OVL T __ite(bool c, T a, T b);
BUGLE_ITE(bool) BUGLE_ITE(int) BUGLE_ITE(unsigned int) BUGLE_ITE(long) BUGLE_ITE(unsigned long)
BUGLE_ITE(short) BUGLE_ITE(unsigned short) BUGLE_ITE(char) BUGLE_ITE(unsigned char)
#undef BUGLE_ITE
/* macros, so that any mix of integer types works (no overload to choose); & not &&: no
   control flow in annotations */
#define __is_pow2(x) (((x) != 0) & (((x) & ((x) - 1)) == 0))
#define __mod_pow2(x, y) ((x) & ((y) - 1))
#define BUGLE_INT_HELPERS(T)                                    \
  BUGLE_OVL bool __add_noovfl_2(T a, T b);                      \
  BUGLE_OVL bool __add_noovfl_3(T a, T b, T c);                 \
  BUGLE_OVL bool __add_noovfl_4(T a, T b, T c, T d);
BUGLE_INT_HELPERS(int) BUGLE_INT_HELPERS(unsigned int)
BUGLE_INT_HELPERS(long) BUGLE_INT_HELPERS(unsigned long)
#undef BUGLE_INT_HELPERS
#define BUGLE_NOOVFL_PICK(_1, _2, _3, _4, NAME, ...) NAME
#define __add_noovfl(...) \
  BUGLE_NOOVFL_PICK(__VA_ARGS__, __add_noovfl_4, __add_noovfl_3, __add_noovfl_2, )(__VA_ARGS__)
BUGLE_DECL int __add_noovfl_int(int a, int b);
BUGLE_DECL unsigned int __add_noovfl_unsigned_int(unsigned int a, unsigned int b);

/* Parts of GPUVerify's annotation language this verifier does not implement: declared
   so that a kernel using one gets bugle's error naming it (exit 4), not a clang error. */
BUGLE_DECL int __bugle_unsupported_read_permission(void);
#define __read_permission(...) __bugle_unsupported_read_permission()
BUGLE_DECL int __bugle_unsupported_write_permission(void);
#define __write_permission(...) __bugle_unsupported_write_permission()
/* __requires_fresh_array(p): p points to an array no other pointer parameter points to,
   as every pointer kernel parameter and pointer field of a by-value struct parameter does
   (bugle.stored_pointers checks the argument is one of those). */
#ifdef __OPENCL_C_VERSION__
BUGLE_OVL void __bugle_requires_fresh_array(const __global void *p);
BUGLE_OVL void __bugle_requires_fresh_array(const __local void *p);
BUGLE_OVL void __bugle_requires_fresh_array(const __constant void *p);
BUGLE_OVL void __bugle_requires_fresh_array(const __private void *p);
#else
BUGLE_OVL void __bugle_requires_fresh_array(const void *p);
#endif
#define __requires_fresh_array(p) __bugle_requires_fresh_array(p)
BUGLE_DECL int __bugle_unsupported_writes_to(void);
#define __writes_to(...) __bugle_unsupported_writes_to()
BUGLE_DECL int __bugle_unsupported_reads_from(void);
#define __reads_from(...) __bugle_unsupported_reads_from()
BUGLE_DECL int __bugle_unsupported_array_snapshot(void);
#define __array_snapshot(...) __bugle_unsupported_array_snapshot()
BUGLE_DECL int __bugle_unsupported_atomic_has_taken_value(void);
#define __atomic_has_taken_value(...) __bugle_unsupported_atomic_has_taken_value()
#define __barrier_invariant_1(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_binary_1(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_2(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_binary_2(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_3(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_binary_3(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_4(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_binary_4(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_5(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_binary_5(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_6(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_binary_6(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_7(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_binary_7(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_8(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_binary_8(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_9(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_binary_9(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_10(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_binary_10(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_11(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_binary_11(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_12(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_binary_12(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_13(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_binary_13(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_14(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_binary_14(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_15(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_binary_15(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_16(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_binary_16(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_17(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_binary_17(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_18(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_binary_18(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_19(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_binary_19(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_20(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_binary_20(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_21(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_binary_21(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_22(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_binary_22(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_23(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_binary_23(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_24(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_binary_24(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_25(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_binary_25(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_26(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_binary_26(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_27(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_binary_27(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_28(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_binary_28(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_29(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_binary_29(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_30(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_binary_30(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_31(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_binary_31(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_32(...) __bugle_unsupported_barrier_invariant()
#define __barrier_invariant_binary_32(...) __bugle_unsupported_barrier_invariant()
BUGLE_DECL int __bugle_unsupported_barrier_invariant(void);

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
#define __exclusive(b) __at_most_one(b)
/* the two threads are in one group (work group / thread block) */
#ifdef __OPENCL_C_VERSION__
#define __same_group (__uniform_int(get_group_id(0)) & __uniform_int(get_group_id(1)) & \
                      __uniform_int(get_group_id(2)))
#else
#define __same_group (__uniform_int(blockIdx.x) & __uniform_int(blockIdx.y) & __uniform_int(blockIdx.z))
#endif
#define __no_read(p) (!__read(p))
#define __no_write(p) (!__write(p))
#define __read_implies(p, e) __implies(__read(p), (e))
#define __write_implies(p, e) __implies(__write(p), (e))
/* Uninterpreted functions: DECLARE_UF_UNARY(NAME, RET, ARG) and
   DECLARE_UF_BINARY(NAME, RET, ARG1, ARG2) declare RET NAME(ARG...), a function the
   verifier knows nothing about except what axioms of a --boogie-file say: each call is
   the IL function NAME (no prefix) applied to the arguments, so equal arguments give
   equal results and axioms over NAME apply (bugle.builtins, README "Uninterpreted
   functions").  NAME wraps the external __uninterpreted_function_NAME. */
#ifdef __cplusplus
#define BUGLE_UF_DECL extern "C" __attribute__((device))
#define BUGLE_UF_DEF static inline __attribute__((device, always_inline))
#else
#define BUGLE_UF_DECL
#define BUGLE_UF_DEF static inline __attribute__((always_inline))
#endif
#define DECLARE_UF_UNARY(NAME, RET, ARG)                                           \
  BUGLE_UF_DECL RET __uninterpreted_function_##NAME(ARG);                          \
  BUGLE_UF_DEF RET NAME(ARG bugle_x) { return __uninterpreted_function_##NAME(bugle_x); }
#define DECLARE_UF_BINARY(NAME, RET, ARG1, ARG2)                                   \
  BUGLE_UF_DECL RET __uninterpreted_function_##NAME(ARG1, ARG2);                   \
  BUGLE_UF_DEF RET NAME(ARG1 bugle_x, ARG2 bugle_y) {                              \
    return __uninterpreted_function_##NAME(bugle_x, bugle_y);                      \
  }
#undef BUGLE_DECL
#undef BUGLE_OVL
#endif
