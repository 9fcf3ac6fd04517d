/* OpenCL C 2.0 atomics (OpenCL 2.0 section 6.13.11) for bugle's OpenCL 1.2 front end.

   bugle compiles with -cl-std=CL1.2 (no generic address space, so points-to stays
   simple); this header adds the 2.0 atomic surface on top of it:
     atomic_int atomic_uint atomic_long atomic_ulong atomic_float atomic_flag
       -> volatile T (plain `*p` accesses to an atomic object are not allowed by 2.0;
          here they are plain, race-checked accesses: stricter, never unsound);
     atomic_load/store/exchange/compare_exchange_strong/weak/fetch_{add,sub,or,xor,and,
       min,max} and their _explicit forms, atomic_flag_test_and_set/clear
       -> GNU __atomic builtins = LLVM atomicrmw/cmpxchg/load atomic/store atomic,
          which bugle.atomics turns into {:atomic} calls (docs/IL.md);
     memory orders and scopes are accepted and ignored: all orders are treated alike,
       an atomic never races with an atomic and always races with a plain access;
     atomic_init -> a plain store (2.0 6.13.11.5: it is not atomic; initialising an
       object concurrently with other accesses is a data race);
     atomic_work_item_fence -> nothing (a fence never separates two threads' accesses).
   Overloads exist for __global and __local objects of int/uint/long/ulong (float:
   load/store/exchange/init only, through the integer of the same width). */
#ifndef BUGLE_OPENCL20_ATOMICS_H
#define BUGLE_OPENCL20_ATOMICS_H

typedef enum memory_order {
  memory_order_relaxed = __ATOMIC_RELAXED, memory_order_acquire = __ATOMIC_ACQUIRE,
  memory_order_release = __ATOMIC_RELEASE, memory_order_acq_rel = __ATOMIC_ACQ_REL,
  memory_order_seq_cst = __ATOMIC_SEQ_CST
} memory_order;
typedef enum memory_scope {
  memory_scope_work_item = __OPENCL_MEMORY_SCOPE_WORK_ITEM,
  memory_scope_work_group = __OPENCL_MEMORY_SCOPE_WORK_GROUP,
  memory_scope_device = __OPENCL_MEMORY_SCOPE_DEVICE,
  memory_scope_all_svm_devices = __OPENCL_MEMORY_SCOPE_ALL_SVM_DEVICES,
  memory_scope_sub_group = __OPENCL_MEMORY_SCOPE_SUB_GROUP
} memory_scope;

#if !defined(__OPENCL_C_VERSION__) || __OPENCL_C_VERSION__ < 200
typedef volatile int atomic_int;
typedef volatile uint atomic_uint;
typedef volatile long atomic_long;
typedef volatile ulong atomic_ulong;
typedef volatile float atomic_float;
typedef volatile int atomic_flag;
#define ATOMIC_VAR_INIT(v) (v)
#define ATOMIC_FLAG_INIT 0

#define BUGLE_AFN static inline __attribute__((overloadable, always_inline))
#define BUGLE_SC __ATOMIC_SEQ_CST

/* load/store/exchange/init of T stored as the integer I of the same width */
#define BUGLE_ATOMIC_LSX(AS, T, I, TO_I, FROM_I) \
  BUGLE_AFN T atomic_load(volatile AS T *o) { \
    return FROM_I(__atomic_load_n((volatile AS I *)o, BUGLE_SC)); } \
  BUGLE_AFN T atomic_load_explicit(volatile AS T *o, memory_order m) { return atomic_load(o); } \
  BUGLE_AFN T atomic_load_explicit(volatile AS T *o, memory_order m, memory_scope s) { \
    return atomic_load(o); } \
  BUGLE_AFN void atomic_store(volatile AS T *o, T v) { \
    __atomic_store_n((volatile AS I *)o, TO_I(v), BUGLE_SC); } \
  BUGLE_AFN void atomic_store_explicit(volatile AS T *o, T v, memory_order m) { atomic_store(o, v); } \
  BUGLE_AFN void atomic_store_explicit(volatile AS T *o, T v, memory_order m, memory_scope s) { \
    atomic_store(o, v); } \
  BUGLE_AFN T atomic_exchange(volatile AS T *o, T v) { \
    return FROM_I(__atomic_exchange_n((volatile AS I *)o, TO_I(v), BUGLE_SC)); } \
  BUGLE_AFN T atomic_exchange_explicit(volatile AS T *o, T v, memory_order m) { \
    return atomic_exchange(o, v); } \
  BUGLE_AFN T atomic_exchange_explicit(volatile AS T *o, T v, memory_order m, memory_scope s) { \
    return atomic_exchange(o, v); } \
  BUGLE_AFN void atomic_init(volatile AS T *o, T v) { *o = v; }

