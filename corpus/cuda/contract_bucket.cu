//pass
//--blockDim=128 --gridDim=16 --no-inline

// Bucket index of each key through a helper with a contract.  With --no-inline
// the helper is verified on its own: its __ensures must hold for every input
// its __requires allows, not only for the calls this kernel makes.
__device__ int bucket_of(int key, int nbuckets) {
  __requires(key >= 0);
  __requires(nbuckets > 0);
  __ensures(__return_val_int() >= 0 & __return_val_int() < nbuckets);
  return key % nbuckets;
}

__global__ void bucketize(const int *keys, int *bucket) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  bucket[i] = bucket_of(keys[i] & 0x7fffffff, 16);
}
