//xfail:NOT_ALL_VERIFIED
//--blockDim=128 --gridDim=4
//annot_contract_bug_requires.cu:23:43: error: a precondition for this call might not hold
//annot_contract_bug_requires.cu:10:3: note: this is the precondition that might not hold

// Like annot_contract.cu, but the kernel calls wrap_index with t - 1, which is -1
// for thread 0: the precondition i >= 0 fails at the call.
__device__ int wrap_index(int i, int n) {
  __requires(n > 0);
  __requires(i >= 0 && i < 2 * n);
  __ensures(__return_val_int() >= 0 && __return_val_int() < n);
  __ensures(__return_val_int() == (__old_int(i) < n ? __old_int(i) : __old_int(i) - n));
  if (i >= n)
    i -= n;
  return i;
}

__global__ void rotate(const float *in, float *out) {
  __shared__ float tile[128];
  int t = threadIdx.x;
  tile[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = tile[wrap_index(t - 1, blockDim.x)];
}
