//pass
//--blockDim=128 --gridDim=16

// Each block fills its own 128-element slice of a global scratch buffer and,
// after __syncthreads(), reads it back reversed. Only threads of the same
// block touch a slice, so the barrier orders every conflict.
__global__ void reverse_via_global(int *scratch, int *out) {
  unsigned base = blockIdx.x * blockDim.x; __requires(blockDim.x == 128);
  scratch[base + threadIdx.x] = 5 * (int)threadIdx.x;
  __syncthreads();
  out[base + threadIdx.x] = scratch[base + 127 - threadIdx.x];
}
