//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8 --no-inline
//contract_bucket_bug_ensures.cl:11:3: error: postcondition might not hold on all return paths

// contract_bucket.cl whose helper no longer requires a non-negative key: for a
// negative key, key % nbuckets is negative and the __ensures fails.  The
// kernel itself only passes non-negative keys, so with the calls inlined it
// verifies; --no-inline checks the helper against its contract alone.
int bucket_of(int key, int nbuckets) {
  __requires(nbuckets > 0);
  __ensures(__return_val_int() >= 0 & __return_val_int() < nbuckets);
  return key % nbuckets;
}

__kernel void bucketize(__global const int *keys, __global int *bucket) {
  size_t gid = get_global_id(0);
  bucket[gid] = bucket_of(keys[gid] & 0x7fffffff, 16);
}
