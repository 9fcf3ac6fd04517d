//xfail:NOT_ALL_VERIFIED
//--local_size=128 --num_groups=4 --warp-sync=32
//warp_ring_bug_stale.cl:13:3: error: this assertion might not hold

// warp_ring.cl asserting that a work item's own token is still posted: its
// left neighbour took it in the previous instruction, and under --warp-sync
// that write is visible to the next instruction.
__kernel void ring_handoff(__global int *out, __local int *slot) {
  size_t t = get_local_id(0), lane = t % 32, warp = t / 32;
  size_t right = warp * 32 + (lane + 1) % 32;
  slot[t] = 1;
  slot[right] = 0;
  __assert(slot[t] == 1);
  out[get_global_id(0)] = slot[right];
}
