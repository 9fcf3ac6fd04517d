//pass
//--blockDim=64 --gridDim=2

// The boolean forms of the queries and of a function contract: is_leader's result is
// stated with __return_val_bool and __old_bool(active); __global_requires holds for all.
__device__ bool is_leader(unsigned t, bool active) {
  __global_requires(t < 64);
  __ensures(__return_val_bool() == (__old_bool(active) && t == 0));
  return active && t == 0;
}

__global__ void flags(int *out, int n) {
  __requires(blockDim.x >= 2 && blockDim.x <= 64);
  __global_requires(n > 0);
  unsigned t = threadIdx.x;
  bool lead = is_leader(t, n > 0);
  __assert(__uniform_bool(n > 0));
  __assert(__implies(__other_int(blockIdx.x) == blockIdx.x, __distinct_bool(t == 0) || t != 0));
  __assert(__implies(lead && __other_int(blockIdx.x) == blockIdx.x, !__other_bool(lead)));
  if (lead)
    out[blockIdx.x] = n;
}
