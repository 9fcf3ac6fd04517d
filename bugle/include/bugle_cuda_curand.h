/* The cuRAND device API for bugle (part of cuda.h; also what curand_kernel.h gives).

   What matters for races is which memory a generator call touches, not the numbers it
   produces, so (written from the cuRAND documentation, "Device API Overview"):
   * a generator state (curandState = XORWOW, Philox4_32_10, MRG32k3a, Sobol32) is an
     ordinary struct in memory: `curand(&s)` reads the first word of `s` and writes every
     word with a new arbitrary value, and returns an arbitrary value.  Every operation
     reads and writes word 0 and writes all words, so any two operations on one state,
     or one and a plain access to any field, conflict.  The states are opaque
     structs of four 32-bit words (unlike NVIDIA's; only device code sees them, and it
     never reads their fields): a state array has 32-bit cells and cheap index
     arithmetic.  A state array indexed by thread (`curand(&states[tid])`) is thus race-free, one state shared by threads races;
     a copy to a local variable (`curandState l = states[tid]`) is private.
   * `curand_init(seed, subsequence, offset, &s)` is such a step too (arbitrary
     values: the skip-ahead is not modelled, so two threads initialising one state race
     even with equal arguments).
   * the distributions (uniform, normal, log-normal, Poisson, the *2/*4/_double forms)
     are `curand` calls on the same state returning arbitrary values (normal also keeps
     its Box-Muller spare value in the state, which the state update covers).
   * MTGP32 (`curandStateMtgp32_t`): one state serves the threads of one block, at most
     256 of them, and every call is block-collective.  Model: the thread with linear index
     t in its block reads and writes word `t % 256` of the state's buffer, then the block
     synchronises (`__syncthreads`): so more than 256 threads on one state, or two blocks
     on one state, race, and a call in divergent code is barrier divergence.
   Arbitrary values come from uninitialised variables (bugle/undefined.py: a different
   value in every thread and at every call). */
#ifndef BUGLE_CUDA_CURAND_H
#define BUGLE_CUDA_CURAND_H

/* An arbitrary value of type T: a fresh one in each thread and each call. */
template <class T> static __device__ __forceinline__ T __bugle_arbitrary(void) {
  T v;
  return v;
}

/* Opaque generator states of four 32-bit words (a power of two: cheap index arithmetic
   for state arrays); their fields are the generator's business. */
struct curandStateXORWOW { unsigned int __bugle_words[4]; };
struct curandStatePhilox4_32_10 { unsigned int __bugle_words[4]; };
struct curandStateMRG32k3a { unsigned int __bugle_words[4]; };
struct curandStateSobol32 { unsigned int __bugle_words[4]; };
#define CURAND_MTGP32_BLOCK_THREADS 256
struct curandStateMtgp32 {
  unsigned int s[CURAND_MTGP32_BLOCK_THREADS];
  int offset, pIdx;
};
typedef struct curandStateXORWOW curandStateXORWOW_t;
typedef struct curandStateXORWOW curandState_t;
typedef struct curandStateXORWOW curandState;
typedef struct curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;
typedef struct curandStateMRG32k3a curandStateMRG32k3a_t;
typedef struct curandStateSobol32 curandStateSobol32_t;
typedef struct curandStateMtgp32 curandStateMtgp32_t;
typedef unsigned int curandDirectionVectors32_t[32];
struct mtgp32_kernel_params { unsigned int pos_tbl[200]; };
typedef struct mtgp32_kernel_params mtgp32_kernel_params_t;

/* A generator step on state *s: read its first word, then write all of it with
   arbitrary values. */
template <class S> static __device__ __forceinline__ void __bugle_rng_step(S *s) {
  unsigned int first = *(const unsigned int *)s;
  (void)first;
  *s = __bugle_arbitrary<S>();
}

#define BUGLE_RNG __device__ __forceinline__
#define BUGLE_RNG_INIT(S)                                                                          \
  static BUGLE_RNG void curand_init(unsigned long long seed, unsigned long long subsequence,      \
                                    unsigned long long offset, S *state) {                      \
    __bugle_rng_step(state); }
BUGLE_RNG_INIT(curandStateXORWOW)
BUGLE_RNG_INIT(curandStatePhilox4_32_10)
BUGLE_RNG_INIT(curandStateMRG32k3a)
#undef BUGLE_RNG_INIT
static BUGLE_RNG void curand_init(curandDirectionVectors32_t dv, unsigned int offset, curandStateSobol32 *state) {
  __bugle_rng_step(state); }

/* curand and the distributions, for every state type but MTGP32 */
#define BUGLE_RNG_DISTS(S)                                                                         \
  static BUGLE_RNG unsigned int curand(S *s) { __bugle_rng_step(s); return __bugle_arbitrary<unsigned int>(); } \
  static BUGLE_RNG float curand_uniform(S *s) { return __bugle_uniform(curand(s)); }               \
  static BUGLE_RNG double curand_uniform_double(S *s) { return __bugle_uniform_double(curand(s)); } \
  static BUGLE_RNG float curand_normal(S *s) { return __bugle_normal(curand(s)); }                 \
  static BUGLE_RNG double curand_normal_double(S *s) { return __bugle_normal_double(curand(s)); }  \
  static BUGLE_RNG float2 curand_normal2(S *s) {                                                   \
    unsigned int a = curand(s); return make_float2(__bugle_normal(a), __bugle_normal(curand(s))); } \
  static BUGLE_RNG double2 curand_normal2_double(S *s) {                                           \
    unsigned int a = curand(s);                                                                    \
    return make_double2(__bugle_normal_double(a), __bugle_normal_double(curand(s))); }            \
  static BUGLE_RNG float curand_log_normal(S *s, float mean, float stddev) {                       \
    return expf(mean + stddev * curand_normal(s)); }                                               \
  static BUGLE_RNG double curand_log_normal_double(S *s, double mean, double stddev) {             \
    return exp(mean + stddev * curand_normal_double(s)); }                                         \
  static BUGLE_RNG unsigned int curand_poisson(S *s, double lambda) { return curand(s); }
