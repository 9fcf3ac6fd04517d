//pass
//--local_size=64 --num_groups=8

// Sums of adjacent pairs: the even work items of each group add their element
// and the next one and write the sum to the group's slice of out, group g
// owning get_local_size(0) / 2 cells from g * (get_local_size(0) / 2). With an
// odd group size the last work item of a group is even too, and its cell is
// the first one of the next group's slice, so the kernel requires even groups.
__kernel void pair_sums(__global const int *in, __global int *out) {
  __requires(get_local_size(0) % 2 == 0);
  uint lid = get_local_id(0), gid = get_global_id(0);
  if (lid % 2 == 0)
    out[get_group_id(0) * (get_local_size(0) / 2) + lid / 2] = in[gid] + in[gid + 1];
}
