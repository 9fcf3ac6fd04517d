//pass
//--local_size=64 --num_groups=1

// log: the loop's barrier resets a's logs but the loop never fills them, so they stay
// empty (as at entry) across the havoc; a's only access, after the loop, then finds
// no stale entry.
__kernel void log_unfilled(__local int *a, __local int *b) {
  unsigned lid = get_local_id(0);
  int i;
  for (i = 0; i < 4; i++) {
    b[lid] = i;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  a[lid * i] = 1;
}
