//xfail:NOT_ALL_VERIFIED
//--blockDim=128 --gridDim=4
//annot_contract_bug_ensures.cu:10:3: error: postcondition might not hold

// Like annot_contract.cu, but wrap_index tests i > n instead of i >= n, so it
// returns n for i == n: its postconditions fail at the return.
__device__ int wrap_index(int i, int n) {
  __requires(n > 0);
  __requires(i >= 0 && i < 2 * n);
  __ensures(__return_val_int() >= 0 && __return_val_int() < n);
  __ensures(__return_val_int() == (__old_int(i) < n ? __old_int(i) : __old_int(i) - n));
  if (i > n)
    i -= n;
  return i;
}

__global__ void rotate(const float *in, float *out) {
  __shared__ float tile[128];
  int t = threadIdx.x;
  tile[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = tile[wrap_index(t + 1, blockDim.x)];
}
