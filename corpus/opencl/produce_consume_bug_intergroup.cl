//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//possible write-read race on .*G\[
//Write by work item [0-9]+ with local id [0-9]+ in work group 0, .*produce_consume_bug_intergroup.cl:14:
//Read by work item [0-9]+ with local id [0-9]+ in work group 1, .*produce_consume_bug_intergroup.cl:17:

// Group 0 produces G, group 1 consumes it after a barrier. A barrier only
// synchronizes the work items of one group, so the read in group 1 races
// with the write in group 0.
__kernel void produce_consume(__global int *G, __global int *out) {
  unsigned lid = get_local_id(0);
  unsigned grp = get_group_id(0);
  if (grp == 0)
    G[lid] = 3 * (int)lid;
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (grp == 1)
    out[lid] = G[63 - lid];
}
