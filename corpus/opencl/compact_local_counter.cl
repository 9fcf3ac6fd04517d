//pass
//--local_size=256 --num_groups=8

// Stream compaction in local memory (AMD SDK style): work item 0 resets the
// group's counter, and after a barrier every work item with a positive value
// takes a slot with atomic_inc and stores its value there; after a second
// barrier the group copies the compacted prefix out.
__kernel void compact(__global const int *in, __global int *out, __global uint *counts) {
  __local uint count;
  __local int kept[256];
  uint lid = get_local_id(0), gid = get_global_id(0); __requires(get_local_size(0) <= 256 && get_num_groups(0) <= 4194304);
  if (lid == 0)
    count = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  int v = in[gid];
  if (v > 0)
    kept[atomic_inc(&count)] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < count)
    out[get_group_id(0) * 256 + lid] = kept[lid];
  if (lid == 0)
    counts[get_group_id(0)] = count;
}