/* uninterpreted conversions of a 32-bit random word into a distribution's value */
extern "C" __device__ float __bugle_uniform(unsigned int) __attribute__((const));
extern "C" __device__ double __bugle_uniform_double(unsigned int) __attribute__((const));
extern "C" __device__ float __bugle_normal(unsigned int) __attribute__((const));
extern "C" __device__ double __bugle_normal_double(unsigned int) __attribute__((const));
BUGLE_RNG_DISTS(curandStateXORWOW)
BUGLE_RNG_DISTS(curandStatePhilox4_32_10)
BUGLE_RNG_DISTS(curandStateMRG32k3a)
BUGLE_RNG_DISTS(curandStateSobol32)
#undef BUGLE_RNG_DISTS
static BUGLE_RNG uint4 curand4(curandStatePhilox4_32_10 *s) {
  __bugle_rng_step(s); return __bugle_arbitrary<uint4>(); }
static BUGLE_RNG float4 curand_uniform4(curandStatePhilox4_32_10 *s) {
  uint4 r = curand4(s);
  return make_float4(__bugle_uniform(r.x), __bugle_uniform(r.y), __bugle_uniform(r.z), __bugle_uniform(r.w)); }
static BUGLE_RNG float4 curand_normal4(curandStatePhilox4_32_10 *s) {
  uint4 r = curand4(s);
  return make_float4(__bugle_normal(r.x), __bugle_normal(r.y), __bugle_normal(r.z), __bugle_normal(r.w)); }
static BUGLE_RNG void skipahead(unsigned long long n, curandStateXORWOW *s) { __bugle_rng_step(s); }
static BUGLE_RNG void skipahead_sequence(unsigned long long n, curandStateXORWOW *s) { __bugle_rng_step(s); }
static BUGLE_RNG void skipahead(unsigned long long n, curandStatePhilox4_32_10 *s) { __bugle_rng_step(s); }
static BUGLE_RNG void skipahead_sequence(unsigned long long n, curandStatePhilox4_32_10 *s) { __bugle_rng_step(s); }

/* MTGP32: block-collective (see above) */
static BUGLE_RNG unsigned int curand(curandStateMtgp32 *s) {
  unsigned int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  unsigned int *w = &s->s[t % CURAND_MTGP32_BLOCK_THREADS];
  unsigned int old = *w;
  (void)old;
  *w = __bugle_arbitrary<unsigned int>();
  __syncthreads();
  return __bugle_arbitrary<unsigned int>();
}
static BUGLE_RNG float curand_uniform(curandStateMtgp32 *s) { return __bugle_uniform(curand(s)); }
static BUGLE_RNG float curand_normal(curandStateMtgp32 *s) { return __bugle_normal(curand(s)); }
static BUGLE_RNG double curand_uniform_double(curandStateMtgp32 *s) { return __bugle_uniform_double(curand(s)); }
static BUGLE_RNG double curand_normal_double(curandStateMtgp32 *s) { return __bugle_normal_double(curand(s)); }
#undef BUGLE_RNG

/* Host API (curand.h): declarations only. */
typedef enum curandStatus {
  CURAND_STATUS_SUCCESS = 0, CURAND_STATUS_VERSION_MISMATCH = 100, CURAND_STATUS_NOT_INITIALIZED = 101,
  CURAND_STATUS_ALLOCATION_FAILED = 102, CURAND_STATUS_LAUNCH_FAILURE = 201
} curandStatus_t;
typedef enum curandRngType {
  CURAND_RNG_PSEUDO_DEFAULT = 100, CURAND_RNG_PSEUDO_XORWOW = 101, CURAND_RNG_PSEUDO_MRG32K3A = 121,
  CURAND_RNG_PSEUDO_MTGP32 = 141, CURAND_RNG_PSEUDO_PHILOX4_32_10 = 161, CURAND_RNG_QUASI_SOBOL32 = 201
} curandRngType_t;
typedef struct curandGenerator_st *curandGenerator_t;
extern "C" {
__host__ curandStatus_t curandCreateGenerator(curandGenerator_t *gen, curandRngType_t type);
__host__ curandStatus_t curandDestroyGenerator(curandGenerator_t gen);
__host__ curandStatus_t curandSetPseudoRandomGeneratorSeed(curandGenerator_t gen, unsigned long long seed);
__host__ curandStatus_t curandGenerate(curandGenerator_t gen, unsigned int *out, size_t n);
__host__ curandStatus_t curandGenerateUniform(curandGenerator_t gen, float *out, size_t n);
__host__ curandStatus_t curandGenerateNormal(curandGenerator_t gen, float *out, size_t n, float mean, float sd);
__host__ curandStatus_t curandMakeMTGP32Constants(const void *params, mtgp32_kernel_params_t *p);
__host__ curandStatus_t curandMakeMTGP32KernelState(curandStateMtgp32_t *s, const void *params,
                                                    mtgp32_kernel_params_t *k, int n, unsigned long long seed);
}
#endif
