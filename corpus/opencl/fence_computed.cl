//pass
//--local_size=64 --num_groups=8

// A stage whose fence is chosen at run time: work items that published into the
// local tile fence local memory, the others fence nothing.  Only work items with
// an even id write the tile, so only their fence matters for the reads after the
// barrier (each work item's own fence orders its own accesses).
__kernel void publish_even(__global const int *in, __global int *out) {
  __local int tile[64];
  unsigned lid = get_local_id(0);
  int flags = (lid % 2 == 0) ? CLK_LOCAL_MEM_FENCE : 0;
  if (lid % 2 == 0)
    tile[lid] = in[get_global_id(0)];
  barrier(flags);
  out[get_global_id(0)] = tile[lid & ~1u];
}
