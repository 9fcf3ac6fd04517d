//xfail:NOT_ALL_VERIFIED
//--local_size=* --num_groups=*
//possible write-write race on counts\[
//segment_counts_bug_partial.cl:21:
//Launch with local_size = \(\d+, 1, 1\), num_groups = \(\d+, 1, 1\)

// segment_counts.cl without its precondition: with 48 work items per group,
// work item 32 of group 0 (global id 32) and work item 0 of group 1 (global
// id 48) both start a segment and both write counts[1].
#define SEG 32

__kernel void segment_counts(__global const int *in, __global uint *counts) {
  __local int vals[1024];
  uint lid = get_local_id(0), gid = get_global_id(0);
  vals[lid] = in[gid];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid % SEG == 0) {
    uint c = 0;
    for (uint i = 0; i < SEG; i++)
      c += vals[lid + i] > 0;
    counts[gid / SEG] = c;
  }
}