#define BUGLE_ATOMIC_FETCH(AS, T, OP) \
  BUGLE_AFN T atomic_fetch_##OP(volatile AS T *o, T v) { return __atomic_fetch_##OP(o, v, BUGLE_SC); } \
  BUGLE_AFN T atomic_fetch_##OP##_explicit(volatile AS T *o, T v, memory_order m) { \
    return __atomic_fetch_##OP(o, v, BUGLE_SC); } \
  BUGLE_AFN T atomic_fetch_##OP##_explicit(volatile AS T *o, T v, memory_order m, memory_scope s) { \
    return __atomic_fetch_##OP(o, v, BUGLE_SC); }

#define BUGLE_ATOMIC_CAS(AS, T, KIND, WEAK) \
  BUGLE_AFN bool atomic_compare_exchange_##KIND(volatile AS T *o, T *e, T d) { \
    return __atomic_compare_exchange_n(o, e, d, WEAK, BUGLE_SC, BUGLE_SC); } \
  BUGLE_AFN bool atomic_compare_exchange_##KIND##_explicit(volatile AS T *o, T *e, T d, \
      memory_order s, memory_order f) { \
    return __atomic_compare_exchange_n(o, e, d, WEAK, BUGLE_SC, BUGLE_SC); } \
  BUGLE_AFN bool atomic_compare_exchange_##KIND##_explicit(volatile AS T *o, T *e, T d, \
      memory_order s, memory_order f, memory_scope sc) { \
    return __atomic_compare_exchange_n(o, e, d, WEAK, BUGLE_SC, BUGLE_SC); }

#define BUGLE_SAME(x) (x)
#define BUGLE_ATOMIC_INT(AS, T) \
  BUGLE_ATOMIC_LSX(AS, T, T, BUGLE_SAME, BUGLE_SAME) \
  BUGLE_ATOMIC_FETCH(AS, T, add) BUGLE_ATOMIC_FETCH(AS, T, sub) BUGLE_ATOMIC_FETCH(AS, T, or) \
  BUGLE_ATOMIC_FETCH(AS, T, xor) BUGLE_ATOMIC_FETCH(AS, T, and) BUGLE_ATOMIC_FETCH(AS, T, min) \
  BUGLE_ATOMIC_FETCH(AS, T, max) BUGLE_ATOMIC_CAS(AS, T, strong, 0) BUGLE_ATOMIC_CAS(AS, T, weak, 1)

#define BUGLE_ATOMIC_SPACE(AS) \
  BUGLE_ATOMIC_INT(AS, int) BUGLE_ATOMIC_INT(AS, uint) BUGLE_ATOMIC_INT(AS, long) \
  BUGLE_ATOMIC_INT(AS, ulong) \
  BUGLE_ATOMIC_LSX(AS, float, int, as_int, as_float) \
  BUGLE_AFN bool atomic_flag_test_and_set(volatile AS atomic_flag *o) { \
    return __atomic_exchange_n(o, 1, BUGLE_SC) != 0; } \
  BUGLE_AFN bool atomic_flag_test_and_set_explicit(volatile AS atomic_flag *o, memory_order m) { \
    return atomic_flag_test_and_set(o); } \
  BUGLE_AFN bool atomic_flag_test_and_set_explicit(volatile AS atomic_flag *o, memory_order m, \
      memory_scope s) { return atomic_flag_test_and_set(o); } \
  BUGLE_AFN void atomic_flag_clear(volatile AS atomic_flag *o) { __atomic_store_n(o, 0, BUGLE_SC); } \
  BUGLE_AFN void atomic_flag_clear_explicit(volatile AS atomic_flag *o, memory_order m) { \
    atomic_flag_clear(o); } \
  BUGLE_AFN void atomic_flag_clear_explicit(volatile AS atomic_flag *o, memory_order m, \
      memory_scope s) { atomic_flag_clear(o); }

BUGLE_ATOMIC_SPACE(__global)
BUGLE_ATOMIC_SPACE(__local)

BUGLE_AFN void atomic_work_item_fence(cl_mem_fence_flags f, memory_order m, memory_scope s) {}

#undef BUGLE_ATOMIC_SPACE
#undef BUGLE_ATOMIC_INT
#undef BUGLE_ATOMIC_CAS
#undef BUGLE_ATOMIC_FETCH
#undef BUGLE_ATOMIC_LSX
#endif
#endif
