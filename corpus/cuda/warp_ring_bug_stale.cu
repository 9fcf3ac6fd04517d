//xfail:NOT_ALL_VERIFIED
//--blockDim=128 --gridDim=4 --warp-sync=32
//warp_ring_bug_stale.cu:15:3: error: this assertion might not hold

// warp_ring.cu asserting that a lane's own token is still posted: its left
// neighbour took it in the previous instruction, and under --warp-sync that
// write is visible to the next instruction (the assertion must not be checked
// against the lane's own stale view of the slot).
__global__ void ring_handoff(int *out) {
  __shared__ int slot[128];
  unsigned t = threadIdx.x, lane = t % 32, warp = t / 32;
  unsigned right = warp * 32 + (lane + 1) % 32;
  slot[t] = 1;
  slot[right] = 0;
  __assert(slot[t] == 1);
  out[blockIdx.x * 128 + t] = slot[right];
}
