//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=2

// Shape test only: race-free, but not verified (known gap: no candidate relates the
// logged offset to the thread across the iterations of the outer loop; main neither).
// At the head of the j loop both writes are at offsets the j loop does not change, but
// an entry of an earlier iteration of i is at the old i.  The barrier at the start of
// each i iteration empties a's logs (group-shared, uniform barrier) before the j loop
// is entered again, not b's (global): "id" candidates about a's log only.
__kernel void stale_offsets(__local int *a, __global int *b) {
  unsigned lid = get_local_id(0);
  for (unsigned i = 0; i < 4; i++) {
    barrier(CLK_LOCAL_MEM_FENCE);
    for (unsigned j = 0; j < 4; j++) {
      a[64 * i + lid] += j;
      b[256 * get_group_id(0) + 64 * i + lid] += j;
    }
  }
}
