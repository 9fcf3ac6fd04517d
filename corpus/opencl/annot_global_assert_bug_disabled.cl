//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=2
//annot_global_assert_bug_disabled.cl:11:5: error: this assertion might not hold

// Like annot_global_assert.cl, but the global assertion repeats the guard: work items
// that skip the branch (gid >= n) break it, because __global_assert is checked for
// them too.
__kernel void boundary(__global int *data, int n) {
  size_t gid = get_global_id(0);
  if (gid < n) {
    __global_assert(gid < n);
    data[gid] = 1;
  }
}
