//pass
//--local_size=64 --num_groups=1

// r4/r6: only work-item 0 runs the loop, so an access in the log must come from
// work-item 0 (r4) or thread 1 never entered and logged nothing (r6).
__kernel void enabled(__local int *a) {
  if (get_local_id(0) == 0) {
    for (unsigned i = 0; i < 16; i++)
      a[i] = i;
  }
}
