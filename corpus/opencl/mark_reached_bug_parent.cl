//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//possible write-write race on parent\[
//mark_reached_bug_parent.cl:9:

// mark_reached.cl recording the edge that reached each target instead of a
// flag: work items sharing a target now store different values, a real race.
__kernel void mark_reached(__global const int *edge_dst, __global int *parent) {
  parent[edge_dst[get_global_id(0)]] = get_global_id(0);
}
