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
                  __return_val_ptr __return_val_funptr(T) __old_int/bool
   __spec_ funcs  __writes_to(p, ...) __reads_from(p, ...) (bugle.spec_functions)

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
/* in a loop invariant: this thread reached the loop (the predicate of the block that
   dominates the loop head); elsewhere __enabled() */
BUGLE_DECL bool __dominator_enabled(void);
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
#ifdef __OPENCL_C_VERSION__
int4 __return_val_int4(void);
#endif
BUGLE_DECL void *__return_val_ptr(void);
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

/* A part of GPUVerify's annotation language this verifier does not implement is declared
   as __bugle_unsupported_NAME, so that a kernel using it gets bugle's error naming it
   (exit 4), not a clang error (none at present). */
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

/* Specification functions (bugle.spec_functions, README "Specification functions"): a
   function whose name starts with __spec_ is a contract without a body.  A call checks its
   __requires, then may read (__reads_from(p)) and write (__writes_to(p)) any element of
   every array p may point to -- accesses that are logged and race-checked, written arrays
   become arbitrary -- and then assumes its __ensures (__old_int(e): e at the call).
   Each takes one or more pointers; a non-pointer argument is bugle's error (exit 4). */
#ifdef __OPENCL_C_VERSION__
#define BUGLE_SPEC_ACCESS(AS)                                       \
  BUGLE_OVL void __bugle_writes_to(const volatile AS void *p);      \
  BUGLE_OVL void __bugle_reads_from(const volatile AS void *p);
BUGLE_SPEC_ACCESS(__global)
BUGLE_SPEC_ACCESS(__local)
BUGLE_SPEC_ACCESS(__constant)
BUGLE_SPEC_ACCESS(__private)
#undef BUGLE_SPEC_ACCESS
BUGLE_OVL void __bugle_writes_to(long not_a_pointer);
BUGLE_OVL void __bugle_reads_from(long not_a_pointer);
#else
BUGLE_OVL void __bugle_writes_to(const volatile void *p);
BUGLE_OVL void __bugle_reads_from(const volatile void *p);
BUGLE_OVL void __bugle_writes_to(long long not_a_pointer);
BUGLE_OVL void __bugle_reads_from(long long not_a_pointer);
#endif
#define BUGLE_EACH_1(F, a) F(a)
#define BUGLE_EACH_2(F, a, ...) F(a), BUGLE_EACH_1(F, __VA_ARGS__)
#define BUGLE_EACH_3(F, a, ...) F(a), BUGLE_EACH_2(F, __VA_ARGS__)
#define BUGLE_EACH_4(F, a, ...) F(a), BUGLE_EACH_3(F, __VA_ARGS__)
#define BUGLE_EACH_5(F, a, ...) F(a), BUGLE_EACH_4(F, __VA_ARGS__)
#define BUGLE_EACH_6(F, a, ...) F(a), BUGLE_EACH_5(F, __VA_ARGS__)
#define BUGLE_EACH_7(F, a, ...) F(a), BUGLE_EACH_6(F, __VA_ARGS__)
#define BUGLE_EACH_8(F, a, ...) F(a), BUGLE_EACH_7(F, __VA_ARGS__)
#define BUGLE_EACH_PICK(_1, _2, _3, _4, _5, _6, _7, _8, NAME, ...) NAME
#define BUGLE_EACH(F, ...) BUGLE_EACH_PICK(__VA_ARGS__, BUGLE_EACH_8, BUGLE_EACH_7, BUGLE_EACH_6, \
  BUGLE_EACH_5, BUGLE_EACH_4, BUGLE_EACH_3, BUGLE_EACH_2, BUGLE_EACH_1, )(F, __VA_ARGS__)
#define __writes_to(...) ((void)(BUGLE_EACH(__bugle_writes_to, __VA_ARGS__)))
#define __reads_from(...) ((void)(BUGLE_EACH(__bugle_reads_from, __VA_ARGS__)))
/* __return_val_funptr(T): in an __ensures, the returned function pointer (of type T),
   compared with == / != against a function: __return_val_ptr() seen as a T. */
#define __return_val_funptr(T) ((T)__return_val_ptr())

/* Barrier invariants (Chong et al., OOPSLA 2013), written just before a barrier:
   __barrier_invariant_N(e, i1, ..., iN): e (over shared memory and this work item's id)
   holds for every work item of the group at the barrier; after it, e is assumed with the
   local id replaced by each instantiation i1..iN.  __barrier_invariant_binary_N(e, i1,
   j1, ..., iN, jN): e relates this work item and __other_int(...) of another one;
   assumed for each pair (ik, jk).  Each is the invariant call followed by one call per
   instantiation, which bugle reads as one annotation. */
