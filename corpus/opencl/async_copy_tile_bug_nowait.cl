//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//possible (write-read|read-write) race on tile\[
//async_copy_tile_bug_nowait.cl:13:
//async_copy_tile_bug_nowait.cl:15:

// async_copy_tile.cl reading the tile before waiting for the copy (a barrier
// does not complete an async copy, only wait_group_events does).
__kernel void reverse_tiles(__global const float *in, __global float *out,
                            __local float *tile, __local float *tile2) {
  size_t n = get_local_size(0), lid = get_local_id(0);
  size_t base = get_group_id(0) * n;
  event_t ev = async_work_group_copy(tile, in + base, n, 0);
  barrier(CLK_LOCAL_MEM_FENCE);
  tile2[lid] = tile[n - 1 - lid];
  wait_group_events(1, &ev);
  barrier(CLK_LOCAL_MEM_FENCE);
  ev = async_work_group_copy(out + base, tile2, n, 0);
  wait_group_events(1, &ev);
}
