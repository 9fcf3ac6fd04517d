//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//possible write-read race on tile\[

// Like fence_computed.cl, but the fence bit is set by the readers (odd ids)
// instead of the writers: the writes of the even work items are not fenced, so
// the reads after the barrier race with them.
__kernel void publish_even(__global const int *in, __global int *out) {
  __local int tile[64];
  unsigned lid = get_local_id(0);
  int flags = (lid % 2 == 1) ? CLK_LOCAL_MEM_FENCE : 0;
  if (lid % 2 == 0)
    tile[lid] = in[get_global_id(0)];
  barrier(flags);
  out[get_global_id(0)] = tile[lid & ~1u];
}