BUGLE_DECL void __bugle_barrier_invariant(bool e);
BUGLE_DECL void __bugle_barrier_invariant_binary(bool e);
BUGLE_OVL void __bugle_barrier_invariant_instance(int x);
BUGLE_OVL void __bugle_barrier_invariant_instance(unsigned int x);
BUGLE_OVL void __bugle_barrier_invariant_instance(long x);
BUGLE_OVL void __bugle_barrier_invariant_instance(unsigned long x);
#define BUGLE_BI_1(a) __bugle_barrier_invariant_instance(a)
#define BUGLE_BI_2(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_1(__VA_ARGS__)
#define BUGLE_BI_3(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_2(__VA_ARGS__)
#define BUGLE_BI_4(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_3(__VA_ARGS__)
#define BUGLE_BI_5(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_4(__VA_ARGS__)
#define BUGLE_BI_6(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_5(__VA_ARGS__)
#define BUGLE_BI_7(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_6(__VA_ARGS__)
#define BUGLE_BI_8(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_7(__VA_ARGS__)
#define BUGLE_BI_9(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_8(__VA_ARGS__)
#define BUGLE_BI_10(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_9(__VA_ARGS__)
#define BUGLE_BI_11(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_10(__VA_ARGS__)
#define BUGLE_BI_12(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_11(__VA_ARGS__)
#define BUGLE_BI_13(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_12(__VA_ARGS__)
#define BUGLE_BI_14(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_13(__VA_ARGS__)
#define BUGLE_BI_15(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_14(__VA_ARGS__)
#define BUGLE_BI_16(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_15(__VA_ARGS__)
#define BUGLE_BI_17(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_16(__VA_ARGS__)
#define BUGLE_BI_18(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_17(__VA_ARGS__)
#define BUGLE_BI_19(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_18(__VA_ARGS__)
#define BUGLE_BI_20(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_19(__VA_ARGS__)
#define BUGLE_BI_21(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_20(__VA_ARGS__)
#define BUGLE_BI_22(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_21(__VA_ARGS__)
#define BUGLE_BI_23(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_22(__VA_ARGS__)
#define BUGLE_BI_24(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_23(__VA_ARGS__)
#define BUGLE_BI_25(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_24(__VA_ARGS__)
#define BUGLE_BI_26(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_25(__VA_ARGS__)
#define BUGLE_BI_27(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_26(__VA_ARGS__)
#define BUGLE_BI_28(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_27(__VA_ARGS__)
#define BUGLE_BI_29(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_28(__VA_ARGS__)
#define BUGLE_BI_30(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_29(__VA_ARGS__)
#define BUGLE_BI_31(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_30(__VA_ARGS__)
#define BUGLE_BI_32(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_31(__VA_ARGS__)
#define BUGLE_BI_33(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_32(__VA_ARGS__)
#define BUGLE_BI_34(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_33(__VA_ARGS__)
#define BUGLE_BI_35(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_34(__VA_ARGS__)
#define BUGLE_BI_36(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_35(__VA_ARGS__)
#define BUGLE_BI_37(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_36(__VA_ARGS__)
#define BUGLE_BI_38(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_37(__VA_ARGS__)
#define BUGLE_BI_39(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_38(__VA_ARGS__)
#define BUGLE_BI_40(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_39(__VA_ARGS__)
#define BUGLE_BI_41(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_40(__VA_ARGS__)
#define BUGLE_BI_42(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_41(__VA_ARGS__)
#define BUGLE_BI_43(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_42(__VA_ARGS__)
#define BUGLE_BI_44(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_43(__VA_ARGS__)
#define BUGLE_BI_45(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_44(__VA_ARGS__)
#define BUGLE_BI_46(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_45(__VA_ARGS__)
#define BUGLE_BI_47(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_46(__VA_ARGS__)
#define BUGLE_BI_48(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_47(__VA_ARGS__)
#define BUGLE_BI_49(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_48(__VA_ARGS__)
#define BUGLE_BI_50(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_49(__VA_ARGS__)
#define BUGLE_BI_51(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_50(__VA_ARGS__)
#define BUGLE_BI_52(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_51(__VA_ARGS__)
#define BUGLE_BI_53(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_52(__VA_ARGS__)
#define BUGLE_BI_54(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_53(__VA_ARGS__)
#define BUGLE_BI_55(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_54(__VA_ARGS__)
#define BUGLE_BI_56(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_55(__VA_ARGS__)
#define BUGLE_BI_57(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_56(__VA_ARGS__)
#define BUGLE_BI_58(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_57(__VA_ARGS__)
#define BUGLE_BI_59(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_58(__VA_ARGS__)
#define BUGLE_BI_60(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_59(__VA_ARGS__)
#define BUGLE_BI_61(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_60(__VA_ARGS__)
#define BUGLE_BI_62(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_61(__VA_ARGS__)
#define BUGLE_BI_63(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_62(__VA_ARGS__)
#define BUGLE_BI_64(a, ...) __bugle_barrier_invariant_instance(a), BUGLE_BI_63(__VA_ARGS__)
#define __barrier_invariant_1(e, ...) (__bugle_barrier_invariant(e), BUGLE_BI_1(__VA_ARGS__))
#define __barrier_invariant_binary_1(e, ...) (__bugle_barrier_invariant_binary(e), BUGLE_BI_2(__VA_ARGS__))
#define __barrier_invariant_2(e, ...) (__bugle_barrier_invariant(e), BUGLE_BI_2(__VA_ARGS__))
#define __barrier_invariant_binary_2(e, ...) (__bugle_barrier_invariant_binary(e), BUGLE_BI_4(__VA_ARGS__))
#define __barrier_invariant_3(e, ...) (__bugle_barrier_invariant(e), BUGLE_BI_3(__VA_ARGS__))
#define __barrier_invariant_binary_3(e, ...) (__bugle_barrier_invariant_binary(e), BUGLE_BI_6(__VA_ARGS__))
#define __barrier_invariant_4(e, ...) (__bugle_barrier_invariant(e), BUGLE_BI_4(__VA_ARGS__))
#define __barrier_invariant_binary_4(e, ...) (__bugle_barrier_invariant_binary(e), BUGLE_BI_8(__VA_ARGS__))
#define __barrier_invariant_5(e, ...) (__bugle_barrier_invariant(e), BUGLE_BI_5(__VA_ARGS__))
#define __barrier_invariant_binary_5(e, ...) (__bugle_barrier_invariant_binary(e), BUGLE_BI_10(__VA_ARGS__))
#define __barrier_invariant_6(e, ...) (__bugle_barrier_invariant(e), BUGLE_BI_6(__VA_ARGS__))
#define __barrier_invariant_binary_6(e, ...) (__bugle_barrier_invariant_binary(e), BUGLE_BI_12(__VA_ARGS__))
#define __barrier_invariant_7(e, ...) (__bugle_barrier_invariant(e), BUGLE_BI_7(__VA_ARGS__))
#define __barrier_invariant_binary_7(e, ...) (__bugle_barrier_invariant_binary(e), BUGLE_BI_14(__VA_ARGS__))
#define __barrier_invariant_8(e, ...) (__bugle_barrier_invariant(e), BUGLE_BI_8(__VA_ARGS__))
#define __barrier_invariant_binary_8(e, ...) (__bugle_barrier_invariant_binary(e), BUGLE_BI_16(__VA_ARGS__))
#define __barrier_invariant_9(e, ...) (__bugle_barrier_invariant(e), BUGLE_BI_9(__VA_ARGS__))
#define __barrier_invariant_binary_9(e, ...) (__bugle_barrier_invariant_binary(e), BUGLE_BI_18(__VA_ARGS__))
#define __barrier_invariant_10(e, ...) (__bugle_barrier_invariant(e), BUGLE_BI_10(__VA_ARGS__))
#define __barrier_invariant_binary_10(e, ...) (__bugle_barrier_invariant_binary(e), BUGLE_BI_20(__VA_ARGS__))
#define __barrier_invariant_11(e, ...) (__bugle_barrier_invariant(e), BUGLE_BI_11(__VA_ARGS__))
#define __barrier_invariant_binary_11(e, ...) (__bugle_barrier_invariant_binary(e), BUGLE_BI_22(__VA_ARGS__))
#define __barrier_invariant_12(e, ...) (__bugle_barrier_invariant(e), BUGLE_BI_12(__VA_ARGS__))
#define __barrier_invariant_binary_12(e, ...) (__bugle_barrier_invariant_binary(e), BUGLE_BI_24(__VA_ARGS__))
#define __barrier_invariant_13(e, ...) (__bugle_barrier_invariant(e), BUGLE_BI_13(__VA_ARGS__))
#define __barrier_invariant_binary_13(e, ...) (__bugle_barrier_invariant_binary(e), BUGLE_BI_26(__VA_ARGS__))
#define __barrier_invariant_14(e, ...) (__bugle_barrier_invariant(e), BUGLE_BI_14(__VA_ARGS__))
#define __barrier_invariant_binary_14(e, ...) (__bugle_barrier_invariant_binary(e), BUGLE_BI_28(__VA_ARGS__))
#define __barrier_invariant_15(e, ...) (__bugle_barrier_invariant(e), BUGLE_BI_15(__VA_ARGS__))
#define __barrier_invariant_binary_15(e, ...) (__bugle_barrier_invariant_binary(e), BUGLE_BI_30(__VA_ARGS__))
#define __barrier_invariant_16(e, ...) (__bugle_barrier_invariant(e), BUGLE_BI_16(__VA_ARGS__))
#define __barrier_invariant_binary_16(e, ...) (__bugle_barrier_invariant_binary(e), BUGLE_BI_32(__VA_ARGS__))
#define __barrier_invariant_17(e, ...) (__bugle_barrier_invariant(e), BUGLE_BI_17(__VA_ARGS__))
#define __barrier_invariant_binary_17(e, ...) (__bugle_barrier_invariant_binary(e), BUGLE_BI_34(__VA_ARGS__))
#define __barrier_invariant_18(e, ...) (__bugle_barrier_invariant(e), BUGLE_BI_18(__VA_ARGS__))
#define __barrier_invariant_binary_18(e, ...) (__bugle_barrier_invariant_binary(e), BUGLE_BI_36(__VA_ARGS__))
#define __barrier_invariant_19(e, ...) (__bugle_barrier_invariant(e), BUGLE_BI_19(__VA_ARGS__))
#define __barrier_invariant_binary_19(e, ...) (__bugle_barrier_invariant_binary(e), BUGLE_BI_38(__VA_ARGS__))
#define __barrier_invariant_20(e, ...) (__bugle_barrier_invariant(e), BUGLE_BI_20(__VA_ARGS__))
#define __barrier_invariant_binary_20(e, ...) (__bugle_barrier_invariant_binary(e), BUGLE_BI_40(__VA_ARGS__))
#define __barrier_invariant_21(e, ...) (__bugle_barrier_invariant(e), BUGLE_BI_21(__VA_ARGS__))
#define __barrier_invariant_binary_21(e, ...) (__bugle_barrier_invariant_binary(e), BUGLE_BI_42(__VA_ARGS__))
#define __barrier_invariant_22(e, ...) (__bugle_barrier_invariant(e), BUGLE_BI_22(__VA_ARGS__))
#define __barrier_invariant_binary_22(e, ...) (__bugle_barrier_invariant_binary(e), BUGLE_BI_44(__VA_ARGS__))
#define __barrier_invariant_23(e, ...) (__bugle_barrier_invariant(e), BUGLE_BI_23(__VA_ARGS__))
#define __barrier_invariant_binary_23(e, ...) (__bugle_barrier_invariant_binary(e), BUGLE_BI_46(__VA_ARGS__))
#define __barrier_invariant_24(e, ...) (__bugle_barrier_invariant(e), BUGLE_BI_24(__VA_ARGS__))
#define __barrier_invariant_binary_24(e, ...) (__bugle_barrier_invariant_binary(e), BUGLE_BI_48(__VA_ARGS__))
#define __barrier_invariant_25(e, ...) (__bugle_barrier_invariant(e), BUGLE_BI_25(__VA_ARGS__))
#define __barrier_invariant_binary_25(e, ...) (__bugle_barrier_invariant_binary(e), BUGLE_BI_50(__VA_ARGS__))
#define __barrier_invariant_26(e, ...) (__bugle_barrier_invariant(e), BUGLE_BI_26(__VA_ARGS__))
#define __barrier_invariant_binary_26(e, ...) (__bugle_barrier_invariant_binary(e), BUGLE_BI_52(__VA_ARGS__))
#define __barrier_invariant_27(e, ...) (__bugle_barrier_invariant(e), BUGLE_BI_27(__VA_ARGS__))
#define __barrier_invariant_binary_27(e, ...) (__bugle_barrier_invariant_binary(e), BUGLE_BI_54(__VA_ARGS__))
#define __barrier_invariant_28(e, ...) (__bugle_barrier_invariant(e), BUGLE_BI_28(__VA_ARGS__))
#define __barrier_invariant_binary_28(e, ...) (__bugle_barrier_invariant_binary(e), BUGLE_BI_56(__VA_ARGS__))
#define __barrier_invariant_29(e, ...) (__bugle_barrier_invariant(e), BUGLE_BI_29(__VA_ARGS__))
#define __barrier_invariant_binary_29(e, ...) (__bugle_barrier_invariant_binary(e), BUGLE_BI_58(__VA_ARGS__))
#define __barrier_invariant_30(e, ...) (__bugle_barrier_invariant(e), BUGLE_BI_30(__VA_ARGS__))
#define __barrier_invariant_binary_30(e, ...) (__bugle_barrier_invariant_binary(e), BUGLE_BI_60(__VA_ARGS__))
#define __barrier_invariant_31(e, ...) (__bugle_barrier_invariant(e), BUGLE_BI_31(__VA_ARGS__))
#define __barrier_invariant_binary_31(e, ...) (__bugle_barrier_invariant_binary(e), BUGLE_BI_62(__VA_ARGS__))
#define __barrier_invariant_32(e, ...) (__bugle_barrier_invariant(e), BUGLE_BI_32(__VA_ARGS__))
#define __barrier_invariant_binary_32(e, ...) (__bugle_barrier_invariant_binary(e), BUGLE_BI_64(__VA_ARGS__))
/* __array_snapshot(dst, src): the ghost array dst becomes a copy of this work item's
   view of the array src (whole arrays; not an access).  dst is for annotations: the kernel
   may read it but never write it. */
