//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=4
//annot_two_thread_bug_distinct.cl:11:3: error: this assertion might not hold

// Like annot_two_thread.cl, but the claims are about local ids, which two work items
// of different groups share: they are not distinct (and once that failure is
// reported it is assumed, so the second assertion follows from it).
__kernel void pairwise(__global int *out) {
  size_t gid = get_global_id(0);
  size_t lid = get_local_id(0);
  __assert(__distinct_int(lid));
  __assert(__at_most_one(lid == 0));
  out[gid] = (int)lid;
}
