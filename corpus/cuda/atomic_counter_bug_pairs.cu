//xfail:NOT_ALL_VERIFIED
//--blockDim=128 --gridDim=16
//possible write-write race on out\[
//atomic_counter_bug_pairs.cu:11:

// atomic_counter.cu packing two values per output slot by ticket / 2: the
// tickets are distinct, but tickets 2k and 2k + 1 name the same slot.
__global__ void compact(const int *in, int *out, int *count) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (v > 0)
    out[atomicAdd(count, 1) / 2] = v;
}
