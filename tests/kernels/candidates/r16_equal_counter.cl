//pass
//--local_size=64 --num_groups=1

// r11/r16: i looks non-uniform (its step depends on the local id) but is the same in
// both threads; the loop predicate and i must be equal for the barrier to be uniform.
__kernel void equal_counter(__local int *a, unsigned n) {
  unsigned lid = get_local_id(0);
  for (unsigned i = 0; i < n; i += (lid >= 1000 ? 2 : 1)) {
    a[lid] = i;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
