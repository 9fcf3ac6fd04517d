//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=4
//possible read-write race on tile\[
//Read by work item [0-9]+ with local id [0-9]+ in work group [0-9]+, .*prefetch_touch_bug_race.cl:14:
//  return tile\[i\];
//Write by work item [0-9]+ with local id [0-9]+ in work group [0-9]+, .*prefetch_touch_bug_race.cl:24:

// Each work group stages a tile in local memory, scales it in place and writes each
// element's right neighbour.  Before the tile is rewritten every work item touches the
// element it needs next (a prefetch whose value is discarded): the read still happens,
// so the barrier after it is needed.  Bug: that barrier is missing; the discarded read
// of tile[lid + 1] races with its owner's write.
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
  tile[lid] = 2.0f * tile[lid];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[gid] = tile[next];
}
