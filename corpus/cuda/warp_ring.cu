//pass
//--blockDim=128 --gridDim=4 --warp-sync=32

// Token ring inside each warp, written warp-synchronously (pre-Volta lock-step,
// --warp-sync): every lane posts a token in its slot, then takes the token of
// its right neighbour; the taken slot holds the lane's own 0 afterwards.  The
// next instruction sees what warp-mates wrote before it, so only facts about a
// lane's own last write are checked.
__global__ void ring_handoff(int *out) {
  __shared__ int slot[128];
  unsigned t = threadIdx.x, lane = t % 32, warp = t / 32;
  unsigned right = warp * 32 + (lane + 1) % 32;
  slot[t] = 1;
  slot[right] = 0;
  __assert(slot[right] == 0);
  out[blockIdx.x * 128 + t] = slot[right];
}
