//pass
//--local_size=64 --num_groups=4

// The k loop is entered once per iteration of r.  Its tile write log is emptied on the
// way back to its entry by the barrier ("moved" can hold there), its read log of the
// global array a by nothing (the barrier fences local memory only): no "moved" candidate
// about that log, and no r12/r13 about a's logs at the head of r.
__kernel void reentered(__global int *a, __local int *tile) {
  size_t l = get_local_id(0);
  for (int r = 0; r < 4; r++) {
    for (int k = 0; k < 2; k++)
      tile[2 * l + k] = a[2 * get_global_id(0) + k];
    barrier(CLK_LOCAL_MEM_FENCE);
    a[2 * get_global_id(0)] = tile[2 * (63 - l)];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
