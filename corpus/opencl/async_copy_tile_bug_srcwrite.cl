//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//possible (read-write|write-read) race on in\[
//async_copy_tile_bug_srcwrite.cl:13:
//async_copy_tile_bug_srcwrite.cl:14:

// async_copy_tile.cl clearing its input element while the copy that reads
// the input tile may still be in flight (the clear belongs after the wait).
__kernel void reverse_tiles(__global float *in, __global float *out,
                            __local float *tile, __local float *tile2) {
  size_t n = get_local_size(0), lid = get_local_id(0);
  size_t base = get_group_id(0) * n;
  event_t ev = async_work_group_copy(tile, in + base, n, 0);
  in[base + lid] = 0.0f;
  wait_group_events(1, &ev);
  barrier(CLK_LOCAL_MEM_FENCE);
  tile2[lid] = tile[n - 1 - lid];
  barrier(CLK_LOCAL_MEM_FENCE);
  ev = async_work_group_copy(out + base, tile2, n, 0);
  wait_group_events(1, &ev);
}
