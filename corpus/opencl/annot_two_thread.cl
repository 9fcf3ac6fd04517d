//pass
//--local_size=64 --num_groups=4

// Two-thread assertions about any pair of distinct work items: global ids differ
// (__distinct_int, and __other_int gives the other work item's value), at most one
// work item of the pair is the first of its group... only within one group, so the
// claim is guarded by equal group ids; and every work item passes the bounds guard
// (__all).
__kernel void pairwise(__global int *out, int n) {
  __requires(n == get_global_size(0)); __requires(n >= 2);
  size_t gid = get_global_id(0);
  size_t lid = get_local_id(0);
  size_t grp = get_group_id(0);
  __assert(__distinct_int(gid));
  __assert(__other_int(gid) != gid);
  __assert(__implies(__other_int(grp) == grp, __at_most_one(lid == 0)));
  __assert(__all(gid < n));
  __assert(__uniform_int(get_local_size(0)));
  out[gid] = (int)lid;
}