#ifdef __OPENCL_C_VERSION__
#define BUGLE_SNAPSHOT(D, S) BUGLE_OVL void __bugle_array_snapshot(D void *dst, const S void *src);
BUGLE_SNAPSHOT(__local, __local) BUGLE_SNAPSHOT(__local, __global)
BUGLE_SNAPSHOT(__global, __global) BUGLE_SNAPSHOT(__global, __local)
#undef BUGLE_SNAPSHOT
#else
BUGLE_DECL void __bugle_array_snapshot(void *dst, const void *src);
#endif
#define __array_snapshot(dst, src) __bugle_array_snapshot((dst), (src))
/* __read_permission(T, x) / __write_permission(T, x): the work item claims an access to the
   lvalue x of type T -- a real read (a write of the value read) of x, race-checked like
   any other access. */
#define __read_permission(T, x) ((void)*(volatile __typeof__(x) *)&(x))
#define __write_permission(T, x) ((void)(*(volatile __typeof__(x) *)&(x) = (x)))

/* Access-log queries: has this thread (the logging thread of the two-thread program)
   an access to the array of p in flight since the last barrier, and at which byte
   offset (a size_t: never negative, pointer-wide).  Pointer queries: which array p points into, and the byte offset. */
#ifdef __OPENCL_C_VERSION__
#define BUGLE_PTR_QUERIES(AS)                                   \
  BUGLE_OVL bool __read(const volatile AS void *p);                      \
  BUGLE_OVL bool __write(const volatile AS void *p);                     \
  BUGLE_OVL __SIZE_TYPE__ __read_offset_bytes(const volatile AS void *p);          \
  BUGLE_OVL __SIZE_TYPE__ __write_offset_bytes(const volatile AS void *p);         \
  BUGLE_OVL int __ptr_base(const volatile AS void *p);                   \
  BUGLE_OVL __SIZE_TYPE__ __ptr_offset_bytes(const volatile AS void *p);     \
  BUGLE_OVL bool __atomic_has_taken_value(const volatile AS void *p, int offset, int v);  \
  BUGLE_OVL bool __atomic_has_taken_value(const volatile AS void *p, int offset, unsigned v);
BUGLE_PTR_QUERIES(__global)
BUGLE_PTR_QUERIES(__local)
BUGLE_PTR_QUERIES(__constant)
BUGLE_PTR_QUERIES(__private)
#undef BUGLE_PTR_QUERIES
#else
BUGLE_DECL bool __read(const volatile void *p);
BUGLE_DECL bool __write(const volatile void *p);
BUGLE_DECL __SIZE_TYPE__ __read_offset_bytes(const volatile void *p);
BUGLE_DECL __SIZE_TYPE__ __write_offset_bytes(const volatile void *p);
BUGLE_DECL int __ptr_base(const volatile void *p);
BUGLE_DECL __SIZE_TYPE__ __ptr_offset_bytes(const volatile void *p);
BUGLE_OVL bool __atomic_has_taken_value(const volatile void *p, int offset, int v);
BUGLE_OVL bool __atomic_has_taken_value(const volatile void *p, int offset, unsigned v);
#endif
/* __atomic_has_taken_value(c, offset, v): an atomic increment (decrement) of the ticket
   counter c (an array used only by atomic_inc-like atomics on one element) has returned v
   to this thread (the first thread of the pair, like the access-log queries). */
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
