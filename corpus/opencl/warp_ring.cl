//pass
//--local_size=128 --num_groups=4 --warp-sync=32

// Token ring inside each 32-wide warp (sub-group) of a work group, written
// for lock-step warps (--warp-sync): every work item posts a token in its slot,
// then takes the token of its right neighbour; the taken slot holds the work
// item's own 0 afterwards.  The next instruction sees what warp-mates wrote
// before it, so only facts about a work item's own last write are checked.
__kernel void ring_handoff(__global int *out, __local int *slot) {
  size_t t = get_local_id(0), lane = t % 32, warp = t / 32;
  size_t right = warp * 32 + (lane + 1) % 32;
  slot[t] = 1;
  slot[right] = 0;
  __assert(slot[right] == 0);
  out[get_global_id(0)] = slot[right];
}
