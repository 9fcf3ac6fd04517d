//xfail:NOT_ALL_VERIFIED
//--local_size=* --num_groups=*
//possible write-write race on out\[
//pair_sums_bug_odd.cl:14:
//Launch with local_size = \(\d+, 1, 1\), num_groups = \(\d+, 1, 1\)

// pair_sums.cl without its precondition: with an odd group size n, work item
// n - 1 of group g (even) writes out[(g + 1) * (n - 1) / 2], the cell work
// item 0 of group g + 1 writes. Even group sizes, or a single group, have no
// race.
__kernel void pair_sums(__global const int *in, __global int *out) {
  uint lid = get_local_id(0), gid = get_global_id(0);
  if (lid % 2 == 0)
    out[get_group_id(0) * (get_local_size(0) / 2) + lid / 2] = in[gid] + in[gid + 1];
}
