//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//possible write-read race on .*buf\[
//Write by work item [0-9]+ with local id [0-9]+ in work group [0-9]+, .*fence_global_bug_localfence.cl:13:
//Read by work item [0-9]+ with local id [0-9]+ in work group [0-9]+, .*fence_global_bug_localfence.cl:15:

// fence_global.cl with a barrier that fences only local memory: the global
// writes are not ordered before the neighbour's read.
__kernel void neighbour_global(__global int *buf, __global int *out) {
  unsigned gid = get_global_id(0);
  unsigned lid = get_local_id(0);
  unsigned base = get_group_id(0) * get_local_size(0);
  buf[gid] = (int)gid * 3;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[gid] = buf[base + (lid + 1) % 64];
}
