//pass
//--local_size=64 --num_groups=4

// Each work group stages a tile in local memory, scales it in place and writes each
// element's right neighbour.  Before the tile is rewritten every work item touches the
// element it needs next (a prefetch whose value is discarded): the read still happens,
// so the barrier after it is needed.
float touch(__local const float *tile, unsigned i) {
  return tile[i];
}

__kernel void prefetch_touch(__global const float *in, __global float *out) {
  __local float tile[64];
  unsigned lid = get_local_id(0), gid = get_global_id(0);
  unsigned next = (lid + 1) % 64;
  tile[lid] = in[gid];
  barrier(CLK_LOCAL_MEM_FENCE);
  touch(tile, next);
  barrier(CLK_LOCAL_MEM_FENCE);
  tile[lid] = 2.0f * tile[lid];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[gid] = tile[next];
}
