//pass
//--blockDim=128 --gridDim=4

// Function contracts: wrap_index states what it needs (__requires, checked at every
// call) and what it gives (__ensures, checked at its return, with the returned value
// __return_val_int() and the entry value of the parameter, __old_int(i)).  The kernel
// rotates each block's tile by one element.
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
  out[blockIdx.x * blockDim.x + t] = tile[wrap_index(t + 1, blockDim.x)];
}
