//pass
//--local_size=128 --num_groups=8

// Count the positive elements of every 32-element segment of the input: each
// work item stages its element in local memory and, after a barrier, the first
// work item of each segment counts the segment and writes counts[gid / 32].
// Segments are numbered by global id, so two groups never share one only when
// every group is made of whole segments, which the precondition states.
#define SEG 32

__kernel void segment_counts(__global const int *in, __global uint *counts) {
  __requires(get_local_size(0) % SEG == 0);
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
