//xfail:NOT_ALL_VERIFIED
//--local_size=256 --num_groups=8
//possible (atomic-write|write-atomic|atomic-read|read-atomic) race on count

// As compact_local_counter.cl, but the counter is reset at the end for the
// next round without a barrier before it: work item 0 may clear the counter
// while other work items still take slots or read it.
__kernel void compact(__global const int *in, __global int *out, __global uint *counts) {
  __local uint count;
  __local int kept[256];
  uint lid = get_local_id(0), gid = get_global_id(0);
  if (lid == 0)
    count = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  int v = in[gid];
  if (v > 0)
    kept[atomic_inc(&count)] = v;
  if (lid == 0)
    count = 0;
}
