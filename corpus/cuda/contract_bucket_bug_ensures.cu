//xfail:NOT_ALL_VERIFIED
//--blockDim=128 --gridDim=16 --no-inline
//contract_bucket_bug_ensures.cu:11:3: error: postcondition might not hold on all return paths

// contract_bucket.cu whose helper no longer requires a non-negative key: for a
// negative key, key % nbuckets is negative and the __ensures fails.  The
// kernel itself only passes non-negative keys, so with the calls inlined it
// verifies; --no-inline checks the helper against its contract alone.
__device__ int bucket_of(int key, int nbuckets) {
  __requires(nbuckets > 0);
  __ensures(__return_val_int() >= 0 & __return_val_int() < nbuckets);
  return key % nbuckets;
}

__global__ void bucketize(const int *keys, int *bucket) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  bucket[i] = bucket_of(keys[i] & 0x7fffffff, 16);
}
