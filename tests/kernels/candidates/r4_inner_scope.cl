//pass
//--local_size=64 --num_groups=16

// r4 for a scope inside the loop: only work item 0 of each group accumulates its group's
// row, with no barrier in the loop, so the write log at the loop head must say that the
// logged writes were made by a work item with local id 0 (`lid == 0` is loop-invariant).
__kernel void per_group_sum(__global int *sums, __global const int *in, int n) {
  int lid = get_local_id(0), bid = get_group_id(0);
  for (int i = 0; i < n; i++) {
    if (lid == 0)
      sums[bid] += in[bid * n + i];
  }
}
