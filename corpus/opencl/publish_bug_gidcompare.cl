//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//possible write-write race on .*out\[
//Write by work item [0-9]+ with local id [0-9]+ in work group [0-9]+, .*publish_bug_gidcompare.cl:17:

// Work item 0 publishes the group id in local memory; after the barrier each
// work item checks it and writes out[lid]. The check always succeeds, so
// every group writes out[0..63] with its own id: an inter-group race that a
// sound treatment of group-shared memory must not hide.
__kernel void publish(__global unsigned *out) {
  __local unsigned s;
  unsigned lid = get_local_id(0);
  if (lid == 0)
    s = get_group_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (s == get_group_id(0))
    out[lid] = get_group_id(0);
}
