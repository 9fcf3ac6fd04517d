//pass
//--local_size=64 --num_groups=1

// r0 (accessBreak): each work-item fills its own chunk of 4; the loop counter sits
// below the thread component (lid * 4 + i), so only OFF / 4 == lid separates threads.
__kernel void chunks(__local int *a) {
  unsigned lid = get_local_id(0);
  for (unsigned i = 0; i < 4; i++)
    a[lid * 4 + i] = i;
}
