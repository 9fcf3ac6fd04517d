//pass
//--local_size=64 --num_groups=8 --no-inline

// Bucket index of each key through a helper with a contract.  With --no-inline
// the helper is verified on its own: its __ensures must hold for every input
// its __requires allows, not only for the calls this kernel makes.
int bucket_of(int key, int nbuckets) {
  __requires(key >= 0);
  __requires(nbuckets > 0);
  __ensures(__return_val_int() >= 0 & __return_val_int() < nbuckets);
  return key % nbuckets;
}

__kernel void bucketize(__global const int *keys, __global int *bucket) {
  size_t gid = get_global_id(0);
  bucket[gid] = bucket_of(keys[gid] & 0x7fffffff, 16);
}
