//pass
//--blockDim=256 --gridDim=64

// The host launches this kernel with a block size that is a multiple of the warp size;
// the axiom records it for every thread.  Each warp reverses its own 32 elements in
// shared memory, so the barrier-free exchange only needs the warp boundaries to align.
__axiom(blockDim.x % 32 == 0);

__global__ void warp_reverse(int *out, const int *in) {
  __shared__ int tile[256];
  unsigned t = threadIdx.x;
  tile[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  unsigned lane = t % 32, base = t - lane;
  out[blockIdx.x * blockDim.x + t] = tile[base + 31 - lane];
}
