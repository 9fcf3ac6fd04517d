//pass
//--blockDim=32 --gridDim=1 --warp-sync=32

// src: warp-synchronous neighbour exchange; warp-mates conflict only within one
// instruction, so the logged read must be known to come from the read.
__global__ void warp_exchange(int *data, unsigned n) {
  __shared__ int s[32];
  unsigned tid = threadIdx.x;
  for (unsigned i = 0; i < n; i++) {
    int x = s[tid ^ 1];
    s[tid] = x;
  }
}
